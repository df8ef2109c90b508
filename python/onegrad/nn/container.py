"""torch.nn.Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict and Flatten."""

from ..tensor import Tensor
from .cpp_layer import CppLayer
from .module import Module, Parameter


class _Indexed(Module):
    """Children kept in order, appended under their position's name."""

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class Sequential(_Indexed):
    """Children named "0", "1", ... (or by an OrderedDict's keys), applied in order."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(*mods[idx])
        if not -len(mods) <= idx < len(mods):
            raise IndexError(f"index {idx} is out of range")
        return mods[idx]

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input


class ModuleList(_Indexed):
    def __init__(self, modules=None):
        super().__init__()
        for m in modules or ():
            self.append(m)

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return ModuleList(mods[idx])
        return mods[_position(idx, len(mods), "ModuleList")]

    def __setitem__(self, idx, module):
        self.add_module(list(self._modules)[_position(idx, len(self), "ModuleList")], module)

    def __delitem__(self, idx):
        mods = list(self._modules.values())
        del mods[idx if isinstance(idx, slice) else _position(idx, len(mods), "ModuleList")]
        self._modules.clear()  # torch renumbers the rest "0", "1", ...
        for m in mods:
            self.append(m)

    def insert(self, index, module):
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules.clear()
        for m in mods:
            self.append(m)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))


def _position(idx, n, kind):
    """idx as a position in 0..n-1 (negative counts from the end), or torch's IndexError."""
    if not isinstance(idx, int) and not hasattr(idx, "__index__"):
        raise TypeError(f"{kind} indices must be integers or slices, not {type(idx).__name__}")
    i = int(idx)
    if not -n <= i < n:
        raise IndexError(f"{kind}: index {i} is out of range for {n} entries")
    return i % n


class _NamedDict(Module):
    """The dict protocol of ModuleDict and ParameterDict over one of the module's tables (children
    or parameters), in insertion order; a subclass names its table and how an entry is stored."""

    _kind = _entry = ""  # "ModuleDict", "module"

    def _table(self):
        raise NotImplementedError

    def __getitem__(self, key):
        if key not in self._table():
            raise KeyError(f"{self._kind}: no {self._entry} named {key!r}")
        return self._table()[key]

    def __delitem__(self, key):
        self[key]  # KeyError naming the key when it is absent
        self._forget(key)

    def __len__(self):
        return len(self._table())

    def __iter__(self):
        return iter(self._table())

    def __contains__(self, key):
        return key in self._table()

    def keys(self):
        return self._table().keys()

    def items(self):
        return self._table().items()

    def values(self):
        return self._table().values()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def clear(self):
        for key in list(self._table()):
            del self[key]

    def update(self, entries):
        items = entries.items() if isinstance(entries, (dict, _NamedDict)) else entries
        for entry in items:
            if not isinstance(entry, (tuple, list)) or len(entry) != 2:
                raise TypeError(f"{self._kind}.update: expected (name, {self._entry}) pairs, got "
                                f"{type(entry).__name__}")
            self[entry[0]] = entry[1]


class ModuleDict(_NamedDict):
    """Children by name, in insertion order (torch.nn.ModuleDict): d["conv"] = nn.Conv2d(...)."""

    _kind, _entry = "ModuleDict", "module"

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def _table(self):
        return self._modules

    def __setitem__(self, key, module):
        self.add_module(key, module)


def _as_parameter(value, kind):
    if isinstance(value, Parameter):
        return value
    if isinstance(value, Tensor):
        return Parameter(value)  # torch wraps a plain tensor too
    raise TypeError(f"{kind}: expected a Parameter or a Tensor, got {type(value).__name__}")


class ParameterList(Module):
    """Parameters named "0", "1", ... (torch.nn.ParameterList); plain tensors become Parameters."""

    def __init__(self, values=None):
        super().__init__()
        for v in values or ():
            self.append(v)

    def append(self, value):
        self.register_parameter(str(len(self)), _as_parameter(value, "ParameterList"))
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def __getitem__(self, idx):
        ps = list(self._parameters.values())
        if isinstance(idx, slice):
            return ParameterList(ps[idx])
        return ps[_position(idx, len(ps), "ParameterList")]

    def __setitem__(self, idx, value):
        self.register_parameter(str(_position(idx, len(self), "ParameterList")), _as_parameter(value, "ParameterList"))

    def extra_repr(self):
        return "\n".join(f"({i}): Parameter containing: [{p.dtype.name} of size {'x'.join(map(str, p.shape))}]"
                         for i, p in enumerate(self))


class ParameterDict(_NamedDict):
    """Parameters by name, in insertion order (torch.nn.ParameterDict)."""

    _kind, _entry = "ParameterDict", "parameter"

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def _table(self):
        return self._parameters

    def __setitem__(self, key, value):
        self.register_parameter(key, _as_parameter(value, "ParameterDict"))


class Flatten(CppLayer):
    """The C++ layer of src/nn/activation_layers.h (cpp_layer.py)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__(start_dim, end_dim)
        self.start_dim, self.end_dim = start_dim, end_dim

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"
