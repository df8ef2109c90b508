"""Making tensors and getting values out: constructors, dtype inference, numpy round trips,
properties and the Python protocol methods (repr, len, bool, iter, hash)."""

import numpy as np
import pytest
from helpers import ALL_DTYPES, DTYPES, SHAPES, check, ids, make

import onegrad
from onegrad import Tensor, dtypes


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=ids(ALL_DTYPES))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_numpy_round_trip(dt, shape):
    a = make(shape, dt)
    t = Tensor(a, dtype=dt)
    assert t.shape == shape and t.dtype == dt and t.ndim == len(shape) and t.numel() == a.size
    out = t.numpy()
    assert out.dtype == dt.np and out.shape == shape
    if dt == dtypes.bfloat16:
        np.testing.assert_allclose(out, a, rtol=1 / 128)  # rounded to bfloat16's 8 bits
    else:
        np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d != dtypes.bfloat16], ids=str)
def test_numpy_keeps_its_dtype(dt):
    a = make((2, 3), dt)
    check(Tensor(a), a)


def test_numpy_non_contiguous_and_scalars():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    check(Tensor(a.T), a.T)
    check(Tensor(a[:, ::2]), a[:, ::2])
    check(Tensor(np.float64(2.5)), np.array(2.5))
    check(Tensor(np.int16(-3)), np.array(-3, np.int16))


def test_bfloat16_values_are_rounded_and_come_back_as_float32():
    t = Tensor([1.0, 1.00390625, 3.0], dtype=dtypes.bfloat16)  # 1 + 2**-8 is a tie: rounds to even (1.0)
    assert t.dtype == dtypes.bfloat16
    out = t.numpy()
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [1.0, 1.0, 3.0])
    assert Tensor(2.5, dtype="bfloat16").item() == 2.5


@pytest.mark.parametrize("data,dt,expected", [
    ([[1, 2], [3, 4]], dtypes.int32, np.array([[1, 2], [3, 4]], np.int32)),
    ([1.5, 2], dtypes.float32, np.array([1.5, 2], np.float32)),
    ([True, False], dtypes.bool, np.array([True, False])),
    ([True, 2], dtypes.int32, np.array([1, 2], np.int32)),
    ([True, 2.5], dtypes.float32, np.array([1, 2.5], np.float32)),
    ([], dtypes.float32, np.zeros((0,), np.float32)),
    ([[], []], dtypes.float32, np.zeros((2, 0), np.float32)),
    (3, dtypes.int32, np.array(3, np.int32)),
    (3.5, dtypes.float32, np.array(3.5, np.float32)),
    (False, dtypes.bool, np.array(False)),
    ((1, 2), dtypes.int32, np.array([1, 2], np.int32)),
    ([np.int64(1), np.float32(2)], dtypes.float32, np.array([1, 2], np.float32)),
], ids=str)
def test_python_data_inference(data, dt, expected):
    # ints -> int32 (tinygrad's default_int), floats -> float32, bools -> bool; the widest wins.
    check(Tensor(data), expected, dtype=dt)


@pytest.mark.parametrize("dt", DTYPES, ids=ids(DTYPES))
def test_python_data_with_dtype(dt):
    check(Tensor([[0, 1], [1, 0]], dtype=dt), np.array([[0, 1], [1, 0]]).astype(dt.np), dtype=dt)
    check(Tensor(1, dtype=dt), np.array(1).astype(dt.np), dtype=dt)


def test_dtype_argument_forms():
    assert Tensor([1], dtype="float16").dtype == dtypes.float16
    assert Tensor([1], dtype="half").dtype == dtypes.float16
    assert Tensor([1], dtype=np.int8).dtype == dtypes.int8
    assert Tensor([1], dtype=np.dtype("uint16")).dtype == dtypes.uint16
    assert Tensor(np.arange(3), dtype=dtypes.float32).dtype == dtypes.float32
    with pytest.raises(onegrad.DTypeError, match="unknown dtype name 'float17'"):
        Tensor([1], dtype="float17")


def test_python_data_errors():
    assert Tensor([1, 2**40]).dtype == dtypes.int64  # past int32: int64, as torch (never wrapped)
    check(Tensor([1, 2**40], dtype=dtypes.int64), np.array([1, 2**40], np.int64))
    with pytest.raises(OverflowError, match="int32"):
        Tensor([1, 2**40], dtype=dtypes.int32)
    with pytest.raises(OverflowError):
        Tensor([-1], dtype=dtypes.uint8)
    with pytest.raises(OverflowError, match="int32"):
        Tensor(2**31, dtype=dtypes.int32)  # a scalar too
    check(Tensor(2**31, dtype=dtypes.uint32), np.array(2**31, np.uint32))
    with pytest.raises(onegrad.ShapeError, match="not rectangular"):
        Tensor([[1, 2], [3]])
    with pytest.raises(TypeError):
        Tensor(["a"])
    with pytest.raises(TypeError):
        Tensor({1: 2})
    with pytest.raises(onegrad.DTypeError):
        Tensor(np.array([1 + 2j]))


def test_tensor_from_tensor():
    a = Tensor([1, 2])
    check(Tensor(a), np.array([1, 2], np.int32))
    check(Tensor(a, dtype=dtypes.float32), np.array([1, 2], np.float32))
    check(Tensor(a, device="cpu:0"), np.array([1, 2], np.int32))  # the same device, spelled otherwise
    b = Tensor(a, device="CPU:1")  # another device: a copy, as torch.tensor(a, device=...) makes
    assert b.device == "CPU:1"
    check(b, np.array([1, 2], np.int32))
    with pytest.raises(onegrad.DeviceError, match="unknown device 'TPU'"):
        Tensor(a, device="TPU")


@pytest.mark.parametrize("dt", DTYPES + [dtypes.bfloat16], ids=ids(DTYPES + [dtypes.bfloat16]))
@pytest.mark.parametrize("shape", [(), (3,), (2, 0), (2, 3)], ids=str)
def test_zeros_ones_full_empty(dt, shape):
    check(Tensor.zeros(shape, dtype=dt), np.zeros(shape, dt.np), dtype=dt)
    check(Tensor.ones(*shape, dtype=dt), np.ones(shape, dt.np), dtype=dt)
    check(Tensor.full(shape, 1, dtype=dt), np.full(shape, 1, dt.np), dtype=dt)
    e = Tensor.empty(shape, dtype=dt)
    assert e.shape == shape and e.dtype == dt


def test_creation_defaults():
    check(Tensor.zeros(2, 3), np.zeros((2, 3), np.float32))
    check(Tensor.zeros(), np.zeros((), np.float32))
    check(Tensor.full((2,), 7), np.full(2, 7, np.int32))  # the value's own dtype, as torch.full
    check(Tensor.full((2,), 7.5), np.full(2, 7.5, np.float32))
    check(Tensor.full(2, True), np.full(2, True))
    with pytest.raises(onegrad.ValueRangeError, match="full: the value -1 does not fit uint8"):
        Tensor.full((2,), -1, dtype=dtypes.uint8)  # never wrapped (torch gives 255)
    t = Tensor([[1, 2]], dtype=dtypes.int8)
    check(Tensor.zeros_like(t), np.zeros((1, 2), np.int8))
    check(Tensor.ones_like(t, dtype=dtypes.float16), np.ones((1, 2), np.float16))
    check(Tensor.full_like(t, 3), np.full((1, 2), 3, np.int8))


@pytest.mark.parametrize("args", [(5,), (2, 7), (7, 2, -1), (0, 10, 3), (5, 5), (5, 0), (-3, 3, 2), (10, 0, -3)],
                         ids=str)
def test_arange_ints(args):
    check(Tensor.arange(*args), np.arange(*args, dtype=np.int32))


@pytest.mark.parametrize("args", [(0, 1, 0.25), (1.5,), (-1, 1, 0.3), (2, 0, -0.5), (0.5, 0.5)], ids=str)
def test_arange_floats(args):
    check(Tensor.arange(*args), np.arange(*args).astype(np.float32))


@pytest.mark.parametrize("dt", [dtypes.int8, dtypes.int64, dtypes.float16, dtypes.float64], ids=str)
def test_arange_dtype(dt):
    check(Tensor.arange(0, 6, 2, dtype=dt), np.arange(0, 6, 2).astype(dt.np), dtype=dt)


def test_tolist_and_item():
    assert Tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert Tensor([True, False]).tolist() == [True, False]
    assert Tensor(2.5).tolist() == 2.5
    assert Tensor([]).tolist() == []
    v = Tensor([[7]]).item()
    assert v == 7 and isinstance(v, int)
    v = Tensor(1.5, dtype=dtypes.float16).item()
    assert v == 1.5 and isinstance(v, float)
    assert Tensor(True).item() is True
    with pytest.raises(onegrad.ShapeError, match="item"):
        Tensor([1, 2]).item()


def test_numpy_protocol_and_number_conversions():
    t = Tensor([[1, 2], [3, 4]], dtype=dtypes.int8)
    a = np.asarray(t)
    assert a.dtype == np.int8 and a.tolist() == [[1, 2], [3, 4]]
    assert np.array(t, dtype=np.float32).dtype == np.float32
    assert int(Tensor([7])) == 7 and float(Tensor(2.5)) == 2.5
    with pytest.raises(onegrad.ShapeError):
        float(t)


def test_properties_and_repr():
    t = Tensor.zeros(2, 3)
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.dtype == dtypes.float32 and t.dtype.name == "float32"
    assert t.device == "CPU"
    assert t.ndim == 2 and t.numel() == 6 and len(t) == 2
    assert repr(t) == "tensor([[0., 0., 0.],\n        [0., 0., 0.]])"  # as torch prints (test_torch_api.py)
    assert repr(Tensor(1)) == "tensor(1, dtype=onegrad.int32)"


def test_len_bool_iter_hash():
    with pytest.raises(TypeError, match="0-d"):
        len(Tensor(1))
    assert len(Tensor.zeros(0, 3)) == 0
    assert bool(Tensor([3])) is True and bool(Tensor(0.0)) is False
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([1, 2]))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([]))
    rows = list(Tensor([[1, 2], [3, 4]]))
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4]]
    a, b = Tensor([1]), Tensor([1])
    assert len({a, b, a}) == 2  # hashed by identity: == builds a tensor
    assert isinstance(a == b, Tensor)


@pytest.mark.parametrize("device", ["CPU", "cpu", "CPU:0", None])
def test_device_kwarg(device):
    assert Tensor([1], device=device).device == "CPU"
    assert Tensor.zeros(2, device=device).device == "CPU"


def test_realize_returns_self_and_keeps_values():
    t = Tensor([1.0, 2.0]) * 3
    assert t.realize() is t
    check(t, np.array([3, 6], np.float32))
    check(t + 1, np.array([4, 7], np.float32))  # a realized tensor still builds graphs
    a, b = Tensor([1, 2]) + 1, Tensor([3]) * 2
    Tensor.realize_all(a, b)
    check(a, np.array([2, 3], np.int32))
    check(b, np.array([6], np.int32))


def test_contiguous():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    check(Tensor(a).T.contiguous(), a.T)
