"""PyTorch's everyday Tensor methods that tinygrad's API spells differently or lacks: size(), dim(),
to(), clone(), cpu(), expand_as, type_as, new_*, norm, mm, bmm, amax/amin, diag, max/min over a dim
as (values, indices), dtype= on sum/prod/mean/cumsum/cumprod, __index__, DLPack in and out.

Each is a composition of the core methods (onegrad/tensor.py), installed onto Tensor from METHODS,
so tensor.py stays the core API and the C++ checks give the same errors. Errors use torch's wording
where torch has one, prefixed with the op's name.
"""

import collections
import operator

import numpy as np

from . import _C
from ._convert import _NO_DIM, axis_arg
from .dtype import _torch_dtype_name, dtypes, to_dtype
from .errors import DTypeError, IndexShapeError, ShapeError

# torch.return_types.max / .min: a named tuple of the values and their int64 indices.
MaxResult = collections.namedtuple("max", ["values", "indices"])
MinResult = collections.namedtuple("min", ["values", "indices"])


def _tensor():
    from .tensor import Tensor  # tensor.py imports this module while it is being defined
    return Tensor


# ---- what it is


def size(self, dim=None):
    """The shape as a tuple, or one dim's size (negative dims count from the end)."""
    if dim is None:
        return self.shape
    try:
        return _C.size(self._t, operator.index(dim))
    except ShapeError as e:
        raise IndexShapeError(str(e)) from None


def dim(self) -> int:
    return self.ndim


# ---- conversion: to(), cpu(), clone(), type_as, DLPack


def _is_dtype(x) -> bool:
    if _torch_dtype_name(x) is not None:
        return True  # even one onegrad lacks (complex64): to() then says so, not "unknown device"
    try:
        to_dtype(x)
        return True
    except (DTypeError, TypeError):
        return False


def to(self, *args, **kwargs):
    """torch's forms: to(dtype), to(device), to(device, dtype), to(other_tensor), with dtype=,
    device=, copy= and non_blocking= keywords. Returns self when nothing changes (copy=True
    returns a clone). A move to another device is a copy in the graph (a LOAD onto it); autograd
    sends gradients back through it."""
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    copy = bool(kwargs.pop("copy", False))
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to: unexpected keyword arguments {sorted(kwargs)}")
    flags = []
    for a in args:
        if isinstance(a, _tensor()):
            device, dtype = a.device, a.dtype
        elif isinstance(a, bool):
            flags.append(a)  # non_blocking, then copy (torch's positional order)
        elif _is_dtype(a):
            dtype = a
        else:
            device = a
    if len(flags) > 1:
        copy = copy or flags[1]
    out = self
    if device is not None:  # torch.device("cpu") -> "cpu" -> "CPU"
        moved = _C.to_device(self._t, str(device))
        if moved.device != self.device:
            out = _tensor()._wrap(moved)
    if dtype is not None and to_dtype(dtype) != self.dtype:
        out = _tensor()._wrap(_C.to_dtype(out._t, to_dtype(dtype).name))
    return out.clone() if copy and out is self else out


def cpu(self):
    return self.to("CPU")


def clone(self, memory_format=None):
    """A copy: later writes into either (setitem) do not show in the other; gradients flow through."""
    return _tensor()._wrap(_C.clone(self._t))


def type_as(self, other):
    return self.to(other.dtype)


def expand_as(self, other):
    return self.expand(other.shape)


def from_dlpack_object(obj, dtype, device: str):
    """A copy of another library's tensor through __dlpack__, as torch.tensor(other). A torch tensor
    that requires grad is detached first (torch refuses to export it); its own dtype attribute names
    bool where torch 1.13's DLPack says uint8."""
    if hasattr(obj, "detach"):
        obj = obj.detach()
    try:
        capsule = obj.__dlpack__()
    except (RuntimeError, TypeError, BufferError):
        # torch 1.13 exports no bool tensors through DLPack; its __array__ still reads them.
        if not hasattr(obj, "__array__"):
            raise
        arr = np.asarray(obj)
        t = _tensor()(arr, device=device)._t
        return t if dtype is None or dtype.name == t.dtype else t.cast(dtype.name)
    t = _C.from_dlpack(capsule, device)
    own = getattr(obj, "dtype", None)
    if own is not None and _is_dtype(own) and to_dtype(own).name != t.dtype:
        t = t.cast(to_dtype(own).name)
    return t if dtype is None or dtype.name == t.dtype else t.cast(dtype.name)


def __dlpack__(self, stream=None):
    """A DLPack capsule of a copy of the values (torch.from_dlpack(t) reads it). bfloat16 has no
    numpy counterpart to export through: DTypeError."""
    if self.dtype == dtypes.bfloat16:
        raise DTypeError("__dlpack__: bfloat16 cannot be exported (cast it to float32 first)")
    return self.numpy().__dlpack__()


def __dlpack_device__(self):
    return (1, 0)  # kDLCPU, device 0: every onegrad tensor's host copy lives there


# ---- Python numbers out


def __index__(self) -> int:
    """A one-element int or bool tensor as a Python int (range(t), lst[t]), as torch."""
    if self.numel() != 1 or self.dtype.is_float:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(self.item())


# ---- creation from a tensor: new_zeros/ones/full/empty/tensor (this dtype and device by default)


def _new(make):
    def new(self, *size, dtype=None, device=None, requires_grad=False, **kwargs):
        t = make(self, size, dtype=dtype or self.dtype, device=device or self.device, **kwargs)
        return t.requires_grad_() if requires_grad else t
    return new


new_zeros = _new(lambda self, size, **kw: _tensor().zeros(*size, **kw))
new_ones = _new(lambda self, size, **kw: _tensor().ones(*size, **kw))
new_empty = _new(lambda self, size, **kw: _tensor().empty(*size, **kw))


def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    t = _tensor().full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device)
    return t.requires_grad_() if requires_grad else t


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    t = _tensor()(data, dtype=dtype or self.dtype, device=device or self.device)
    return t.requires_grad_() if requires_grad else t


# ---- linear algebra: mm, bmm, norm, diag


def _other(self, x):
    return _tensor()._coerce(x, device=self.device)


def mm(self, mat2):
    """A 2-D matrix product; both operands must be matrices (torch.mm's rule, no broadcasting)."""
    return _tensor()._wrap(_C.mm(self._t, _other(self, mat2)._t))


def bmm(self, mat2):
    """Batched matrix product of (b, n, m) and (b, m, p); no broadcasting (torch.bmm's rule)."""
    return _tensor()._wrap(_C.bmm(self._t, _other(self, mat2)._t))


def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """The vector p-norm over dim (all elements when None or ()): p=2 or 'fro' (sqrt of the sum of
    squares), 1, inf (max |x|), -inf (min |x|), 0 (count of non-zeros), or any other number."""
    if p == "nuc":
        raise NotImplementedError("norm: p='nuc' (the nuclear norm) needs singular values, which onegrad does not compute")
    if isinstance(p, str) and p != "fro":
        raise ValueError(f"norm: p must be a number, 'fro' or 'nuc', got {p!r}")
    # dtype= casts a float input only: an int input is refused (by C++), as torch refuses it
    x = self if dtype is None or not self.dtype.is_float else self.cast(to_dtype(dtype))
    axes = [] if dim is None else [operator.index(d) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))]
    return _tensor()._wrap(_C.norm(x._t, 2.0 if p == "fro" else float(p), axes, bool(keepdim)))


def diag(self, diagonal=0):
    """1-D v -> the square matrix with v on diagonal `diagonal` (above the main one when positive);
    2-D x -> that diagonal of x as 1-D (empty when it lies outside x)."""
    return _tensor()._wrap(_C.diag(self._t, operator.index(diagonal)))


# ---- reductions: amax/amin, max/min with indices, dtype=


def amax(self, dim=None, keepdim=False):
    """Max over dim (an int or a tuple; None or () for all), as torch.amax: no indices."""
    return self._reduce("max", None if isinstance(dim, (tuple, list)) and len(dim) == 0 else dim, keepdim)


def amin(self, dim=None, keepdim=False):
    return self._reduce("min", None if isinstance(dim, (tuple, list)) and len(dim) == 0 else dim, keepdim)


def _max_min(name, result, elementwise):
    def reduce(self, dim=None, keepdim=False, *, axis=None):
        if isinstance(dim, _tensor()):
            return getattr(self, elementwise)(dim)  # torch.max(a, b): the elementwise maximum
        if dim is None or isinstance(dim, (tuple, list)):
            # max() of everything, or tinygrad's axis=: the values alone
            return self._reduce(name, axis_arg(name, axis, _NO_DIM if dim is None else dim), keepdim)
        if axis is not None:
            raise TypeError(f"{name}: give axis or dim, not both")
        values, indices = getattr(_C, f"{name}_dim")(self._t, operator.index(dim), bool(keepdim))
        return result(_tensor()._wrap(values), _tensor()._wrap(indices))
    reduce.__name__ = name
    reduce.__doc__ = (f"{name}() over all elements, {name}(dim) -> ({name}_values, int64 indices) as torch "
                      f"(the first position on ties), {name}(axis=...) -> the values alone (tinygrad), "
                      f"{name}(other_tensor) -> the elementwise {elementwise}.")
    return reduce


# Not named max/min here: that would shadow the builtins this module uses.
max_values_indices = _max_min("max", MaxResult, "maximum")
min_values_indices = _max_min("min", MinResult, "minimum")


def _with_dtype(fn):
    """fn with torch's dtype= keyword: the input is cast to dtype first (sum(dtype=float64) adds in float64)."""
    def f(self, *args, dtype=None, **kwargs):
        return fn(self if dtype is None else self.cast(to_dtype(dtype)), *args, **kwargs)
    f.__name__, f.__doc__ = fn.__name__, fn.__doc__
    return f


def install(cls) -> None:
    """Adds the methods above to Tensor (after its class body, which they build on)."""
    for name in ("size", "dim", "to", "cpu", "clone", "type_as", "expand_as", "new_zeros", "new_ones",
                 "new_empty", "new_full", "new_tensor", "mm", "bmm", "norm", "diag", "amax", "amin",
                 "__index__", "__dlpack__", "__dlpack_device__"):
        setattr(cls, name, globals()[name])
    cls.max, cls.min = max_values_indices, min_values_indices
    for name in ("sum", "prod", "mean", "cumsum", "cumprod"):
        setattr(cls, name, _with_dtype(getattr(cls, name)))
