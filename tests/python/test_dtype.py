"""dtypes: the Python table against C++, promotion against the lattice of docs/dtypes.md (and torch
and numpy where they agree with it), and how Python numbers are typed next to a tensor."""

import itertools

import numpy as np
import pytest
from helpers import ALL_DTYPES, ids

import onegrad
from onegrad import Tensor, _C, dtypes
from onegrad.dtype import DType, to_dtype

try:
    import torch
except ImportError:  # the torch comparisons are skipped without it
    torch = None


def test_namespace():
    names = [d.name for d in dtypes.all]
    assert names == ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                     "bfloat16", "float32", "float64"]
    for d in dtypes.all:
        assert getattr(dtypes, d.name) is d and isinstance(d, DType)
        assert str(d) == d.name and repr(d) == f"dtypes.{d.name}"
    assert dtypes.float is dtypes.float32 and dtypes.int is dtypes.int32 and dtypes.half is dtypes.float16
    assert dtypes.double is dtypes.float64 and dtypes.long is dtypes.int64
    assert dtypes.default_int == dtypes.int32 and dtypes.default_float == dtypes.float32
    assert onegrad.dtypes is dtypes


def test_compare_and_hash():
    assert dtypes.float32 == DType("float32", 4, "f")
    assert dtypes.float32 != dtypes.float64 and dtypes.float16 != dtypes.bfloat16
    assert len({dtypes.float32, dtypes.float, DType("float32", 4, "f"), dtypes.int32}) == 2
    assert Tensor([1.0]).dtype == dtypes.float32


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_table_matches_cpp(dt):
    info = _C.dtype_info(dt.name)
    assert info["name"] == dt.name and info["itemsize"] == dt.itemsize
    assert (info["is_float"], info["is_int"], info["is_unsigned"], info["is_bool"]) == (
        dt.is_float, dt.is_int, dt.is_unsigned, dt.is_bool)


@pytest.mark.parametrize("alias,name", [("half", "float16"), ("f16", "float16"), ("bf16", "bfloat16"),
                                        ("float", "float32"), ("double", "float64"), ("char", "int8"),
                                        ("long", "int64"), ("uchar", "uint8"), ("ulong", "uint64")])
def test_aliases_match_cpp(alias, name):
    assert to_dtype(alias).name == name == _C.dtype_info(alias)["name"]


def test_to_dtype_errors():
    for bad in ["float17", "index", "void"]:
        with pytest.raises(onegrad.DTypeError):
            to_dtype(bad)
    with pytest.raises(onegrad.DTypeError):
        to_dtype(np.complex64)
    with pytest.raises(TypeError):  # DTypeError is a TypeError
        to_dtype(object())


# ---- promotion: the lattice of docs/dtypes.md, written out independently of C++

_UP = {"bool": ["int8", "uint8"], "int8": ["int16"], "int16": ["int32"], "int32": ["int64"],
       "int64": ["float16", "bfloat16"], "uint8": ["uint16", "int16"], "uint16": ["uint32", "int32"],
       "uint32": ["uint64", "int64"], "uint64": ["float16", "bfloat16"], "float16": ["float32"],
       "bfloat16": ["float32"], "float32": ["float64"], "float64": []}


def _above(a):
    seen, todo = {a}, [a]
    while todo:
        for b in _UP[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def lattice_join(a: str, b: str) -> str:
    """The least type above both; when several minimal ones remain (int64 with uint64: float16
    and bfloat16), their join."""
    common = _above(a) & _above(b)
    minimal = [c for c in common if not any(o != c and c in _above(o) for o in common)]
    while len(minimal) > 1:
        minimal = [lattice_join(minimal[0], minimal[1])] + minimal[2:]
    return minimal[0]


PAIRS = list(itertools.product(ALL_DTYPES, ALL_DTYPES))


def test_lattice_examples_from_the_docs():
    assert lattice_join("uint8", "int8") == "int16"
    assert lattice_join("uint32", "int32") == "int64"
    assert lattice_join("int64", "uint64") == "float32"
    assert lattice_join("float16", "bfloat16") == "float32"
    assert lattice_join("bool", "uint64") == "uint64"


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_binary_promotion(a, b):
    want = lattice_join(a.name, b.name)
    assert _C.promote_types(a.name, b.name) == want
    x, y = Tensor.zeros(2, dtype=a), Tensor.zeros(2, dtype=b)
    assert (x + y).dtype.name == want
    assert x.maximum(y).dtype.name == want
    assert (x < y).dtype == dtypes.bool
    # True division: floats promote as above, ints and bool go to float32.
    assert (x / y).dtype.name == (want if to_dtype(want).is_float else "float32")


_TORCH_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.skipif(torch is None, reason="torch not installed")
@pytest.mark.parametrize("a,b", list(itertools.product(_TORCH_NAMES, _TORCH_NAMES)))
def test_promotion_agrees_with_torch(a, b):
    # torch has no uint16..uint64 arithmetic; on the dtypes it has, tensor-tensor promotion is
    # the same lattice.
    assert str(torch.promote_types(getattr(torch, a), getattr(torch, b))) == f"torch.{lattice_join(a, b)}"


_NUMPY_AGREES = [(a, b) for a, b in itertools.product(ALL_DTYPES, ALL_DTYPES)
                 if a != dtypes.bfloat16 and b != dtypes.bfloat16
                 and (a.is_float == b.is_float)  # numpy: int32 + float32 -> float64, the lattice: float32
                 # signed with uint64: numpy float64, the lattice float32
                 and not ({a.name, b.name} & {"uint64"} and (a.kind == "i" or b.kind == "i"))]


@pytest.mark.parametrize("a,b", _NUMPY_AGREES, ids=[f"{a}-{b}" for a, b in _NUMPY_AGREES])
def test_promotion_agrees_with_numpy_within_a_kind(a, b):
    assert np.promote_types(a.np, b.np).name == lattice_join(a.name, b.name)


# ---- Python numbers next to a tensor ("weak" scalars)

@pytest.mark.parametrize("dt,scalar,want", [
    (dtypes.int8, 1000, dtypes.int8),       # an int takes an int tensor's dtype (and wraps, as torch)
    (dtypes.uint8, -1, dtypes.uint8),
    (dtypes.int64, 2, dtypes.int64),
    (dtypes.int32, 1.5, dtypes.float32),    # a float with an int tensor: default_float
    (dtypes.uint8, 1.5, dtypes.float32),
    (dtypes.float16, 1.5, dtypes.float16),  # any number takes a float tensor's dtype
    (dtypes.float16, 3, dtypes.float16),
    (dtypes.bfloat16, 3, dtypes.bfloat16),
    (dtypes.float64, True, dtypes.float64),
    (dtypes.bool, 3, dtypes.int32),         # an int with a bool tensor: default_int (torch: int64)
    (dtypes.bool, 2.5, dtypes.float32),
    (dtypes.bool, True, dtypes.bool),       # a bool scalar stays bool
    (dtypes.int16, True, dtypes.int16),
    (dtypes.int32, np.int64(3), dtypes.int32),  # numpy scalars are weak too
    (dtypes.float16, np.float64(3), dtypes.float16),
], ids=str)
def test_scalar_promotion(dt, scalar, want):
    t = Tensor.zeros(2, dtype=dt)
    assert (t * scalar).dtype == want
    assert (scalar * t).dtype == want
    if dt.is_int and isinstance(scalar, int) and not isinstance(scalar, bool) and not np.iinfo(dt.np).min <= scalar <= np.iinfo(dt.np).max:
        # arithmetic wraps the number (as torch); maximum would select it, so it refuses (torch
        # too, except that it stores negatives down to -128 into uint8 wrapped)
        with pytest.raises(onegrad.DTypeError, match=rf"maximum: the value {scalar} does not fit {dt.name}"):
            t.maximum(scalar)
    else:
        assert t.maximum(scalar).dtype == want


def test_scalar_promotion_agrees_with_torch():
    if torch is None:
        pytest.skip("torch not installed")
    for dt in ["int8", "uint8", "int32", "int64", "float16", "bfloat16", "float32", "float64"]:
        for s in [3, 2.5]:
            got = (Tensor.zeros(2, dtype=dt) + s).dtype.name
            want = str((torch.zeros(2, dtype=getattr(torch, dt)) + s).dtype)[6:]
            assert got == want, (dt, s)
