"""Optimizers and learning-rate schedules with torch.optim's signatures, thin over the C++ ones
(src/nn/optimizer.h, lr_scheduler.h; docs/nn.md). A step writes every parameter in place, so
modules and any other handle on a parameter see the new values."""
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
            if k == "betas":
                opts["beta1"], opts["beta2"] = float(v[0]), float(v[1])
            elif k in names:
                opts[k] = float(v)
            else:
                raise ValueError(f"optimizer: unknown option {k!r} in a parameter group")
        groups.append(([t._t for t in ts], opts))
    return groups


class Optimizer:
    """The torch.optim.Optimizer surface: step(), zero_grad(), param_groups (lr is writable)."""

    def __init__(self, impl):
        self._impl = impl

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
    def __init__(self, params, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, *, maximize=False):
        names = {"lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize"}
        super().__init__(_O.SGD(_groups(params, names), lr, momentum, dampening, weight_decay, nesterov, maximize))


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        names = {"lr", "eps", "weight_decay", "amsgrad", "maximize"}
        super().__init__(_O.Adam(_groups(params, names), lr, betas[0], betas[1], eps, weight_decay, amsgrad, maximize,
                                 self._decoupled))

    _decoupled = False


class AdamW(Adam):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    _decoupled = True


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
