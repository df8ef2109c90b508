"""The one-hot and prefix-sum compositions (arange, fancy indexing, gather, index_select, embedding,
one_hot) folded to index arithmetic and indexed loads (src/schedule/fold_reduce.h): results against
torch 1.13 at sizes where the unfolded loops would take minutes, kernels without a reduction loop,
reductions of huge lazy constants, and the folded kernels against the compositions themselves
(FOLD_REDUCE=0, in a subprocess), out-of-range indices included."""

import textwrap

import numpy as np
import pytest
import torch

import onegrad
import onegrad.nn as nn
import onegrad.nn.functional as F
from onegrad import Tensor, dtypes
from helpers import run_with_fold_reduce


def same(og, th):
    a, b = og.numpy(), th.numpy()
    assert a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def no_reduce_loop(t):
    """Every kernel that realizing t runs has only LOOP axes (no R in its shape)."""
    shapes = [k.shape for k in onegrad.kernels(t)]
    assert shapes and all("R" not in s for s in shapes), shapes
    return shapes


# ---- results against torch, at sizes the loops could not reach

@pytest.mark.parametrize("args", [(10**6,), (0, 10**5, 3), (7, -5, -2), (-3, 4)])
def test_arange_matches_torch(args):
    same(Tensor.arange(*args), torch.arange(*args))


@pytest.mark.parametrize("dt,tdt", [(dtypes.float32, torch.float32), (dtypes.int8, torch.int8),
                                    (dtypes.float64, torch.float64)])
def test_arange_dtypes(dt, tdt):
    same(Tensor.arange(0, 100, 3, dtype=dt), torch.arange(0, 100, 3, dtype=tdt))


def test_getitem_int_tensor_1d():
    rng = np.random.default_rng(1)
    n = 10**5
    x = rng.standard_normal(n).astype(np.float32)
    i = rng.integers(-n, n, size=n)
    same(Tensor(x)[Tensor(i)], torch.from_numpy(x)[torch.from_numpy(i)])


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.float32])
def test_getitem_int_tensor_2d(dt):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((2000, 50)) * 100).astype(dt)
    rows, cols = rng.integers(-2000, 2000, size=(30, 40)), rng.integers(0, 50, size=(40,))
    tx = torch.from_numpy(x)
    same(Tensor(x)[Tensor(rows)], tx[torch.from_numpy(rows)])
    same(Tensor(x)[Tensor(rows), Tensor(cols)], tx[torch.from_numpy(rows), torch.from_numpy(cols)])
    same(Tensor(x)[:, Tensor(cols)], tx[:, torch.from_numpy(cols)])


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_matches_torch(dim):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((300, 200)).astype(np.float32)
    size = x.shape[dim]
    i = rng.integers(0, size, size=(250, 150))
    same(Tensor(x).gather(dim, Tensor(i)), torch.from_numpy(x).gather(dim, torch.from_numpy(i)))


def test_gather_3d_ints():
    rng = np.random.default_rng(4)
    x = rng.integers(-1000, 1000, size=(20, 30, 40)).astype(np.int32)
    i = rng.integers(0, 30, size=(20, 25, 40))
    same(Tensor(x).gather(1, Tensor(i)), torch.from_numpy(x).gather(1, torch.from_numpy(i)))


@pytest.mark.parametrize("dim", [0, 1])
def test_index_select_matches_torch(dim):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3000, 64)).astype(np.float32)
    i = rng.integers(0, x.shape[dim], size=5000)
    same(Tensor(x).index_select(dim, Tensor(i)), torch.from_numpy(x).index_select(dim, torch.from_numpy(i)))


def test_embedding_matches_torch():
    rng = np.random.default_rng(6)
    w = rng.standard_normal((50000, 32)).astype(np.float32)
    i = rng.integers(0, 50000, size=(64, 128))
    same(F.embedding(Tensor(i), Tensor(w)), torch.nn.functional.embedding(torch.from_numpy(i), torch.from_numpy(w)))
    emb = nn.Embedding(1000, 16, padding_idx=3)
    ti = torch.from_numpy(rng.integers(0, 1000, size=(8, 9)))
    want = torch.nn.functional.embedding(ti, torch.from_numpy(emb.weight.numpy()), padding_idx=3)
    same(emb(Tensor(ti.numpy())), want)


def test_one_hot_matches_torch():
    rng = np.random.default_rng(7)
    i = rng.integers(0, 100, size=(1000, 10))
    same(F.one_hot(Tensor(i), 100), torch.nn.functional.one_hot(torch.from_numpy(i), 100))
    same(F.one_hot(Tensor(i)), torch.nn.functional.one_hot(torch.from_numpy(i)))


# ---- the kernels: no loop over the one-hot axis or the prefix sum

@onegrad.settings.override(CHECK_INDEX=0)  # the index checks are a reduction over the index of their own
def test_kernels_have_no_reduction_loop():
    x, i = Tensor(np.ones(10**5, dtype=np.float32)), Tensor(np.arange(10**5)[::-1].copy())
    w, rows = Tensor(np.ones((1000, 64), dtype=np.float32)), Tensor(np.arange(500) % 1000)
    assert no_reduce_loop(Tensor.arange(10**6)) == ["L1000000"]
    assert no_reduce_loop(x[i]) == ["L100000"]
    no_reduce_loop(w[rows])
    no_reduce_loop(w.gather(1, Tensor(np.zeros((1000, 64), dtype=np.int64))))
    no_reduce_loop(w.index_select(0, rows))
    no_reduce_loop(F.embedding(rows.reshape(10, 50), w))
    no_reduce_loop(F.one_hot(rows, 1000))
    no_reduce_loop(Tensor.eye(1000))


# ---- reductions of lazy constants

def test_sum_of_a_trillion_constants_returns_at_once():
    t = Tensor.ones(10**6, 10**6)
    no_reduce_loop(t.sum())
    assert t.sum().item() == torch.ones(1, dtype=torch.float32).mul(1e12).item()
    assert Tensor.ones(10**6, 10**6, dtype=dtypes.int32).sum().item() == 10**12
    assert Tensor.full((10**5, 10**6), 2.5).max().item() == 2.5
    assert Tensor.full((10**6, 10**6), 3).sum(1).numpy()[:3].tolist() == [3 * 10**6] * 3


def test_constant_sums_wrap_like_additions():
    # int8 sums accumulate in int64 (torch), so 100 * 3 is exact; a prod of int8 wraps in int64
    assert Tensor.full((100,), 3, dtype=dtypes.int8).sum().item() == 300
    want = torch.full((50,), 3, dtype=torch.int64).prod().item()
    assert Tensor.full((50,), 3, dtype=dtypes.int64).prod().item() == want


# ---- folded kernels against the compositions as written (FOLD_REDUCE=0)

PROGRAM = textwrap.dedent("""
    import json, sys
    import numpy as np
    import onegrad.nn.functional as F
    from onegrad import Tensor
    out = {}
    def run(name, f):
        try:
            out[name] = f().numpy().tolist()
        except Exception as e:
            out[name] = type(e).__name__
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) * 1.5 - 4)
    xi = Tensor(np.arange(12, dtype=np.int32).reshape(3, 4) * 7 - 40)
    bad = Tensor(np.array([0, 2, 5, -1, 3], dtype=np.int64)) + 0   # computed: not checked on the host
    run("arange", lambda: Tensor.arange(-3, 50, 4))
    run("getitem", lambda: x.reshape(12)[bad * 3 - 1])
    run("getitem_2d", lambda: x[bad])
    run("getitem_int", lambda: xi[bad, bad - 1])
    run("gather", lambda: x.gather(1, (bad[:3] * 2).reshape(3, 1).expand(3, 2)))
    run("index_select", lambda: xi.index_select(1, bad))
    run("embedding", lambda: F.embedding(bad.reshape(1, 5), x))
    run("one_hot", lambda: F.one_hot(bad, 4))
    run("sum_const", lambda: Tensor.full((1000, 999), 0.25).sum(0)[:5])
    print(json.dumps(out))
""")


def run_program(fold):
    return run_with_fold_reduce(PROGRAM, fold)


def test_folded_kernels_equal_the_compositions():
    folded, loops = run_program(1), run_program(0)
    assert folded == loops
    # An out-of-range index selects nothing in both (docs/tensor.md; were it to raise, both raise).
    if isinstance(folded["one_hot"], list):
        assert folded["getitem"][2] == 0.0 and folded["one_hot"][2] == [0, 0, 0, 0]


def test_folded_float_sums_round_once_and_keep_the_sign_of_zero():
    # the loop in float32 stops at 2^24; the fold (and torch) give the sum
    assert Tensor.ones(10**8).sum().item() == torch.ones(10**8).sum().item()
    # a sum of -0.0s is +0.0 as in torch (the loop starts from +0.0)
    assert np.signbit(Tensor.full((3,), -0.0).sum().numpy()) == np.signbit(torch.full((3,), -0.0).sum().numpy())
    # a selected -0.0 stays -0.0, as torch's gather returns it
    x = Tensor(np.array([1.0, -0.0], dtype=np.float32))
    assert np.signbit(x.gather(0, Tensor(np.array([1]))).numpy()[0])
