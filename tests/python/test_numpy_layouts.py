"""Every numpy layout in and out: non-native byte order, 0-strides (broadcast_to), negative strides,
non-aligned and read-only buffers, Fortran order, 0-d and empty arrays, through Tensor(arr),
onegrad.from_numpy, setitem with a numpy value and .numpy() out. Values are checked against numpy."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes

rng = np.random.default_rng(17)


def _big_endian(dt):
    a = (rng.standard_normal((3, 4)) * 100).astype(dt)
    return a.astype(a.dtype.newbyteorder(">"))


def _unaligned(dt):
    """A C-contiguous array whose data starts one byte into its buffer."""
    n, item = 6, np.dtype(dt).itemsize
    raw = np.zeros(n * item + 1, np.uint8)
    a = np.frombuffer(raw.data, dtype=dt, count=n, offset=1).reshape(2, 3)
    assert not a.flags.aligned
    return a


def _readonly(dt):
    a = np.arange(6).astype(dt).reshape(2, 3)
    a.setflags(write=False)
    return a


LAYOUTS = {
    ">f4": lambda: _big_endian(np.float32),
    ">i4": lambda: _big_endian(np.int32),
    ">f8": lambda: _big_endian(np.float64),
    ">i8": lambda: _big_endian(np.int64),
    ">u2": lambda: _big_endian(np.uint16),
    ">f2": lambda: _big_endian(np.float16),
    "big-endian 0-d": lambda: np.array(3.5, dtype=">f4"),
    "broadcast_to 0-strides": lambda: np.broadcast_to(np.arange(3, dtype=np.float32), (4, 3)),
    "negative strides": lambda: np.arange(12, dtype=np.int32).reshape(3, 4)[::-1, ::-2],
    "non-aligned float32": lambda: _unaligned(np.float32),
    "non-aligned int64": lambda: _unaligned(np.int64),
    "read-only": lambda: _readonly(np.float32),
    "Fortran order": lambda: np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
    "big-endian Fortran": lambda: np.asfortranarray(_big_endian(np.float32)),
    "strided slice": lambda: np.arange(24, dtype=np.int16).reshape(4, 6)[1:, ::3],
    "0-d": lambda: np.array(7, dtype=np.int8),
    "empty": lambda: np.zeros((0, 3), np.float32),
    "empty big-endian": lambda: np.zeros((2, 0), ">i4"),
    "bool": lambda: np.array([[True, False], [False, True]])[:, ::-1],
}


def _native(a):
    return a.astype(a.dtype.newbyteorder("="))


@pytest.mark.parametrize("name", LAYOUTS)
def test_tensor_reads_every_layout(name):
    a = LAYOUTS[name]()
    for t in (Tensor(a), onegrad.from_numpy(a), onegrad.tensor(a)):
        assert t.shape == a.shape
        assert t.dtype == dtypes.from_numpy(a.dtype)
        out = t.numpy()
        assert out.dtype == _native(a).dtype and out.dtype.isnative
        np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("name", [">f4", ">i4", "negative strides", "non-aligned float32", "broadcast_to 0-strides"])
def test_cast_on_the_way_in(name):
    a = LAYOUTS[name]()
    np.testing.assert_array_equal(Tensor(a, dtype=dtypes.float64).numpy(), a.astype(np.float64))


def test_big_endian_was_garbage_before():
    # The regression: >f4 was copied byte for byte, so 1.0 came back as 4.6006e-41.
    a = np.array([1.0, 2.0, -3.5], dtype=">f4")
    assert Tensor(a).tolist() == [1.0, 2.0, -3.5]
    b = np.array([1, 256, -2], dtype=">i4")
    assert Tensor(b).tolist() == [1, 256, -2]
    assert (Tensor(b) + 1).tolist() == [2, 257, -1]


@pytest.mark.parametrize("name", [">f4", ">i4", "negative strides", "broadcast_to 0-strides", "non-aligned float32",
                                  "read-only", "Fortran order", "strided slice", "bool"])
def test_setitem_with_numpy_value(name):
    a = LAYOUTS[name]()
    t = Tensor.zeros(*a.shape, dtype=dtypes.from_numpy(a.dtype))
    t[...] = a
    np.testing.assert_array_equal(t.numpy(), a)
    ref = np.zeros((a.shape[0] + 1,) + a.shape[1:], _native(a).dtype)
    u = Tensor(ref.copy())
    u[1:] = a
    ref[1:] = a
    np.testing.assert_array_equal(u.numpy(), ref)


def test_numpy_out_is_a_fresh_writable_native_array():
    t = Tensor([[1.0, 2.0], [3.0, 4.0]])
    out = t.numpy()
    assert out.flags.c_contiguous and out.flags.writeable and out.flags.owndata and out.dtype.isnative
    out[0, 0] = 99.0
    assert t.numpy()[0, 0] == 1.0  # the tensor's buffer is not the array's
    for z in (Tensor(np.array(5, np.int16)), Tensor.zeros(0, 3), Tensor.zeros(3, 0, dtype=dtypes.int8)):
        np.testing.assert_array_equal(z.numpy(), np.asarray(z))
        assert z.numpy().shape == z.shape
    # a big-endian array given to __array__ as the target dtype is converted, not reinterpreted
    np.testing.assert_array_equal(np.asarray(t, dtype=">f8"), [[1.0, 2.0], [3.0, 4.0]])


def test_source_array_changes_after_do_not_show():
    a = np.arange(4, dtype=">i4")
    t = Tensor(a)
    a[0] = 100
    assert t.tolist() == [0, 1, 2, 3]


def test_unsupported_numpy_dtypes_raise():
    for a in (np.array([1 + 2j]), np.array(["x"]), np.array([np.datetime64("2020-01-01")])):
        with pytest.raises(onegrad.DTypeError, match="has no onegrad dtype"):
            Tensor(a)
    with pytest.raises(TypeError, match="expected a numpy.ndarray, got list"):
        onegrad.from_numpy([1, 2])
