"""Python values -> what the C++ binding takes: numpy arrays with an onegrad dtype, Python scalars,
index tuples. Kept apart from tensor.py so the Tensor class reads as the API it is.
"""

import math
import numbers
import operator

import numpy as np

from .dtype import DType, dtypes, to_dtype
from .errors import DTypeError, ShapeError, ValueRangeError


def is_scalar(x) -> bool:
    """A Python or numpy number (bool included)."""
    return isinstance(x, (bool, numbers.Number, np.bool_)) and not isinstance(x, complex)


def py_scalar(x):
    """A number as a Python bool, int or float (numpy scalars unwrapped), for the binding."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        return float(x)
    raise TypeError(f"expected a bool, int or float, got {type(x).__name__}")


def _kind_of_nested(data, path="data"):
    """The widest kind of the numbers in a nested list ("b" < "i" < "f"), None if there are none,
    and the smallest and largest number seen (to catch numbers that do not fit the chosen dtype)."""
    kind, lo, hi = None, None, None
    stack = [(data, path)]
    rank = {"b": 0, "i": 1, "f": 2}
    while stack:
        x, where = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(x))
            continue
        if isinstance(x, np.ndarray):
            k = x.dtype.kind if x.dtype.kind in "biuf" else None
            if k is None:
                raise DTypeError(f"Tensor: {where} has numpy dtype {x.dtype}, which onegrad does not have")
            k = "i" if k == "u" else k
        elif isinstance(x, (bool, np.bool_)):
            k = "b"
        elif isinstance(x, numbers.Integral):
            k, v = "i", int(x)
            lo = v if lo is None else min(lo, v)
            hi = v if hi is None else max(hi, v)
        elif isinstance(x, numbers.Real):
            k, v = "f", float(x)
            if math.isnan(v):  # NaN fits no int dtype: keep it as the bound that check_fits meets
                lo = hi = v
            else:
                lo = v if lo is None or (not math.isnan(lo) and v < lo) else lo
                hi = v if hi is None or (not math.isnan(hi) and v > hi) else hi
        else:
            raise TypeError(f"Tensor: {where} is a {type(x).__name__}; expected numbers in nested lists")
        if kind is None or rank[k] > rank[kind]:
            kind = k
    return kind, lo, hi


def _int_range(dt: DType):
    bits = dt.itemsize * 8
    return (0, 2**bits - 1) if dt.is_unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def _inferred(kind, lo, hi) -> DType:
    if kind == "i":
        mn, mx = _int_range(dtypes.default_int)
        return dtypes.default_int if mn <= lo and hi <= mx else dtypes.int64
    return {"b": dtypes.bool, None: dtypes.default_float}.get(kind, dtypes.default_float)


def infer_dtype(data) -> DType:
    """The dtype of Python data, like torch but with tinygrad's defaults: any float -> float32,
    else any int -> int32, or int64 when one does not fit int32 (torch's ints are int64), else
    bool; an empty list -> float32."""
    return _inferred(*_kind_of_nested(data))


def data_dtype(data, dtype=None) -> DType:
    """The dtype Python data (a number or nested lists) takes: `dtype` when given, else
    infer_dtype's. ValueRangeError (an OverflowError) when a number in it does not fit an int
    dtype (a float's truncation counts; NaN and inf fit none), instead of wrapping silently as
    numpy 1.24 does. One walk over the data answers both."""
    kind, lo, hi = _kind_of_nested(data)
    dt = to_dtype(dtype) if dtype is not None else _inferred(kind, lo, hi)
    if not dt.is_int or lo is None:
        return dt
    mn, mx = _int_range(dt)
    for bad in (lo, hi):
        if math.isnan(bad) or math.isinf(bad) or not mn <= int(bad) <= mx:
            hint = "; pass dtype=dtypes.uint64" if dtype is None and isinstance(bad, int) and 0 <= bad < 2**64 else ""
            raise ValueRangeError(f"Tensor: the value {bad} does not fit {dt.name}{hint}")
    return dt


def to_numpy(data, dt: DType) -> np.ndarray:
    """Nested lists / scalars -> a C-contiguous numpy array holding dt's values (float32 for
    bfloat16); dt is data_dtype's answer, so every number fits it."""
    try:
        arr = np.array(data, dtype=dt.np)
    except ValueError as e:  # ragged nesting: numpy says "inhomogeneous shape"
        raise ShapeError(f"Tensor: nested lists are not rectangular ({e})") from None
    return c_contiguous(arr)


def c_contiguous(arr: np.ndarray) -> np.ndarray:
    """arr in row-major order and native byte order, the layout C++ copies from byte for byte. Any
    other numpy layout is copied into it: strided, 0-stride (broadcast_to), negative-stride, Fortran
    order, and big-endian data (">f4": read as is, its bytes would be garbage). Not
    np.ascontiguousarray: it turns a 0-d array into a 1-d one."""
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr if arr.flags.c_contiguous else arr.copy(order="C")


def index_items(key, device=None, tensor_index=None) -> tuple:
    """A __getitem__ key as a tuple of int / slice / None / Ellipsis with Python ints only, and
    (advanced indexing) C++ tensors: onegrad Tensors as they are, lists and numpy arrays as int64
    or bool tensors, Python bools as 0-d bool tensors. `tensor_index(value)` makes the C++ tensor
    (onegrad.tensor passes it; basic-only callers leave it None)."""
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for it in items:
        if it is None or it is Ellipsis:
            out.append(it)
        elif isinstance(it, slice):
            out.append(slice(*(None if v is None else _index_int(v) for v in (it.start, it.stop, it.step))))
        elif tensor_index is not None and (isinstance(it, (bool, np.bool_, list, np.ndarray))
                                           or hasattr(it, "_t")):
            out.append(tensor_index(it))
        else:
            out.append(_index_int(it))
    return tuple(out)


def _index_int(v) -> int:
    if isinstance(v, (bool, np.bool_)):
        raise TypeError("boolean indices are not supported here")
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"only integers, slices, None, ..., lists and tensors are valid indices, got "
                        f"{type(v).__name__}") from None


def int_list(values, what: str) -> list:
    """A sequence of ints (numpy ints accepted) as a list of Python ints."""
    try:
        return [operator.index(v) for v in values]
    except TypeError:
        raise TypeError(f"{what}: expected ints, got {list(values)!r}") from None


def shape_args(first, rest, what: str) -> list:
    """reshape(2, 3) and reshape((2, 3)) alike (torch and tinygrad accept both)."""
    if rest:
        return int_list((first, *rest), what)
    if isinstance(first, (tuple, list)):
        return int_list(first, what)
    return int_list((first,), what)


_NO_DIM = object()


def axis_arg(op: str, axis, dim=_NO_DIM):
    """The axis of a reduction or axis-wise op: tinygrad spells the keyword `axis`, PyTorch `dim`;
    both are accepted (giving both is an error)."""
    if dim is _NO_DIM:
        return axis
    if axis is not None:
        raise TypeError(f"{op}: give axis or dim, not both")
    return dim
