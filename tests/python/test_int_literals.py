"""Python numbers that do not fit a tensor's dtype are never wrapped silently: onegrad picks int64
where torch would, raises ValueRangeError where torch raises, and keeps torch's answer in the ring
ops (+, -, *, &, |, ^), where wrapping the number gives the exact result wrapped. torch 1.13 is the
oracle; the deliberate differences (where torch itself wraps the number into a wrong answer) are
in docs/torch-differences.md and marked below."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, ValueRangeError, dtypes

torch = pytest.importorskip("torch")


def same(t, ref):
    assert t.dtype.name == str(ref.dtype).removeprefix("torch."), (t.dtype, ref.dtype)
    assert t.tolist() == ref.tolist()


# ---- no dtype given: int64 where torch's int64 is needed


@pytest.mark.parametrize("make", [
    lambda m: m.full((2,), 2**40),
    lambda m: m.full((2,), -(2**31) - 1),
    lambda m: m.arange(2**31 - 1, 2**31 + 1),
    lambda m: m.arange(-(2**31) - 1, -(2**31) + 1),
    lambda m: m.arange(0, 2**40, 2**39),
    lambda m: m.tensor(2**40),
    lambda m: m.tensor([1, 2**40]),
    lambda m: m.tensor([[1], [-(2**40)]]),
    lambda m: m.where(m.tensor([True, False]), 2**40, 1),
], ids=["full", "full-neg", "arange", "arange-neg", "arange-step", "tensor-0d", "tensor-list", "tensor-nested", "where"])
def test_big_int_without_dtype_is_int64(make):
    same(make(onegrad), make(torch))


def test_small_ints_keep_the_default_int32():
    assert Tensor.full((2,), 2**31 - 1).dtype == dtypes.int32
    assert Tensor.arange(-(2**31), 0, 2**30).dtype == dtypes.int32
    assert Tensor([1, -(2**31)]).dtype == dtypes.int32


def test_bool_tensor_with_big_int_computes_in_int64():
    b = [True, False]
    for op in (lambda x: x + 2**40, lambda x: x * 2**31, lambda x: x & 2**40, lambda x: x < 2**40):
        same(op(Tensor(b)), op(torch.tensor(b)))


# ---- a dtype given: raise where torch raises


@pytest.mark.parametrize("make,msg", [
    (lambda m: m.full((2,), 2**40, dtype=m.int32), "full: the value 1099511627776 does not fit int32"),
    (lambda m: m.full((2,), 1000, dtype=m.int8), "full: the value 1000 does not fit int8"),
    (lambda m: m.full((2,), 300, dtype=m.uint8), "full: the value 300 does not fit uint8"),
    (lambda m: m.full((2,), 70000.0, dtype=m.float16), "full: the value 70000.0 does not fit float16"),
    (lambda m: m.full((2,), 1e40, dtype=m.float32), "full: the value 1e\\+40 does not fit float32"),
    (lambda m: m.full((2,), float("nan"), dtype=m.int32), "full: the value nan does not fit int32"),
    (lambda m: m.full((2,), 2**63), "full: the value 9223372036854775808 does not fit int64"),
    (lambda m: m.tensor(1000, dtype=m.int8), "Tensor: the value 1000 does not fit int8"),
    (lambda m: m.tensor([1e10], dtype=m.int32), "Tensor: the value 10000000000.0 does not fit int32"),
    (lambda m: m.tensor(2**63), "Tensor: the value 9223372036854775808 does not fit int64; pass dtype=dtypes.uint64"),
    (lambda m: m.tensor([1, 2**63]), "Tensor: the value 9223372036854775808 does not fit int64; pass dtype=dtypes.uint64"),
    (lambda m: m.tensor([1, 2], dtype=m.int8).clamp(0, 1000), "clamp: the value 1000 does not fit int8"),
    (lambda m: m.tensor([1, 2], dtype=m.int8).clamp(max=2**40), "clamp: the value 1099511627776 does not fit int8"),
    (lambda m: m.tensor([1, 2], dtype=m.int8).masked_fill(m.tensor([True, False]), 1000),
     "masked_fill: the value 1000 does not fit int8"),
    (lambda m: m.where(m.tensor([True, False]), m.tensor([1, 2], dtype=m.int8), 1000), "where: the value 1000 does not fit int8"),
    (lambda m: m.where(m.tensor([True, False]), 2**40, m.tensor([1, 2], dtype=m.int8)),
     "where: the value 1099511627776 does not fit int8"),
    (lambda m: m.tensor([1, 2], dtype=m.int8) ** 1000, "pow: the value 1000 does not fit int8"),
    (lambda m: m.tensor([1, 2], dtype=m.int8).new_full((2,), 1000), "full: the value 1000 does not fit int8"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_raise_where_torch_raises(make, msg):
    with pytest.raises(RuntimeError):
        make(torch)
    with pytest.raises(ValueRangeError, match=msg) as e:
        make(onegrad)
    assert isinstance(e.value, onegrad.DTypeError) and isinstance(e.value, OverflowError)


def test_setitem_never_wraps():
    for value, dt in [(1000, "int8"), (-129, "int8"), (2**40, "int32"), (2**31, "int32"), (256, "uint8"), (1e10, "int8")]:
        text = "1e\\+10" if value == 1e10 else value
        t, r = Tensor([1, 2], dtype=dt), torch.tensor([1, 2], dtype=getattr(torch, dt))
        with pytest.raises(RuntimeError):
            r[0] = value
        with pytest.raises(ValueRangeError, match=f"setitem: the value {text} does not fit {dt}"):
            t[0] = value
        with pytest.raises(ValueRangeError, match="setitem"):
            t[0:2] = value
        assert t.tolist() == [1, 2]  # nothing was written
    for value in (127, -128, 2.7, -2.7):  # in range: stored (floats truncated) as torch
        t, r = Tensor([1, 2], dtype=dtypes.int8), torch.tensor([1, 2], dtype=torch.int8)
        t[0], r[0] = value, value
        same(t, r)


def test_in_range_literals_match_torch():
    i8 = [1, 2]
    for f in (lambda m, x: x.masked_fill(m.tensor([True, False]), 2.5), lambda m, x: x.clamp(-128, 127),
              lambda m, x: m.where(m.tensor([True, False]), x, -128), lambda m, x: m.full((2,), 127, dtype=m.int8)):
        same(f(onegrad, Tensor(i8, dtype=dtypes.int8)), f(torch, torch.tensor(i8, dtype=torch.int8)))


# ---- ring ops: the number wraps as in torch, which is the exact result wrapped to the dtype


@pytest.mark.parametrize("dt,op", [
    ("int8", lambda x: x + 1000), ("int8", lambda x: 1000 - x), ("int8", lambda x: x * 2**40),
    ("int32", lambda x: x + 2**40), ("int32", lambda x: x - 2**31), ("uint8", lambda x: x + 300),
    ("uint8", lambda x: x + (-1)), ("uint8", lambda x: x - 1000), ("int8", lambda x: x & 1000),
    ("int8", lambda x: x ^ -1000), ("int16", lambda x: x | 2**20),
])
def test_ring_ops_give_torchs_answer(dt, op):
    same(op(Tensor([1, 2], dtype=dt)), op(torch.tensor([1, 2], dtype=getattr(torch, dt))))


@pytest.mark.parametrize("op,name", [
    (lambda x: x < 1000, "lt"), (lambda x: x == 1000, "eq"), (lambda x: x >= -1000, "ge"),
    (lambda x: x // 1000, "idiv"), (lambda x: x % 1000, "mod"), (lambda x: x << 1000, "lshift"),
])
def test_other_ops_refuse_what_torch_wraps_into_a_wrong_answer(op, name):
    # Deliberate difference: torch wraps 1000 to -24 in int8, so `x < 1000` is False for x = 1.
    with pytest.raises(ValueRangeError, match=f"{name}: the value -?1000 does not fit int8"):
        op(Tensor([1, 2], dtype=dtypes.int8))


def test_uint_refuses_negatives():
    # Deliberate difference: torch stores -1 into uint8 as 255 (and clamps uint8 to [255, 3]).
    u8 = Tensor([1, 2], dtype=dtypes.uint8)
    with pytest.raises(ValueRangeError, match="full: the value -1 does not fit uint8"):
        Tensor.full((2,), -1, dtype=dtypes.uint8)
    with pytest.raises(ValueRangeError, match="clamp: the value -1 does not fit uint8"):
        u8.clamp(-1, 3)
    with pytest.raises(ValueRangeError, match="Tensor: the value -1 does not fit uint8"):
        Tensor([-1], dtype=dtypes.uint8)


def test_arange_with_a_dtype_refuses_values_it_cannot_hold():
    # Deliberate difference: torch.arange(0, 300, 100, dtype=torch.int8) gives [0, 100, -56].
    with pytest.raises(ValueRangeError, match="arange: the value 200 does not fit int8"):
        Tensor.arange(0, 300, 100, dtype=dtypes.int8)
    with pytest.raises(ValueRangeError, match="arange: the value 2147483648 does not fit int32"):
        onegrad.arange(2**31 - 1, 2**31 + 1, dtype=onegrad.int32)
    with pytest.raises(ValueRangeError, match="arange: the value 9223372036854775808 does not fit int64"):
        Tensor.arange(2**63, 2**63 + 2)
    same(Tensor.arange(0, 200, 100, dtype=dtypes.int8), torch.arange(0, 200, 100, dtype=torch.int8))


def test_pad_and_scatter_values_are_checked():
    x = Tensor([1, 2], dtype=dtypes.int8)
    with pytest.raises(ValueRangeError, match="pad: the value 1000 does not fit int8"):
        x.pad((1, 1), value=1000)
    with pytest.raises(ValueRangeError, match="scatter: the value 300 does not fit int8"):
        x.scatter(0, Tensor([0]), value=300)


def test_float_tensors_round_numbers_as_torch():
    h = [1.0, 2.0]
    for op in (lambda x: x + 70000, lambda x: x * 1e6, lambda x: x < 1e6):
        assert op(Tensor(h, dtype=dtypes.float16)).tolist() == op(torch.tensor(h, dtype=torch.float16)).tolist()
    assert Tensor(1e40).tolist() == torch.tensor(1e40).item() == np.inf  # a literal tensor of it: inf, as torch
