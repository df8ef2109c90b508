"""Layers written once, in C++ (src/nn), used from Python (docs/nn.md "One module system").

A CppLayer is a Python nn.Module that holds a C++ module (_C.nn.Module) built through the C++ layer
table (src/nn/layer_registry.h). Its parameters and buffers are the C++ module's own tensors: each
Parameter's handle is the C++ member itself, not a copy, so an optimizer step, a load_state_dict or
a `.data =` through either side is seen by both, and forward is the C++ forward. What the layer
computes, its parameter names and shapes, its initialisation and its argument checks are therefore
written only in C++; the Python class adds torch's front-end options (device, dtype, inplace) and a
repr. Everything else about nn.Module (registration by attribute, state_dict, children, train/eval,
apply; it has no hooks today) is the Python Module's, so models still subclass nn.Module and hold
these layers as children.

A layer in the C++ table with no Python class of its own is still `onegrad.nn.<Name>`:
layer_class() makes its class from the table (nn/__init__.py's module __getattr__).
"""

from .. import _C
from ..dtype import to_dtype
from ..tensor import Tensor
from .module import Module, Parameter

_SIGNATURES = {}  # C++ layer name -> [(argument, has_default)] in torch's positional order
_CLASSES = {}  # C++ layer name -> its Python class (onegrad.nn's own, or one layer_class() made)


def _signature(name):
    if name not in _SIGNATURES:
        _SIGNATURES[name] = _C.nn.layer_args(name)
    return _SIGNATURES[name]


def _arguments(name, args, kwargs):
    """Positional and keyword arguments as the table's named arguments; Python's TypeErrors for a
    call that does not fit the signature (C++ checks the values)."""
    sig = _signature(name)
    if len(args) > len(sig):
        raise TypeError(f"{name}: takes at most {len(sig)} positional arguments, got {len(args)}")
    values = dict(zip((a for a, _ in sig), args))
    for k, v in kwargs.items():
        if k in values:
            raise TypeError(f"{name}: got multiple values for argument '{k}'")
        values[k] = v
    known = {a for a, _ in sig}
    for k in values:
        if k not in known:
            raise TypeError(f"{name}: got an unexpected keyword argument '{k}'")
    for a, has_default in sig:
        if not has_default and a not in values:
            raise TypeError(f"{name}: missing required argument '{a}'")
    return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}


def _cpp_values(arguments):
    """The arguments as the C++ table takes them: a Tensor as its C++ handle."""
    return [(k, v._t if isinstance(v, Tensor) else v) for k, v in arguments.items()]


def _parameter(t):
    p = Parameter.__new__(Parameter)
    p._t = t  # the C++ member itself (reference_internal keeps the C++ module alive)
    return p


class CppLayer(Module):
    """A Module whose forward, parameters and buffers are a C++ layer's. A subclass is the C++ layer
    of its name (or of _cpp_name) and lists in _absent (_absent_buffers) the parameters (buffers)
    torch shows as None when the layer is built without them (bias=False)."""

    _cpp_name = None
    _absent, _absent_buffers = (), ()

    def __init_subclass__(cls, **kwargs):
        # a class named as a table entry is that layer; its subclasses (a user's MyLinear) inherit it
        super().__init_subclass__(**kwargs)
        if "_cpp_name" not in cls.__dict__ and cls.__name__ in _C.nn.layer_names():
            cls._cpp_name = cls.__name__
            _CLASSES.setdefault(cls.__name__, cls)

    def __init__(self, *args, device=None, dtype=None, **kwargs):
        super().__init__()
        name = self._cpp_name
        arguments = _arguments(name, args, kwargs)
        self._attach(_C.nn.make_layer(name, _cpp_values(arguments)), arguments)
        self._to(device, dtype)

    def _attach(self, cpp, arguments):
        d = self.__dict__
        d["_cpp"], d["_cpp_arguments"] = cpp, arguments
        params, buffers = cpp.parameters(), cpp.buffers()
        d["_cpp_owned"] = frozenset(n for n, _ in params + buffers)
        for table, names in ((self._parameters, self._absent), (self._buffers, self._absent_buffers)):
            table.update((n, None) for n in names if n not in d["_cpp_owned"])
        for n, t in params:
            self._parameters[n] = _parameter(t)
        for n, t in buffers:
            self._buffers[n] = Tensor._wrap(t)
        for n, child in cpp.children():
            self._modules[n] = wrap(child)
        d["training"] = cpp.is_training()

    def _describe(self):
        """Sets the attributes torch shows (fc.in_features) from _cpp_arguments: for a layer wrapped
        from an existing C++ module (a C++ layer's child) as for one built by __init__."""

    def _to(self, device, dtype):
        """torch's device/dtype arguments: the C++ layer makes float32 CPU tensors; floating members
        are then re-pointed (set_data: the same handles, so both sides see it) at converted values."""
        if device is None and dtype is None:
            return
        dt = None if dtype is None else to_dtype(dtype)
        for t in list(self.parameters()) + list(self.buffers()):
            if not t.dtype.is_float:
                continue
            # Tensor(.., device) raises DeviceError for a device the values cannot move to
            v = Tensor(t.detach(), dtype=dt, device=device)
            t._t.set_data(v.realize()._t)

    def reset_parameters(self):
        """A fresh draw of torch's initialisation: a new C++ layer of the same arguments, whose
        values are written into this one's tensors in place."""
        fresh = _C.nn.make_layer(self._cpp_name, _cpp_values(self._cpp_arguments))
        mine = dict(self._cpp.parameters() + self._cpp.buffers())
        from ..autograd import no_grad
        with no_grad():
            for n, t in fresh.parameters() + fresh.buffers():
                Tensor._wrap(mine[n]).assign(Tensor._wrap(t).cast(Tensor._wrap(mine[n]).dtype))

    # ---- copy.deepcopy, copy.copy and pickle: the Python state is copied as for any Module (the
    # tensors by tensor_copy.py), then a C++ layer of the same arguments is built for the copy and its
    # members are pointed at the copied tensors, children too.

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_cpp"]  # a C++ object: rebuilt by __setstate__
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._point(_C.nn.make_layer_shell(self._cpp_name, _cpp_values(self._cpp_arguments)))

    def _point(self, cpp):
        """Makes `cpp` (a layer of this one's structure) this module's C++ layer, its members the
        tensors this module holds; a C++ child is its Python child's."""
        self.__dict__["_cpp"] = cpp
        for n, _ in cpp.parameters() + cpp.buffers():
            cpp.set_member(n, (self._parameters[n] if n in self._parameters else self._buffers[n])._t)
        cpp.train(self.training)
        for n, child in cpp.children():
            self._modules[n]._point(child)

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_cpp_owned", ()):
            if not isinstance(value, Tensor):
                raise TypeError(f"{type(self).__name__}: '{name}' belongs to the C++ layer; it can be replaced by a "
                                f"Tensor of the same shape, not by {type(value).__name__}")
            if isinstance(value, Parameter) or name in self._buffers:
                self._cpp.set_member(name, value._t)  # ShapeError before anything changes
        super().__setattr__(name, value)

    def train(self, mode=True):
        super().train(mode)
        self._cpp.train(mode)
        return self

    def forward(self, *inputs):
        try:
            handles = [x._t for x in inputs]
        except AttributeError:
            bad = next(x for x in inputs if not isinstance(x, Tensor))
            raise TypeError(f"{type(self).__name__}: expected Tensor inputs, got {type(bad).__name__}") from None
        return Tensor._wrap(self._cpp.forward(handles))

    def extra_repr(self):
        return ", ".join(f"{k}={v!r}" for k, v in self._cpp_arguments.items())


def layer_class(name):
    """The Python class of the C++ layer `name` of the layer table (AttributeError if there is none):
    onegrad.nn's own class, or one made from the table."""
    if name not in _CLASSES:
        if name not in _C.nn.layer_names():
            raise AttributeError(f"module 'onegrad.nn' has no attribute '{name}'")
        _CLASSES[name] = type(name, (CppLayer,), {"_cpp_name": name, "__module__": "onegrad.nn",
                                                  "__doc__": f"The C++ layer {name} (src/nn), through the layer table."})
    return _CLASSES[name]


def wrap(cpp):
    """A Python Module over an existing C++ module (a child of a C++ layer: MultiheadAttention's
    out_proj, a transformer layer's norm1), of the layer's Python class, with the arguments the C++
    layer reads back from it (layer_registry.h arguments_of)."""
    cls = layer_class(cpp.name())
    m = cls.__new__(cls)
    Module.__init__(m)
    m._attach(cpp, {k: tuple(v) if isinstance(v, list) else v for k, v in _C.nn.layer_arguments(cpp)})
    m._describe()
    return m
