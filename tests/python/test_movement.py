"""Movement ops against numpy: reshape, permute, transpose, T, expand, pad, shrink, flip,
unsqueeze, squeeze, flatten, stack and cat, across dtypes and with 0-d and size-0 shapes."""

import numpy as np
import pytest
from helpers import DTYPES, check, ids, make

from onegrad import Tensor, dtypes


def data(shape, dt=dtypes.float32):
    a = make(shape, dt)
    return Tensor(a, dtype=dt), a


@pytest.mark.parametrize("dt", DTYPES, ids=ids(DTYPES))
def test_every_dtype_moves(dt):
    t, a = data((2, 3, 4), dt)
    check(t.reshape(4, 6), a.reshape(4, 6), dtype=dt)
    check(t.permute(2, 0, 1), a.transpose(2, 0, 1), dtype=dt)
    check(t.flip(1), a[:, ::-1], dtype=dt)
    check(t.pad(((0, 0), (1, 2), (0, 1))), np.pad(a, ((0, 0), (1, 2), (0, 1))), dtype=dt)
    check(t.shrink(((0, 1), (1, 3), None)), a[0:1, 1:3, :], dtype=dt)
    check(t[:, None].expand(2, 5, 3, 4), np.broadcast_to(a[:, None], (2, 5, 3, 4)), dtype=dt)


@pytest.mark.parametrize("src,dst", [
    ((2, 3), (3, 2)), ((2, 3), (6,)), ((2, 3), (-1,)), ((2, 3), (1, 6, 1)), ((6,), (2, -1)), ((), (1,)),
    ((1,), ()), ((1, 1), ()), ((), ()), ((2, 0), (0,)), ((2, 0), (0, 5)), ((0,), (3, 0, 2)), ((4, 0), (-1, 2)),
], ids=str)
def test_reshape(src, dst):
    t, a = data(src)
    check(t.reshape(dst), a.reshape(dst))
    if dst:
        check(t.reshape(*dst), a.reshape(dst))


@pytest.mark.parametrize("shape,order", [((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (-1, 0, -2)),
                                         ((), ()), ((3,), (0,)), ((2, 0, 3), (2, 1, 0))], ids=str)
def test_permute(shape, order):
    t, a = data(shape)
    check(t.permute(order), np.transpose(a, order))


@pytest.mark.parametrize("shape,dims", [((2, 3), (0, 1)), ((2, 3, 4), (0, 2)), ((2, 3, 4), (-1, -3)),
                                        ((2, 3, 4), (1, 1)), ((2, 0), (0, 1))], ids=str)
def test_transpose(shape, dims):
    t, a = data(shape)
    check(t.transpose(*dims), np.swapaxes(a, *dims))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4), (0, 2)], ids=str)
def test_T(shape):
    # all axes reversed, as numpy's .T (and PyTorch 1.13's); transpose() swaps the last two
    t, a = data(shape)
    check(t.T, a.T)
    check(t.transpose() if a.ndim >= 2 else t, a if a.ndim < 2 else np.swapaxes(a, -1, -2))


@pytest.mark.parametrize("src,dst", [((1,), (4,)), ((3, 1), (3, 5)), ((3, 1), (2, 3, 4)), ((), (2, 2)),
                                     ((1, 3), (-1, 3)), ((2, 1), (-1, 0)), ((1,), (0,)), ((3,), (3,))], ids=str)
def test_expand(src, dst):
    t, a = data(src)
    want = tuple(a.shape[i - (len(dst) - a.ndim)] if d == -1 else d for i, d in enumerate(dst))
    check(t.expand(dst), np.broadcast_to(a, want))
    check(t.expand(*dst), np.broadcast_to(a, want))


@pytest.mark.parametrize("shape,padding", [
    ((3,), ((1, 2),)), ((2, 3), ((0, 0), (2, 0))), ((2, 3), (None, (1, 1))), ((2, 0), ((1, 1), (2, 1))),
    ((2, 3), ((0, 0), (0, 0))), ((), ()),
], ids=str)
@pytest.mark.parametrize("value", [0, 1.5, -2])
def test_pad(shape, padding, value):
    t, a = data(shape)
    np_pad = [(0, 0) if p is None else p for p in padding]
    want = np.pad(a, np_pad, constant_values=value) if a.ndim else a  # numpy refuses to pad 0-d
    check(t.pad(padding, value=value), want)


def test_pad_flat_torch_form_and_dtypes():
    t, a = data((2, 3))
    check(t.pad((1, 2)), np.pad(a, ((0, 0), (1, 2))))  # last axis first, as torch.nn.functional.pad
    check(t.pad((1, 2, 3, 0)), np.pad(a, ((3, 0), (1, 2))))
    ti, ai = data((2,), dtypes.int8)
    check(ti.pad(((1, 1),), value=7), np.pad(ai, (1, 1), constant_values=7))
    tb, ab = data((2,), dtypes.bool)
    check(tb.pad(((1, 0),), value=True), np.pad(ab, (1, 0), constant_values=True))


@pytest.mark.parametrize("shape,bounds", [
    ((5,), ((1, 4),)), ((2, 3), ((0, 2), (1, 2))), ((2, 3), (None, (0, 0))), ((2, 3), ((1, 1), None)),
    ((4, 0), ((1, 3), (0, 0))), ((), ()),
], ids=str)
def test_shrink(shape, bounds):
    t, a = data(shape)
    sl = tuple(slice(None) if b is None else slice(*b) for b in bounds)
    check(t.shrink(bounds), a[sl])


@pytest.mark.parametrize("shape,axes", [((4,), (0,)), ((2, 3), (1,)), ((2, 3), (0, 1)), ((2, 3, 4), (-1, 0)),
                                        ((0, 3), (0,)), ((3,), ())], ids=str)
def test_flip(shape, axes):
    t, a = data(shape)
    check(t.flip(axes), np.flip(a, axes) if axes else a)
    if len(axes) == 1:
        check(t.flip(axes[0]), np.flip(a, axes[0]))


@pytest.mark.parametrize("shape,dim", [((), 0), ((), -1), ((3,), 0), ((3,), 1), ((3,), -1), ((2, 3), 1),
                                       ((2, 3), -3), ((0,), 0)], ids=str)
def test_unsqueeze(shape, dim):
    t, a = data(shape)
    check(t.unsqueeze(dim), np.expand_dims(a, dim))


@pytest.mark.parametrize("shape,dim", [((1, 3, 1), None), ((1, 3, 1), 0), ((1, 3, 1), -1), ((1, 3, 1), 1),
                                       ((1,), None), ((), None), ((0, 1), None), ((2,), 0)], ids=str)
def test_squeeze(shape, dim):
    t, a = data(shape)
    # squeezing an axis that is not 1 leaves it, as torch does (numpy raises)
    want = np.squeeze(a) if dim is None else (np.squeeze(a, dim) if a.shape[dim] == 1 else a)
    check(t.squeeze(dim), want)


@pytest.mark.parametrize("shape,start,end", [((2, 3, 4), 0, -1), ((2, 3, 4), 1, 2), ((2, 3, 4), 0, 1),
                                             ((2, 3, 4), -2, -1), ((), 0, -1), ((5,), 0, 0), ((2, 0, 3), 0, 1)],
                         ids=str)
def test_flatten(shape, start, end):
    t, a = data(shape)
    if a.ndim == 0:
        want = a.reshape(1)
    else:
        s, e = start % a.ndim, end % a.ndim
        want = a.reshape(a.shape[:s] + (-1 if a.size else int(np.prod(a.shape[s:e + 1])),) + a.shape[e + 1:])
    check(t.flatten(start, end), want)


@pytest.mark.parametrize("shape,dim", [((3,), 0), ((3,), 1), ((3,), -1), ((2, 3), 1), ((), 0), ((0, 2), 1)],
                         ids=str)
def test_stack(shape, dim):
    arrays = [make(shape, dtypes.float32, seed=i) for i in range(3)]
    ts = [Tensor(x) for x in arrays]
    want = np.stack(arrays, axis=dim)
    check(Tensor.stack(ts, dim=dim), want)
    check(Tensor.stack(*ts, dim=dim), want)
    check(ts[0].stack(ts[1], ts[2], dim=dim), want)


@pytest.mark.parametrize("shapes,dim", [([(2,), (3,)], 0), ([(2, 3), (1, 3)], 0), ([(2, 1), (2, 4)], -1),
                                        ([(2, 0), (2, 3), (2, 2)], 1), ([(0, 3), (2, 3)], 0), ([(4,)], 0)], ids=str)
def test_cat(shapes, dim):
    arrays = [make(s, dtypes.float32, seed=i) for i, s in enumerate(shapes)]
    ts = [Tensor(x) for x in arrays]
    want = np.concatenate(arrays, axis=dim)
    check(Tensor.cat(ts, dim=dim), want)
    check(ts[0].cat(*ts[1:], dim=dim), want)


@pytest.mark.parametrize("dt", DTYPES, ids=ids(DTYPES))
def test_stack_cat_dtypes(dt):
    a, b = make((2,), dt, seed=1), make((2,), dt, seed=2)
    check(Tensor.stack(Tensor(a), Tensor(b)), np.stack([a, b]), dtype=dt)
    check(Tensor.cat(Tensor(a), Tensor(b)), np.concatenate([a, b]), dtype=dt)


def test_cat_promotes():
    # cat of different dtypes promotes like a binary op (torch does the same)
    t = Tensor.cat(Tensor([1, 2], dtype=dtypes.int8), Tensor([0.5], dtype=dtypes.float16))
    check(t, np.array([1, 2, 0.5], np.float16))


def test_chained_views():
    t, a = data((2, 3, 4))
    check(t.permute(2, 0, 1).reshape(4, 6).flip(0)[1:3].pad(((1, 0), (0, 0))).T,
          np.pad(a.transpose(2, 0, 1).reshape(4, 6)[::-1][1:3], ((1, 0), (0, 0))).T)
