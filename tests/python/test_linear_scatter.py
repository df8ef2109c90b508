"""scatter, scatter_reduce and setitem with integer tensor indices in linear time: the one-hot
compositions collapsed by the scatter rules (src/schedule/scatter_rules.cpp) into a copy and an
indexed loop. Results and gradients against torch 1.13, kernels without a reduction loop, and the
folded kernels against the compositions as written (FOLD_REDUCE=0, in a subprocess). Duplicate
indices: the last in index order wins (PyTorch's CPU loop), for scatter and setitem alike."""

import textwrap

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor
from helpers import run_with_fold_reduce

torch.set_num_threads(1)  # one thread: torch's loops then write in index order too

REDUCES = ["sum", "prod", "mean", "amax", "amin"]


def same(og, th, exact=True):
    a, b = og.numpy(), th.detach().numpy()
    assert a.shape == b.shape
    if exact:
        np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def both(a, grad=False):
    return Tensor(a, requires_grad=grad), torch.tensor(a, requires_grad=grad)


def no_reduce_loop(build):
    """Every kernel realizing build() (index checks off: they reduce over the index) has only LOOP
    axes."""
    with onegrad.settings.override(CHECK_INDEX=0):
        shapes = [k.shape for k in onegrad.kernels(build())]
    assert shapes and all("R" not in s for s in shapes), shapes


# ---- results against torch, duplicates included

def test_scatter_1d_large_last_write_wins():
    rng = np.random.default_rng(1)
    n = 10**5
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(0, n // 10, n))  # about ten writes to each hit place
    v, tv = both(rng.standard_normal(n).astype(np.float32))
    same(x.scatter(0, i, v), tx.scatter(0, ti, tv))
    same(x.scatter(0, i, 2.5), tx.scatter(0, ti, 2.5))
    no_reduce_loop(lambda: x.scatter(0, i, v))
    no_reduce_loop(lambda: x.scatter(0, i, 2.5))


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8])
def test_scatter_2d_matches_torch(dim, dtype):
    rng = np.random.default_rng(2)
    x, tx = both((rng.standard_normal((6, 7)) * 50).astype(dtype))
    i, ti = both(rng.integers(0, x.shape[dim], (5, 4)))  # smaller than x: torch's extent rule
    v, tv = both((rng.standard_normal((5, 6)) * 50).astype(dtype))
    same(x.scatter(dim, i, v), tx.scatter(dim, ti, tv))
    same(x.scatter(dim, i, 3), tx.scatter(dim, ti, 3))


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("dim", [0, 1])
def test_scatter_reduce_matches_torch(reduce, include_self, dtype, dim):
    rng = np.random.default_rng(3)
    x, tx = both(rng.integers(-9, 10, (6, 7)).astype(dtype))
    i, ti = both(rng.integers(0, x.shape[dim], (6, 5)))
    v, tv = both(rng.integers(-9, 10, (6, 5)).astype(dtype))
    got = x.scatter_reduce(dim, i, v, reduce, include_self=include_self)
    want = tx.scatter_reduce(dim, ti, tv, reduce, include_self=include_self)
    same(got, want, exact=dtype != np.float32 or reduce != "mean")


@pytest.mark.parametrize("reduce", REDUCES)
def test_scatter_reduce_1d_large(reduce):
    rng = np.random.default_rng(4)
    n = 10**5
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(0, n, n))
    v, tv = both(rng.uniform(0.5, 1.5, n).astype(np.float32))
    for include_self in (True, False):
        got = x.scatter_reduce(0, i, v, reduce, include_self=include_self)
        # values combine in index order, as torch's loop: sums and products round alike
        same(got, tx.scatter_reduce(0, ti, tv, reduce, include_self=include_self), exact=reduce != "mean")
        no_reduce_loop(lambda: x.scatter_reduce(0, i, v, reduce, include_self=include_self))


def test_scatter_reduce_keeps_what_no_index_hits():
    # -0.0 and NaN in places no index hits come back as they were (the sum's copy adds 0.0 there;
    # amin negates twice, which may flip a NaN's sign bit: not compared)
    a = np.array([-0.0, np.nan, 1.0, -0.0], np.float32)
    x, tx = both(a)
    i, ti = both(np.array([2, 2]))
    v, tv = both(np.array([1.0, 2.0], np.float32))
    for reduce in REDUCES:
        got = x.scatter_reduce(0, i, v, reduce).numpy()
        want = tx.scatter_reduce(0, ti, tv, reduce).numpy()
        np.testing.assert_array_equal(got, want)
        zeros = want == 0
        np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]))


# ---- setitem with integer tensors

def setitem_both(shape, key, value, rng):
    base = rng.standard_normal(shape).astype(np.float32)
    x, tx = Tensor(base), torch.tensor(base)
    x[tuple(Tensor(k) for k in key) if isinstance(key, tuple) else Tensor(key)] = \
        Tensor(value) if isinstance(value, np.ndarray) else value
    tx[tuple(torch.tensor(k) for k in key) if isinstance(key, tuple) else torch.tensor(key)] = \
        torch.tensor(value) if isinstance(value, np.ndarray) else value
    same(x, tx)
    return x


def test_setitem_1d_duplicates_last_write_wins():
    rng = np.random.default_rng(5)
    idx = rng.integers(-50, 50, 400)  # negative indices count from the end
    setitem_both((50,), idx, rng.standard_normal(400).astype(np.float32), rng)
    setitem_both((50,), idx, 7.5, rng)


def test_setitem_rows_and_pairs():
    rng = np.random.default_rng(6)
    rows = rng.integers(0, 30, 80)
    setitem_both((30, 8), rows, rng.standard_normal((80, 8)).astype(np.float32), rng)
    setitem_both((30, 8), rows, rng.standard_normal(8).astype(np.float32), rng)  # one row, broadcast
    pairs = (rng.integers(0, 30, 100), rng.integers(-8, 8, 100))
    setitem_both((30, 8), pairs, rng.standard_normal(100).astype(np.float32), rng)
    setitem_both((4, 30, 8), rng.integers(0, 4, 20), 1.0, rng)


def test_setitem_large_distinct():
    rng = np.random.default_rng(7)
    n = 10**5
    setitem_both((n,), rng.permutation(n), rng.standard_normal(n).astype(np.float32), rng)
    setitem_both((n // 64, 64), rng.permutation(n // 64), rng.standard_normal((n // 64, 64)).astype(np.float32), rng)


def test_setitem_out_of_range_raises_and_writes_nothing():
    x = Tensor(np.zeros(5, np.float32))
    with pytest.raises(onegrad.errors.IndexError, match="index 9 is out of bounds for .* size 5"):
        x[Tensor(np.array([1, 9])) + 0] = 1.0
    np.testing.assert_array_equal(x.numpy(), np.zeros(5, np.float32))


def test_scatter_reduce_out_of_range_raises():
    x = Tensor(np.zeros(5, np.float32))
    r = x.scatter_reduce(0, Tensor(np.array([1, 7])) + 0, Tensor(np.ones(2, np.float32)), "amax")
    with pytest.raises(onegrad.errors.IndexError, match="scatter_reduce: index 7 is out of bounds for dimension 0 with size 5"):
        r.numpy()


# ---- gradients against torch (distinct indices: torch gives an overwritten duplicate the
# gradient of the place it lost, onegrad gives it none; docs/torch-differences.md)

def test_scatter_gradients():
    rng = np.random.default_rng(8)
    x, tx = both(rng.standard_normal((4, 6)).astype(np.float32), grad=True)
    v, tv = both(rng.standard_normal((4, 3)).astype(np.float32), grad=True)
    idx = np.stack([rng.permutation(6)[:3] for _ in range(4)])
    w = rng.standard_normal((4, 6)).astype(np.float32)
    (x.scatter(1, Tensor(idx), v) * Tensor(w)).sum().backward()
    (tx.scatter(1, torch.tensor(idx), tv) * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad)
    same(v.grad, tv.grad)


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_gradients(reduce, include_self):
    rng = np.random.default_rng(9)
    x, tx = both(rng.standard_normal(8).astype(np.float32), grad=True)  # distinct values: no ties
    v, tv = both(rng.standard_normal(12).astype(np.float32), grad=True)
    idx = rng.integers(0, 6, 12)  # duplicates: each reduction combines several values
    w = rng.standard_normal(8).astype(np.float32)
    (x.scatter_reduce(0, Tensor(idx), v, reduce, include_self=include_self) * Tensor(w)).sum().backward()
    (tx.scatter_reduce(0, torch.tensor(idx), tv, reduce, include_self=include_self) * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad, exact=False)
    same(v.grad, tv.grad, exact=False)


@pytest.mark.parametrize("key", ["rows", "pairs"])
def test_setitem_gradients(key):
    rng = np.random.default_rng(10)
    base = rng.standard_normal((6, 4)).astype(np.float32)
    x, tx = both(base, grad=True)
    if key == "rows":
        k = rng.permutation(6)[:3]
        og_key, t_key, vshape = Tensor(k), torch.tensor(k), (3, 4)
    else:
        flat = rng.permutation(24)[:10]
        og_key, t_key, vshape = (Tensor(flat // 4), Tensor(flat % 4)), (torch.tensor(flat // 4), torch.tensor(flat % 4)), (10,)
    v, tv = both(rng.standard_normal(vshape).astype(np.float32), grad=True)
    y, ty = x * 2, tx * 2
    y[og_key] = v
    ty[t_key] = tv
    w = rng.standard_normal((6, 4)).astype(np.float32)
    (y * Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad)
    same(v.grad, tv.grad)


def test_gradients_of_gathers_and_scatters_are_indexed_loops():
    # a gather's gradient sums into a new buffer, scaled by the chain rule: the scatter rules take it
    rng = np.random.default_rng(11)
    n = 3000
    xa = rng.standard_normal(n).astype(np.float32)
    idx = rng.integers(0, n, n)

    def setitem(x):
        y = x * 1
        y[Tensor(idx)] = x * 3
        return y
    builds = {
        "getitem": lambda x: x[Tensor(idx)] * Tensor(xa),
        "scatter": lambda x: x.scatter(0, Tensor(idx), x * 2),
        "scatter_reduce sum": lambda x: x.scatter_reduce(0, Tensor(idx), x * 2, "sum"),
        "setitem": setitem,
    }
    for name, build in builds.items():
        x = Tensor(xa, requires_grad=True)
        no_reduce_loop(lambda: onegrad.autograd.grad((build(x) ** 2).sum(), x)[0])


def test_getitem_gradient_large_with_duplicates():
    rng = np.random.default_rng(12)
    n = 10**5
    x, tx = both(rng.standard_normal(n).astype(np.float32), grad=True)
    i = rng.integers(-n, n, n)
    w = rng.standard_normal(n).astype(np.float32)
    (x[Tensor(i)] * Tensor(w)).sum().backward()
    (tx[torch.tensor(i)] * torch.tensor(w)).sum().backward()
    same(x.grad, tx.grad, exact=False)


def test_sort_values_keep_their_bits():
    # sort moves the elements themselves (scatter::place_values): -0.0 stays -0.0
    a = np.array([0.0, -0.0, 1.0, -0.0, -1.0], np.float32)
    got = Tensor(a).sort().values.numpy()
    want = torch.tensor(a).sort(stable=True).values.numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


# ---- folded kernels against the compositions as written (FOLD_REDUCE=0)

PROGRAM = textwrap.dedent("""
    import json
    import numpy as np
    import onegrad
    from onegrad import Tensor
    out = {}
    def run(name, f):
        out[name] = f().numpy().tolist()
    rng = np.random.default_rng(0)
    x = Tensor(rng.integers(-9, 10, (5, 6)).astype(np.float32))
    xi = Tensor(rng.integers(-9, 10, (5, 6)).astype(np.int32))
    idx = Tensor(rng.integers(-1, 7, (5, 6))) + 0    # some out of range: dropped with the check off
    v = Tensor(rng.integers(-9, 10, (5, 6)).astype(np.float32))
    vi = Tensor(rng.integers(-9, 10, (5, 6)).astype(np.int32))
    with onegrad.settings.override(CHECK_INDEX=0):
        run("scatter", lambda: x.scatter(1, idx, v))
        run("scatter_value", lambda: xi.scatter(1, idx, 4))
        for r in ["sum", "prod", "mean", "amax", "amin"]:
            for s in (True, False):
                run(f"{r}_{s}", lambda: x.scatter_reduce(1, idx, v, r, include_self=s))
                run(f"{r}_{s}_int", lambda: xi.scatter_reduce(1, idx, vi, r, include_self=s))
    y = x * 1
    y[Tensor(np.array([4, 0, 4, -1, 2]))] = v * 1
    run("setitem", lambda: y)
    z = xi * 1
    z[Tensor(np.array([4, 0, 4])), Tensor(np.array([5, -1, 5]))] = Tensor(np.array([1, 2, 3], np.int32))
    run("setitem_pairs", lambda: z)
    s = Tensor(np.array([3.0, -0.0, 0.0, 1.0], np.float32)).sort()
    out["sort_signbit"] = np.signbit(s.values.numpy()).tolist()
    print(json.dumps(out))
""")


def run_program(fold):
    return run_with_fold_reduce(PROGRAM, fold)


def test_folded_kernels_equal_the_compositions():
    folded, loops = run_program(1), run_program(0)
    assert folded.keys() == loops.keys()
    for k in folded:
        assert folded[k] == loops[k], k
