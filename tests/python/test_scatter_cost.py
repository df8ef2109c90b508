"""The cheaper forms of scatter and setitem, bit for bit against torch 1.13: the last write as one
MAX scatter of (position, value bits) words (values of at most 32 bits), the float sum seeded with
-0.0 (so scatter_reduce sum needs no hit count), and setitem storing in place when its value reads
the written tensor only at the written elements."""

import re

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

torch.set_num_threads(1)  # one thread: torch's loops write in index order

PACKED = [np.float32, np.float16, np.int32, np.int16, np.int8, np.uint8, np.bool_]
WIDE = [np.float64, np.int64]  # more than 32 bits: the position and a gather of the value


def values(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    a = rng.standard_normal(shape).astype(dtype).ravel()
    specials = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, -np.nan], dtype)
    a[: len(specials)] = specials
    rng.shuffle(a)
    return a.reshape(shape)


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.uint8) if a.dtype == np.bool_ else a.view(f"u{a.dtype.itemsize}")


def same_bits(og, th):
    a, b = og.numpy(), th.numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_array_equal(bits(a), bits(b))


def kernel_names(capfd, write):
    """The kernel names of the one schedule `write` realizes (DEBUG=1 lists them on stderr)."""
    capfd.readouterr()
    with onegrad.settings.override(DEBUG=1, CHECK_INDEX=0):
        write()
    err = capfd.readouterr().err
    return [line.split()[2] for line in err.splitlines() if line.startswith("  kernel ")]


@pytest.mark.parametrize("dtype", PACKED + WIDE)
def test_scatter_last_write_keeps_every_bit(dtype):
    rng = np.random.default_rng(11)
    n = 240
    x, v = values(rng, n, dtype), values(rng, 2 * n, dtype)
    i = rng.integers(0, n // 3, 2 * n)  # about six writes to each hit place, a third of x hit
    same_bits(Tensor(x).scatter(0, Tensor(i), Tensor(v)), torch.from_numpy(x).scatter(0, torch.from_numpy(i), torch.from_numpy(v)))


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float64])
def test_scatter_2d_last_write_keeps_every_bit(dim, dtype):
    rng = np.random.default_rng(12)
    x, v = values(rng, (6, 7), dtype), values(rng, (9, 7) if dim == 0 else (6, 9), dtype)
    i = rng.integers(0, x.shape[dim], v.shape)
    same_bits(Tensor(x).scatter(dim, Tensor(i), Tensor(v)),
              torch.from_numpy(x).scatter(dim, torch.from_numpy(i), torch.from_numpy(v)))


def test_scatter_is_one_scatter_and_one_elementwise_kernel():
    rng = np.random.default_rng(13)
    x, v, i = Tensor(values(rng, 500, np.float32)), Tensor(values(rng, 900, np.float32)), Tensor(rng.integers(0, 500, 900))
    with onegrad.settings.override(CHECK_INDEX=0):
        shapes = [k.shape for k in onegrad.kernels(x.scatter(0, i, v))]
    assert len(shapes) == 2 and all("R" not in s for s in shapes), shapes


def reads_its_output(kernel):
    """Whether the C of a kernel loads from its output buffer b0 (a store is `b0[...] = ...`)."""
    return re.search(r"[=?:(]\s*b0\[", kernel.source()) is not None


def test_a_max_loop_of_rising_positions_only_stores():
    # a position (last_hit), or a position packed above a value's bits, grows with d and starts
    # above the seed: MAX(out[a(d)], v(d)) is v(d), so the loop stores without reading out
    rng = np.random.default_rng(18)
    x, v = Tensor(values(rng, 500, np.float32)), Tensor(values(rng, 900, np.float32))
    xw, vw = Tensor(values(rng, 500, np.float64)), Tensor(values(rng, 900, np.float64))
    i = Tensor(rng.integers(0, 500, 900))
    with onegrad.settings.override(CHECK_INDEX=0):
        packed = onegrad.kernels(x.scatter(0, i, v))[0]
        positions = onegrad.kernels(xw.scatter(0, i, vw))[0]  # float64: the last position, then a gather
        amax = onegrad.kernels(x.scatter_reduce(0, i, v, "amax"))[0]
    assert all("R" not in k.shape for k in (packed, positions, amax))  # indexed loops, no reduce
    assert not reads_its_output(packed) and not reads_its_output(positions)
    assert reads_its_output(amax)  # data values: the running maximum is read back


def test_scatter_with_gradient_keeps_its_gather():
    # the packed words carry no gradient: a src that needs one takes the position-and-gather path
    rng = np.random.default_rng(14)
    a, b = rng.standard_normal(40).astype(np.float32), rng.standard_normal(30).astype(np.float32)
    i = rng.permutation(40)[:30]
    x, v = Tensor(a, requires_grad=True), Tensor(b, requires_grad=True)
    tx, tv = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    w = rng.standard_normal(40).astype(np.float32)
    (x.scatter(0, Tensor(i), v) * Tensor(w)).sum().backward()
    (tx.scatter(0, torch.from_numpy(i), tv) * torch.from_numpy(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(v.grad.numpy(), tv.grad.numpy())


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_scatter_reduce_sum_keeps_negative_zero(include_self, dtype):
    # place 0: -0.0 + -0.0 + -0.0 stays -0.0; 1: -0.0 + 2; 2: no hit; 3: 1 + -0.0; 4: -0.0 + +0.0
    x = np.array([-0.0, -0.0, -0.0, 1.0, -0.0, 3.0], dtype)
    i = np.array([0, 0, 1, 3, 4, 0])
    v = np.array([-0.0, -0.0, 2.0, -0.0, 0.0, -0.0], dtype)
    got = Tensor(x).scatter_reduce(0, Tensor(i), Tensor(v), "sum", include_self=include_self)
    want = torch.from_numpy(x).scatter_reduce(0, torch.from_numpy(i), torch.from_numpy(v), "sum",
                                              include_self=include_self)
    same_bits(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_scatter_add_keeps_negative_zero(dtype):
    # the spec's scatter_add adds +0.0 where nothing hits (x + sum of no values): a -0.0 in x became
    # +0.0; torch keeps it. place 0: -0.0 + -0.0 + -0.0; 2 and 4: no hit; 3: 1 + -0.0; 5: 3 + -0.0
    x = np.array([-0.0, -0.0, -0.0, 1.0, -0.0, 3.0], dtype)
    i = np.array([0, 0, 1, 3, 5, 0])
    v = np.array([-0.0, -0.0, 2.0, -0.0, -0.0, -0.0], dtype)
    want = torch.from_numpy(x).scatter_add(0, torch.from_numpy(i), torch.from_numpy(v))
    same_bits(Tensor(x).scatter_add(0, Tensor(i), Tensor(v)), want)
    # along dim 0 of a (2, 3): the -0.0s at (0, 0) and (0, 1) are not hit
    x2, i2, v2 = x.reshape(2, 3), np.array([[1, 1, 0]]), v.reshape(2, 3)
    want = torch.from_numpy(x2).scatter_add(0, torch.from_numpy(i2), torch.from_numpy(v2))
    same_bits(Tensor(x2).scatter_add(0, Tensor(i2), Tensor(v2)), want)


def test_scatter_add_is_one_kernel():
    rng = np.random.default_rng(17)
    x, v, i = Tensor(values(rng, 500, np.float32)), Tensor(values(rng, 900, np.float32)), Tensor(rng.integers(0, 500, 900))
    with onegrad.settings.override(CHECK_INDEX=0):
        assert len(onegrad.kernels(x.scatter_add(0, i, v))) == 1


def test_scatter_reduce_sum_is_one_kernel():
    rng = np.random.default_rng(15)
    x, v, i = Tensor(values(rng, 500, np.float32)), Tensor(values(rng, 900, np.float32)), Tensor(rng.integers(0, 500, 900))
    with onegrad.settings.override(CHECK_INDEX=0):
        assert len(onegrad.kernels(x.scatter_reduce(0, i, v, "sum"))) == 1


def test_setitem_stores_in_place(capfd):
    rng = np.random.default_rng(16)
    x = Tensor(rng.standard_normal(300).astype(np.float32))
    i, v = Tensor(rng.permutation(300)), Tensor(rng.standard_normal(300).astype(np.float32))
    x.realize()
    # the packed scatter, then where(written, new, old) stored straight into x: no copy of x
    names = kernel_names(capfd, lambda: x.__setitem__(i, v))
    assert len(names) == 2 and all(n.startswith("E_") for n in names), names  # no reduction loop
    rows = Tensor(rng.standard_normal((30, 8)).astype(np.float32)).realize()
    r, rv = Tensor(rng.permutation(30)), Tensor(rng.standard_normal((30, 8)).astype(np.float32))
    # the last hit of each row, then the rows gathered and stored into x
    names = kernel_names(capfd, lambda: rows.__setitem__(r, rv))
    assert len(names) == 2 and all(n.startswith("E_") for n in names), names


def both(a):
    return Tensor(a), torch.from_numpy(a.copy())


def test_setitem_values_that_read_the_target():
    rng = np.random.default_rng(17)
    a = rng.standard_normal(50).astype(np.float32)
    m = rng.standard_normal((20, 6)).astype(np.float32)
    i, j = rng.permutation(50)[:20], rng.permutation(50)[:20]
    r, s = rng.permutation(20)[:7], rng.permutation(20)[:7]
    cases = [
        # elementwise in the written elements: stored in place
        (a, lambda x: x[1:], lambda x: x[1:] * 2 + 1),
        (a, lambda x: x[:], lambda x: (x > 0).where(x, x * 0) if isinstance(x, Tensor) else torch.where(x > 0, x, x * 0)),
        (m, lambda x: x.T[2:5], lambda x: x.T[2:5] - 1),
        # the target's other elements: computed into a buffer of their own first
        (a, lambda x: x[1:], lambda x: x[:-1]),
        (a, lambda x: x[2:], lambda x: x[2:].flip(0)),
        (m, lambda x: x.T[1:4], lambda x: x.T[2:5]),
    ]
    for base, view, value in cases:
        (x, tx) = both(base)
        target, ttarget = view(x), view(tx)
        target[...] = value(x)
        ttarget[...] = value(tx).clone()  # torch refuses an overlapping read: the old values
        np.testing.assert_array_equal(x.numpy(), tx.numpy())
    # advanced indices: the value a gather of the target, of its rows, or where() of the target
    x, tx = both(a)
    x[Tensor(i)] = x[Tensor(j)] * 3
    tx[torch.from_numpy(i)] = tx[torch.from_numpy(j)] * 3
    np.testing.assert_array_equal(x.numpy(), tx.numpy())
    x, tx = both(m)
    x[Tensor(r)] = x[Tensor(s)]
    tx[torch.from_numpy(r)] = tx[torch.from_numpy(s)]
    np.testing.assert_array_equal(x.numpy(), tx.numpy())
    x, tx = both(a)
    x[Tensor(i)] = x[Tensor(i)] + 1
    tx[torch.from_numpy(i)] = tx[torch.from_numpy(i)] + 1
    np.testing.assert_array_equal(x.numpy(), tx.numpy())


def test_setitem_in_place_keeps_the_old_values_for_the_gradient():
    # the value reads the target only at the written elements (stored in place), and its gradient
    # needs the values from before the write
    a = np.array([1.5, -2.0, 3.0, 0.5, 4.0], np.float32)
    w = np.arange(5, dtype=np.float32)
    x, tx = Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    y, ty = x * 1, tx * 1
    y[1:] = y[1:] * y[1:]
    old = ty[1:].clone()
    ty[1:] = old * old
    (y * Tensor(w)).sum().backward()
    (ty * torch.from_numpy(w)).sum().backward()
    np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    i = np.array([3, 0, 4])
    x, tx = Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    y, ty = x * 1, tx * 1
    y[Tensor(i)] = Tensor(np.array([7, 8, 9], np.float32)) * y[Tensor(i)]
    old = ty[torch.from_numpy(i)].clone()
    ty[torch.from_numpy(i)] = torch.tensor([7.0, 8.0, 9.0]) * old
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())


@pytest.mark.parametrize("shape", [(40,), (10, 4)])
@pytest.mark.parametrize("value_shape", [(), (1,)])
def test_setitem_one_value_is_a_where_of_the_written_places(shape, value_shape):
    # one value for every written place: no last write to pick, only where some index hits
    rng = np.random.default_rng(19)
    a = rng.standard_normal(shape).astype(np.float32)
    i = rng.integers(-shape[0], shape[0], 30)  # duplicates and negative indices
    w = rng.standard_normal(shape).astype(np.float32)
    c = np.full(value_shape, 2.5, np.float32)
    x, tx = Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    val, tval = Tensor(c, requires_grad=True), torch.tensor(c, requires_grad=True)
    y, ty = x * 1, tx * 1
    y[Tensor(i)] = val
    ty[torch.from_numpy(i)] = tval
    same_bits(y.detach(), ty.detach())
    (y * Tensor(w)).sum().backward()
    (ty * torch.from_numpy(w)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())
    # each written place once (torch counts a duplicate index once per occurrence)
    written = np.unique(i % shape[0])
    np.testing.assert_allclose(val.grad.numpy(), np.full(value_shape, w[written].sum(), np.float32), rtol=1e-5)


def test_setitem_one_value_needs_no_packed_words(capfd):
    rng = np.random.default_rng(20)
    x = Tensor(rng.standard_normal(300).astype(np.float32)).realize()
    i = Tensor(rng.integers(0, 300, 500))
    names = kernel_names(capfd, lambda: x.__setitem__(i, 2.5))
    assert len(names) == 2, names
    capfd.readouterr()
    with onegrad.settings.override(DEBUG=1, CHECK_INDEX=0):
        x[i] = 3.5
    assert "(300 int32)" in capfd.readouterr().err  # the last hit's positions, not int64 words
