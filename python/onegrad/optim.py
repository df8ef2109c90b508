"""Optimizers and learning-rate schedules with torch.optim's signatures, thin over the C++ ones
(src/nn/optimizer.h, lr_scheduler.h; docs/nn.md). A step writes every parameter in place, so
modules and any other handle on a parameter see the new values."""
import numpy as np

from . import _C
from .tensor import Tensor

_O = _C.optim


def _groups(params, names):
    """torch's params argument: an iterable of Tensors, or of dicts {"params": [...], "lr": ...}."""
    params = list(params)
    if not params:
        raise ValueError("optimizer: got an empty parameter list")
    if not isinstance(params[0], dict):
        params = [{"params": params}]
    groups = []
    for g in params:
        ts = g["params"]
        ts = [ts] if isinstance(ts, Tensor) else list(ts)
        opts = {}
        for k, v in g.items():
            if k == "params":
                continue
            if k == "betas" and k in names:
                opts["beta1"], opts["beta2"] = float(v[0]), float(v[1])
            elif k in names:
                opts[k] = float(v)
            else:
                raise ValueError(f"optimizer: unknown option {k!r} in a parameter group")
        groups.append(([t._t for t in ts], opts))
    return groups


# torch's group options that have no meaning here (implementation switches): accepted and dropped
# when a torch state dict is loaded.
_TORCH_ONLY_OPTIONS = {"foreach", "capturable", "differentiable", "fused"}
_BOOL_OPTIONS = {"nesterov", "amsgrad", "maximize", "centered"}


def _as_tensor(v):
    if isinstance(v, Tensor):
        return v
    if hasattr(v, "detach") and hasattr(v, "numpy"):  # a torch tensor
        v = v.detach().numpy()
    return Tensor(np.asarray(v))


class Optimizer:
    """The torch.optim.Optimizer surface: step(), zero_grad(), param_groups (lr is writable),
    state_dict() and load_state_dict()."""

    def __init__(self, impl):
        self._impl = impl

    def state_dict(self):
        """torch's layout: {"state": {index: {"step": n, "exp_avg": Tensor, ...}}, "param_groups":
        [{"lr": ..., "betas": (b1, b2), ..., "params": [index, ...]}]}, parameters numbered across
        the groups in order. The tensors are the optimizer's own (each step replaces them)."""
        state, groups = self._impl.state_dict()
        out_state = {}
        for i, (step, tensors) in state.items():
            entry = {"step": step}
            entry.update({k: Tensor._wrap(t) for k, t in tensors})
            out_state[i] = entry
        out_groups = []
        for options, params in groups:
            g = {}
            for k, v in options.items():
                if k == "beta1":
                    g["betas"] = (v, options["beta2"])
                elif k != "beta2":
                    g[k] = bool(v) if k in _BOOL_OPTIONS else v
            g["params"] = list(params)
            out_groups.append(g)
        return {"state": out_state, "param_groups": out_groups}

    def load_state_dict(self, state_dict):
        """Loads a state_dict() of an optimizer of the same kind over parameters of the same shapes
        in the same groups (torch's own state dicts load too). Raises ValueError (ArgumentError)
        for a different group layout, ShapeError for a state tensor of the wrong shape."""
        if not isinstance(state_dict, dict) or "state" not in state_dict or "param_groups" not in state_dict:
            raise ValueError("load_state_dict: expected a dict with 'state' and 'param_groups'")
        state = {}
        for i, entry in state_dict["state"].items():
            step = entry.get("step", 0)
            step = int(float(step.item() if hasattr(step, "item") else step))
            tensors = [(k, _as_tensor(v)._t) for k, v in entry.items() if k != "step"]
            state[int(i)] = (step, tensors)
        groups = []
        for g in state_dict["param_groups"]:
            options = {}
            for k, v in g.items():
                if k == "params" or k in _TORCH_ONLY_OPTIONS:
                    continue
                if k == "betas":
                    options["beta1"], options["beta2"] = float(v[0]), float(v[1])
                else:
                    options[k] = float(v)  # C++ checks the names against the optimizer's
            groups.append((options, [int(p) for p in g["params"]]))
        self._impl.load_state_dict(state, groups)

    def step(self):
        self._impl.step()

    def zero_grad(self, set_to_none=False):
        self._impl.zero_grad(set_to_none)

    @property
    def param_groups(self):
        return [_Group(self._impl, i) for i in range(self._impl.num_groups())]


class _Group(dict):
    """A param group's options; writing group["lr"] reaches the C++ optimizer."""

    def __init__(self, impl, i):
        super().__init__(impl.group_options(i))
        self._impl, self._i = impl, i

    def __setitem__(self, k, v):
        super().__setitem__(k, v)
        self._impl.set_group_option(self._i, k, float(v))


class SGD(Optimizer):
    _option_names = {"lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize"}

    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, *, maximize=False):
        super().__init__(_O.SGD(_groups(params, self._option_names), lr, momentum, dampening, weight_decay, nesterov,
                                maximize))


class Adam(Optimizer):
    _option_names = {"lr", "betas", "eps", "weight_decay", "amsgrad", "maximize"}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        super().__init__(_O.Adam(_groups(params, self._option_names), lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize,
                                 self._decoupled))

    _decoupled = False


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    _decoupled = True


class RMSprop(Optimizer):
    _option_names = {"lr", "alpha", "eps", "weight_decay", "momentum", "centered", "maximize"}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                 foreach=None, maximize=False, differentiable=False):
        super().__init__(_O.RMSprop(_groups(params, self._option_names), lr, alpha, eps, weight_decay, momentum,
                                    centered, maximize))


class Adagrad(Optimizer):
    _option_names = {"lr", "lr_decay", "weight_decay", "initial_accumulator_value", "eps", "maximize"}

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10,
                 foreach=None, *, maximize=False):
        super().__init__(_O.Adagrad(_groups(params, self._option_names), lr, lr_decay, weight_decay,
                                    initial_accumulator_value, eps, maximize))


class _Scheduler:
    def __init__(self, impl):
        self._impl = impl

    def step(self):
        self._impl.step()

    def get_last_lr(self):
        return list(self._impl.get_last_lr())

    @property
    def last_epoch(self):
        return self._impl.last_epoch


class lr_scheduler:  # noqa: N801 -- torch's module name
    class StepLR(_Scheduler):
        def __init__(self, optimizer, step_size, gamma=0.1):
            super().__init__(_O.StepLR(optimizer._impl, step_size, gamma))

    class MultiStepLR(_Scheduler):
        def __init__(self, optimizer, milestones, gamma=0.1):
            super().__init__(_O.MultiStepLR(optimizer._impl, list(milestones), gamma))

    class ExponentialLR(_Scheduler):
        def __init__(self, optimizer, gamma):
            super().__init__(_O.ExponentialLR(optimizer._impl, gamma))

    class CosineAnnealingLR(_Scheduler):
        def __init__(self, optimizer, T_max, eta_min=0.0):  # noqa: N803 -- torch's name
            super().__init__(_O.CosineAnnealingLR(optimizer._impl, T_max, eta_min))

    class LinearLR(_Scheduler):
        def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5):
            super().__init__(_O.LinearLR(optimizer._impl, start_factor, end_factor, total_iters))
