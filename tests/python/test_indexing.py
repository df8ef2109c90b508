"""Basic indexing (ints, slices, None, ...) against numpy."""

import numpy as np
import pytest
from helpers import DTYPES, check, ids, make

import onegrad
from onegrad import Tensor, dtypes

E = Ellipsis
KEYS_3D = [
    0, -1, 2, slice(None), slice(1, None), slice(None, -1), slice(None, None, -1), slice(None, None, 2),
    slice(-2, None, -1), slice(5, 1, -2), slice(10, 20), slice(-100, 100), slice(1, 1), slice(2, 0),
    (0, 1), (0, 1, 2), (-1, -1, -1), (slice(None), 1), (E, 0), (0, E), (E,), (0, E, 1), (None,), (None, 0),
    (0, None, 1), (E, None), (None, E, None), (slice(None, None, -1), None, slice(1, 3), E),
    (slice(0, 3, 2), slice(None, None, -2), slice(3, None, -3)), (1, slice(None, None, -1), None, 0),
    (), (slice(None), slice(None), slice(None)), (slice(1, 2), 0, slice(None, None, 3)),
    (np.int64(1), slice(np.int32(0), np.int64(2))),
]


@pytest.mark.parametrize("key", KEYS_3D, ids=repr)
def test_getitem_3d(key):
    a = make((3, 4, 5), dtypes.float32)
    check(Tensor(a)[key], a[key])


@pytest.mark.parametrize("key", [(), E, None, (None, None), (E, None)], ids=repr)
def test_getitem_0d(key):
    a = np.array(3.5, np.float32)
    check(Tensor(a)[key], a[key])


@pytest.mark.parametrize("key", [slice(None), slice(1, None), 0, (slice(None), slice(None, None, -1)), (1, None),
                                 (E, slice(0, 0))], ids=repr)
def test_getitem_size_0(key):
    a = np.zeros((2, 0), np.float32)
    check(Tensor(a)[key], a[key])


@pytest.mark.parametrize("dt", DTYPES, ids=ids(DTYPES))
def test_getitem_dtypes(dt):
    a = make((4, 3), dt)
    check(Tensor(a, dtype=dt)[1:, ::-2], a[1:, ::-2], dtype=dt)
    check(Tensor(a, dtype=dt)[-1, 0], a[-1, 0], dtype=dt)


@pytest.mark.parametrize("n,step", [(7, 3), (8, 3), (5, -2), (6, -4), (1, 5), (9, 9)], ids=str)
def test_step_slices_cover_every_offset(n, step):
    a = np.arange(n, dtype=np.int32)
    for start in range(-n - 1, n + 1):
        check(Tensor(a)[start::step], a[start::step])


def test_index_errors():
    t = Tensor.zeros(2, 3)
    with pytest.raises(IndexError, match="out of bounds"):
        t[2]
    with pytest.raises(IndexError):
        t[0, -4]
    with pytest.raises(onegrad.ShapeError, match="too many indices"):  # IndexShapeError is both
        t[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        t[..., 0, ...]
    with pytest.raises(ValueError, match="step cannot be zero"):
        t[::0]
    # (lists, tensors and bools are advanced indices: tests/python/test_torch_index.py)
    for bad in [1.5, "a", {0: 1}]:
        with pytest.raises(TypeError):
            t[bad]
    with pytest.raises(TypeError):
        t[0:1.5]
