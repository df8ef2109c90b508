"""onegrad's dtypes on the Python side.

A DType is a small immutable value named like numpy (`dtypes.float32.name == "float32"`); the C++
side gets it by name (src/uop/dtype.h parse_dtype). The table here is checked against C++ by
tests/python/test_dtype.py.

numpy mapping: every dtype maps to the numpy type of the same name, except bfloat16, which numpy
does not have: `Tensor.numpy()` of a bfloat16 tensor returns float32 (exact: every bfloat16 value
is a float32 value), and a bfloat16 tensor made from numpy data is rounded from float32.
"""

import builtins
from dataclasses import dataclass

import numpy as np

from .errors import DTypeError


@dataclass(frozen=True)
class DType:
    """One element type. Compared and hashed by value; `str(dt)` is its name."""

    name: str
    itemsize: int
    kind: str  # "b" bool, "i" signed int, "u" unsigned int, "f" float (numpy's kind letters)

    @property
    def is_float(self) -> builtins.bool:
        return self.kind == "f"

    @property
    def is_int(self) -> builtins.bool:
        """Signed or unsigned integer (bool is not an int here, as in C++)."""
        return self.kind in "iu"

    @property
    def is_unsigned(self) -> builtins.bool:
        return self.kind == "u"

    @property
    def is_bool(self) -> builtins.bool:
        return self.kind == "b"

    @property
    def np(self):
        """The numpy dtype holding this dtype's values (float32 for bfloat16)."""
        return np.dtype("float32" if self.name == "bfloat16" else self.name)

    def __repr__(self) -> str:
        return f"dtypes.{self.name}"

    def __str__(self) -> str:
        return self.name


class dtypes:
    """Every tensor dtype as an attribute (`dtypes.float32`), with tinygrad's aliases."""

    # bool, int and float are set after the class body: assigned in it, they would shadow the
    # builtins for the rest of the body.
    int8 = DType("int8", 1, "i")
    int16 = DType("int16", 2, "i")
    int32 = DType("int32", 4, "i")
    int64 = DType("int64", 8, "i")
    uint8 = DType("uint8", 1, "u")
    uint16 = DType("uint16", 2, "u")
    uint32 = DType("uint32", 4, "u")
    uint64 = DType("uint64", 8, "u")
    float16 = DType("float16", 2, "f")
    bfloat16 = DType("bfloat16", 2, "f")
    float32 = DType("float32", 4, "f")
    float64 = DType("float64", 8, "f")
    # What inference picks for Python numbers (tinygrad's defaults; torch uses int64 for ints).
    default_int = int32
    default_float = float32
    half = float16
    double = float64
    char, short, long = int8, int16, int64
    uchar, ushort, uint, ulong = uint8, uint16, uint32, uint64

    @staticmethod
    def from_numpy(np_dtype) -> DType:
        """The onegrad dtype of a numpy dtype (or numpy scalar type); DTypeError if none."""
        d = np.dtype(np_dtype)
        dt = _BY_NAME.get(d.name) if d.kind in "biuf" else None
        if dt is None:
            raise DTypeError(f"numpy dtype {d} has no onegrad dtype")
        return dt


setattr(dtypes, "bool", DType("bool", 1, "b"))
setattr(dtypes, "int", dtypes.int32)
setattr(dtypes, "float", dtypes.float32)
# Declaration order of src/uop/dtype.h ScalarType.
dtypes.all = (dtypes.bool, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
              dtypes.uint16, dtypes.uint32, dtypes.uint64, dtypes.float16, dtypes.bfloat16,
              dtypes.float32, dtypes.float64)

_BY_NAME = {dt.name: dt for dt in dtypes.all}
# The spellings C++ parse_dtype accepts (docs/dtypes.md), so a string works wherever a DType does.
_ALIASES = {"char": "int8", "short": "int16", "int": "int32", "long": "int64", "uchar": "uint8",
            "ushort": "uint16", "uint": "uint32", "ulong": "uint64", "half": "float16", "f16": "float16",
            "bf16": "bfloat16", "float": "float32", "f32": "float32", "double": "float64", "f64": "float64"}


def _torch_dtype_name(x):
    """torch.float32 -> "float32" for a torch.dtype (recognized without importing torch), else None."""
    t = type(x)
    if t.__name__ == "dtype" and t.__module__ == "torch":
        return str(x).removeprefix("torch.")
    return None


def to_dtype(x) -> DType:
    """A DType from a DType, a name ("float32", "half"), a numpy dtype / scalar type, or a torch
    dtype (torch.float32; those onegrad lacks, such as complex64, raise DTypeError)."""
    if isinstance(x, DType):
        return x
    torch_name = _torch_dtype_name(x)
    if torch_name is not None:
        dt = _BY_NAME.get(torch_name)
        if dt is None:
            raise DTypeError(f"torch.{torch_name} has no onegrad dtype")
        return dt
    if isinstance(x, str):
        dt = _BY_NAME.get(_ALIASES.get(x, x))
        if dt is None:
            raise DTypeError(f"unknown dtype name '{x}' (known: {', '.join(_BY_NAME)})")
        return dt
    try:
        return dtypes.from_numpy(x)
    except TypeError as e:  # np.dtype() of something that is no dtype at all
        if isinstance(e, DTypeError):
            raise
        raise DTypeError(f"not a dtype: {x!r}") from None


def from_name(name: str) -> DType:
    """The DType C++ reports by name (Tensor.dtype)."""
    return _BY_NAME[name]
