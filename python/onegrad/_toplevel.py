"""torch-style top-level functions: onegrad.zeros(2, 3), onegrad.exp(t), onegrad.sum(t, 1),
onegrad.cat([a, b]), onegrad.tensor(data), onegrad.from_numpy(arr), and the dtypes as
onegrad.float32, onegrad.int64, ... Each function forwards to the Tensor method or constructor of
the same name, so values and error messages are the same.

Names that shadow Python builtins (sum, max, min, abs, all, any, round, pow, float, int, bool) are
attributes of the package but left out of __all__, so `from onegrad import *` keeps the builtins.
"""

import numpy as np

from .dtype import dtypes
from .tensor import Tensor


def _forward(name):
    def f(input, *args, **kwargs):
        return getattr(Tensor._coerce(input), name)(*args, **kwargs)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"{name}(input, ...) is input.{name}(...) (Tensor.{name})."
    return f


# Elementwise, reductions, scans, linear algebra and movement: torch.<name>(input, ...).
METHODS = [
    # unary math
    "abs", "neg", "exp", "exp2", "log", "log2", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh",
    "sigmoid", "relu", "floor", "ceil", "round", "trunc", "sign", "reciprocal", "square", "erf", "isnan", "isinf",
    "isfinite", "logical_not", "bitwise_not",
    # binary math and comparisons
    "add", "sub", "mul", "div", "pow", "maximum", "minimum", "clamp", "clip", "eq", "ne", "lt", "le", "gt", "ge",
    "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
    # reductions and scans
    "sum", "prod", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "any", "all", "std", "var", "std_mean",
    "var_mean", "logsumexp", "softmax", "log_softmax", "cumsum", "cumprod", "cummax", "cummin", "norm",
    # linear algebra
    "mm", "bmm", "diag",
    # movement
    "reshape", "flatten", "squeeze", "unsqueeze", "transpose", "permute", "flip", "roll", "chunk", "split", "unbind",
    "swapaxes", "movedim", "tile", "repeat_interleave", "clone", "numel",
]
for _name in METHODS:
    globals()[_name] = _forward(_name)
# torch's other spellings of the same ops
subtract, multiply, divide, true_divide = sub, mul, div, div  # noqa: F821
floor_divide = _forward("idiv")
remainder = _forward("mod")


# ---- creation


def _make(ctor, requires_grad):
    t = ctor()
    return t.requires_grad_() if requires_grad else t


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _make(lambda: Tensor.zeros(*size, dtype=dtype, device=device), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _make(lambda: Tensor.ones(*size, dtype=dtype, device=device), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    return _make(lambda: Tensor.empty(*size, dtype=dtype, device=device), requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    return _make(lambda: Tensor.full(size, fill_value, dtype=dtype, device=device), requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    return _make(lambda: Tensor.arange(start, end, step, dtype=dtype, device=device), requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return zeros(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return ones(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return empty(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    return full(input.shape, fill_value, dtype=dtype or input.dtype, device=device or input.device,
                requires_grad=requires_grad)


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of data (lists, numbers, numpy arrays, tensors), as torch.tensor."""
    if isinstance(data, Tensor):
        data = data.clone()  # a copy, as torch.tensor(t): writes into one do not show in the other
    return Tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)


def from_numpy(ndarray):
    """A tensor holding a copy of the array (torch shares the memory; onegrad's buffers are its own),
    in its dtype; any layout and byte order."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"from_numpy: expected a numpy.ndarray, got {type(ndarray).__name__}")
    return Tensor(ndarray)


def cat(tensors, dim=0):
    return Tensor.cat(list(tensors), dim=dim)


concat = cat


def stack(tensors, dim=0):
    return Tensor.stack(list(tensors), dim=dim)


# ---- dtypes as torch spells them: onegrad.float32, onegrad.long, ...
for _name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
              "float32", "float64", "half", "double", "short", "long"):
    globals()[_name] = getattr(dtypes, _name)
float, int, bool = dtypes.float32, dtypes.int32, dtypes.bool  # noqa: A001 (torch.float, torch.int, torch.bool)
del _name

_SHADOWS_BUILTINS = {"abs", "round", "pow", "sum", "max", "min", "any", "all", "float", "int", "bool"}
__all__ = sorted(n for n in [*METHODS, "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder",
                             "zeros", "ones", "empty", "full", "arange", "zeros_like", "ones_like", "empty_like",
                             "full_like", "tensor", "from_numpy", "cat", "concat", "stack", "int8", "int16",
                             "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
                             "float32", "float64", "half", "double", "short", "long"]
                 if n not in _SHADOWS_BUILTINS)
