"""torch.nn.Module and Parameter in Python (docs/nn.md "Modules"), so models are written as in torch:

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)          # a child module, by assignment
            self.scale = nn.Parameter(Tensor.ones(2))
        def forward(self, x):
            return self.fc(x) * self.scale

Assigning a Parameter or a Module to an attribute registers it; register_buffer adds saved state
that is not trained. Names nest with dots ("fc.weight"), so state_dict keys equal torch's for the
same architecture. load_state_dict writes in place (Tensor.assign): optimizers built before the
load keep training the module's tensors. The C++ Module (src/nn/module.h) follows the same rules.
"""

from collections import OrderedDict, namedtuple

import numpy as np

from ..errors import StateDictError
from ..tensor import Tensor


class Parameter(Tensor):
    """A Tensor that a Module registers as a parameter when assigned to an attribute. It is a new
    handle on `data`'s tensor (as Tensor(t) is), marked requires_grad, which realizes it."""

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = Tensor.empty(0)
        self._t = Tensor._coerce(data)._t
        if requires_grad:
            self._t.requires_grad_(True)
        else:
            self._t.realize()

    @classmethod
    def _wrap(cls, t):
        # ops on a parameter make plain tensors (torch's ops on a Parameter do too)
        return Tensor._wrap(t)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


_IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])


def _shape_text(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


class Module:
    """Base class of every layer: parameters, buffers and children registered by name."""

    def __init__(self):
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers", set())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---- registration

    def _check_init(self):
        if "_parameters" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__}: call super().__init__() before assigning parameters, "
                                 "buffers or modules")

    def _check_name(self, name, kind):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string, got {type(name).__name__}")
        if "." in name or name == "":
            raise KeyError(f'{kind} name must not contain "." or be empty, got "{name}"')

    def register_parameter(self, name, param):
        self._check_init()
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(onegrad.nn.Parameter or None required)")
        self._forget(name, keep=self._parameters)
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Saved state that is not a parameter (running statistics); persistent=False keeps it out
        of state_dict."""
        self._check_init()
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(onegrad.Tensor or None required)")
        self._forget(name, keep=self._buffers)
        if tensor is not None:
            tensor.realize()  # a buffer: load_state_dict and the running-stat updates write it in place
        self._buffers[name] = tensor
        if not persistent:
            self._non_persistent_buffers.add(name)

    def add_module(self, name, module):
        self._check_init()
        self._check_name(name, "module")
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._forget(name, keep=self._modules)
        self._modules[name] = module

    register_module = add_module

    def _forget(self, name, keep=None):
        # a name registered again in its own table keeps its place (torch's order in state_dict)
        for d in (self._parameters, self._buffers, self._modules):
            if d is not keep:
                d.pop(name, None)
        self._non_persistent_buffers.discard(name)
        self.__dict__.pop(name, None)

    def __setattr__(self, name, value):
        d = self.__dict__
        if isinstance(value, Parameter):
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            self.add_module(name, value)
        elif "_parameters" in d and name in self._parameters:
            self.register_parameter(name, value)  # None, or a TypeError naming the attribute
        elif "_modules" in d and name in self._modules:
            self.add_module(name, value)
        elif "_buffers" in d and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(onegrad.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # only called when normal lookup fails: the registered members
        d = self.__dict__
        for table in ("_parameters", "_buffers", "_modules"):
            if table in d and name in d[table]:
                return d[table][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if any(name in self.__dict__.get(t, ()) for t in ("_parameters", "_buffers", "_modules")):
            self._forget(name)
        else:
            object.__delattr__(self, name)

    # ---- walks (torch's order: own members in registration order, then each child)

    def named_children(self):
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo=None, prefix=""):
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self.named_children():
            yield from m.named_modules(memo, prefix + ("." if prefix else "") + name)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def _named_members(self, table, prefix, recurse):
        seen = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, m in modules:
            for name, t in getattr(m, table).items():
                if t is None or id(t) in seen:
                    continue
                seen.add(id(t))
                yield mod_prefix + ("." if mod_prefix else "") + name, t

    def named_parameters(self, prefix="", recurse=True):
        yield from self._named_members("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True):
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        for p in self.parameters():
            if p.grad is None:
                continue
            p.grad = None if set_to_none else Tensor.zeros(*p.shape, dtype=p.dtype, device=p.device)

    # ---- state dicts

    def _state_entries(self, prefix=""):
        """(key, tensor) of every parameter and persistent buffer: each module's parameters, then
        its buffers, then its children's entries (torch's keys and order)."""
        for name, p in self._parameters.items():
            if p is not None:
                yield prefix + name, p
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers:
                yield prefix + name, b
        for name, m in self.named_children():
            yield from m._state_entries(prefix + name + ".")

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An OrderedDict key -> Tensor (detached handles on the module's tensors, so later updates
        show through them, as torch's do; keep_vars=True gives the tensors themselves)."""
        out = OrderedDict() if destination is None else destination
        for k, t in self._state_entries(prefix):
            out[k] = t if keep_vars else t.detach()
        return out

    def load_state_dict(self, state_dict, strict=True):
        """Copies values (Tensors, numpy arrays, anything np.asarray takes) into the parameters and
        buffers in place, cast to their dtypes. Checked first, written after: a missing or unexpected
        key (strict) or a shape mismatch (always) raises StateDictError naming every problem, and
        nothing is written. Returns (missing_keys, unexpected_keys) as torch does."""
        targets = OrderedDict(self._state_entries())
        missing = [k for k in targets if k not in state_dict]
        unexpected = [k for k in state_dict if k not in targets]
        values, mismatched = {}, []
        for k, t in targets.items():
            if k not in state_dict:
                continue
            v = state_dict[k]
            v = v if isinstance(v, Tensor) else Tensor(np.asarray(v), dtype=t.dtype)
            if tuple(v.shape) != tuple(t.shape):
                mismatched.append(f"size mismatch for {k}: copying a param with shape {_shape_text(v.shape)} from "
                                  f"checkpoint, the shape in current model is {_shape_text(t.shape)}.")
            values[k] = v
        errors = list(mismatched)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: " + ", ".join(f'"{k}"' for k in unexpected) + ".")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ".")
        if errors:
            err = StateDictError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(errors))
            err.missing_keys, err.unexpected_keys = missing, unexpected
            raise err
        from ..autograd import no_grad
        with no_grad():
            for k, v in values.items():
                targets[k].assign(v.detach().cast(targets[k].dtype))
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing

    def extra_repr(self) -> str:
        return ""

    def __repr__(self):
        lines = []
        for name, m in self._modules.items():
            sub = repr(m).replace("\n", "\n  ")
            lines.append(f"({name}): {sub}")
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not lines:
            return head + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"
