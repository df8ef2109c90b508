#!/usr/bin/env python3
"""Ops the spec writes as one-hot or prefix-sum compositions, timed side by side with PyTorch.

  PYTHONPATH=build/python /usr/bin/python3 bench/linear_time.py [--repeat 7] [--sizes 100000 1000000]
  ... bench/linear_time.py --only gather embedding        # the cases whose name starts so

Each case runs one op on inputs of about n elements (the output has n elements), lazily built and
realized in onegrad, eagerly in torch. Figures are medians of --repeat calls after one warm-up (so
onegrad's compile is excluded: the warm-up compiles, later calls hit the program cache); the ratio
is onegrad's time / torch's (below 1: onegrad is faster). Every case also checks that both give
the same values (float scans to a tolerance: torch accumulates float32 in double; randperm: both
are permutations). The table of cases is CASES below: add a row (name, setup) where setup(n, rng)
returns (onegrad_fn, torch_fn), each computing the op and returning its result (onegrad realized).
"""
import argparse
import os
import sys
import tempfile

os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import onegrad  # noqa: E402
import onegrad.nn.functional as F  # noqa: E402
from tensor_vs_numpy_torch import median_time  # noqa: E402  (bench/ is on sys.path when run as a script)
from onegrad import Tensor  # noqa: E402

ROW = 64  # the row length of the 2-D cases: n elements are n // ROW rows


def both(array):
    """The same data as an onegrad and a torch tensor."""
    return Tensor(array), torch.from_numpy(array)


def arange(n, rng):
    return (lambda: Tensor.arange(n).realize()), (lambda: torch.arange(n))


def getitem_1d(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(-n, n, size=n))
    return (lambda: x[i].realize()), (lambda: tx[ti])


def getitem_2d(n, rng):
    rows = n // ROW
    x, tx = both(rng.standard_normal((rows, ROW)).astype(np.float32))
    i, ti = both(rng.integers(0, rows, size=rows))
    return (lambda: x[i].realize()), (lambda: tx[ti])


def gather(n, rng):
    rows = n // ROW
    x, tx = both(rng.standard_normal((rows, ROW)).astype(np.float32))
    i, ti = both(rng.integers(0, ROW, size=(rows, ROW)))
    return (lambda: x.gather(1, i).realize()), (lambda: tx.gather(1, ti))


def index_select(n, rng):
    rows = n // ROW
    x, tx = both(rng.standard_normal((rows, ROW)).astype(np.float32))
    i, ti = both(rng.integers(0, rows, size=rows))
    return (lambda: x.index_select(0, i).realize()), (lambda: tx.index_select(0, ti))


def embedding(n, rng):
    vocab = 10000
    w, tw = both(rng.standard_normal((vocab, ROW)).astype(np.float32))
    i, ti = both(rng.integers(0, vocab, size=(n // ROW // 8, 8)))
    return (lambda: F.embedding(i, w).realize()), (lambda: torch.nn.functional.embedding(ti, tw))


def one_hot(n, rng):
    classes = 10
    i, ti = both(rng.integers(0, classes, size=n // classes))
    return (lambda: F.one_hot(i, classes).realize()), (lambda: torch.nn.functional.one_hot(ti, classes))


def cumsum(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: x.cumsum(0).realize()), (lambda: tx.cumsum(0))


def cumprod(n, rng):
    x, tx = both(rng.uniform(0.9999, 1.0001, n).astype(np.float32))
    return (lambda: x.cumprod(0).realize()), (lambda: tx.cumprod(0))


def suffix_cumsum(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: x.flip(0).cumsum(0).flip(0).realize()), (lambda: tx.flip(0).cumsum(0).flip(0))


def cummax(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: x.cummax(0).indices.realize()), (lambda: tx.cummax(0).indices)


def mask_getitem(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: x[x > 0].realize()), (lambda: tx[tx > 0])


def nonzero(n, rng):
    x, tx = both(rng.integers(-1, 2, n).astype(np.int32))
    return (lambda: x.nonzero().realize()), (lambda: tx.nonzero())


def scatter_add(n, rng):
    t, tt = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(0, n, n))
    v, tv = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: t.scatter_add(0, i, v).realize()), (lambda: tt.scatter_add(0, ti, tv))


def scatter(n, rng):  # duplicate indices: the last in index order wins, in both
    t, tt = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(0, n, n))
    v, tv = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: t.scatter(0, i, v).realize()), (lambda: tt.scatter(0, ti, tv))


def scatter_value(n, rng):
    t, tt = both(rng.standard_normal(n).astype(np.float32))
    i, ti = both(rng.integers(0, n, n))
    return (lambda: t.scatter(0, i, 2.5).realize()), (lambda: tt.scatter(0, ti, 2.5))


def scatter_reduce(reduce, include_self=True):
    def setup(n, rng):
        t, tt = both(rng.standard_normal(n).astype(np.float32))
        i, ti = both(rng.integers(0, n, n))
        v, tv = both(rng.uniform(0.5, 1.5, n).astype(np.float32))
        return ((lambda: t.scatter_reduce(0, i, v, reduce, include_self=include_self).realize()),
                (lambda: tt.scatter_reduce(0, ti, tv, reduce, include_self=include_self)))
    return setup


def setitem(rows_of=None, pair=False, scalar=False):
    """x[idx] = v into a fresh copy of x each call (a write is in place); distinct indices, as
    torch's parallel index_put_ leaves duplicates' winner open."""
    def setup(n, rng):
        shape = (n // ROW, ROW) if rows_of or pair else (n,)
        base = rng.standard_normal(shape).astype(np.float32)
        k = shape[0]
        i, ti = both(rng.permutation(k))
        if pair:  # x[i, j] = v: every (row, column) pair once, in random order
            flat = rng.permutation(base.size)
            i, ti = both(flat // ROW)
            j, tj = both(flat % ROW)
            key, tkey = (i, j), (ti, tj)
            vshape = flat.shape
        else:
            key, tkey = i, ti
            vshape = shape
        v, tv = both(rng.standard_normal(vshape).astype(np.float32))
        if scalar:
            v = tv = 2.5

        def og_fn():
            x = Tensor(base)
            x[key] = v
            return x.realize()

        def torch_fn():
            x = torch.from_numpy(base.copy())
            x[tkey] = tv
            return x
        return og_fn, torch_fn
    return setup


def sort(n, rng):
    x, tx = both(rng.standard_normal(n).astype(np.float32))
    return (lambda: x.sort().indices.realize()), (lambda: tx.sort(stable=True).indices)


def randperm(n, rng):
    # different generators: compare that both are permutations
    return (lambda: onegrad.randperm(n).realize()), (lambda: torch.randperm(n))


# (name, setup): the rows of the table, in this order.
CASES = [
    ("arange", arange),
    ("x[idx] 1-D", getitem_1d),
    ("x[idx] 2-D rows", getitem_2d),
    ("gather dim 1", gather),
    ("index_select", index_select),
    ("embedding", embedding),
    ("one_hot", one_hot),
    ("cumsum", cumsum),
    ("cumprod", cumprod),
    ("suffix cumsum (flipped)", suffix_cumsum),
    ("cummax indices", cummax),
    ("x[x > 0]", mask_getitem),
    ("nonzero", nonzero),
    ("scatter_add", scatter_add),
    ("scatter", scatter),
    ("scatter value", scatter_value),
    ("scatter_reduce sum", scatter_reduce("sum")),
    ("scatter_reduce prod", scatter_reduce("prod")),
    ("scatter_reduce mean", scatter_reduce("mean")),
    ("scatter_reduce amax", scatter_reduce("amax")),
    ("scatter_reduce amin, no self", scatter_reduce("amin", include_self=False)),
    ("x[idx] = v", setitem()),
    ("x[idx] = scalar", setitem(scalar=True)),
    ("x[idx] = rows", setitem(rows_of=True)),
    ("x[i, j] = v", setitem(pair=True)),
    ("sort (indices)", sort),
    ("randperm", randperm),
]


def warm_median_time(fn, repeat):
    fn()  # warm-up: onegrad compiles here
    return median_time(fn, repeat)


def same(name, og, th):
    a, b = og.numpy(), th.numpy()
    if name == "randperm":  # different generators: both must be permutations
        a, b = np.sort(a), np.sort(b)
    if a.dtype.kind == "f" and name in ("cumsum", "cumprod", "suffix cumsum (flipped)"):
        # onegrad's float32 scans round once per step; torch's accumulate in double
        scale = 1e-4 * max(1.0, float(np.abs(b).max())) if b.size else 0.0
        ok = a.shape == b.shape and np.allclose(a, b, rtol=1e-3, atol=scale)
    else:
        ok = a.shape == b.shape and np.array_equal(a, b)
    if not ok:
        raise SystemExit(f"{name}: values differ: onegrad {a.shape} vs torch {b.shape}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6])
    p.add_argument("--only", nargs="*", default=None, help="run the cases whose name starts with one of these")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, torch {torch.__version__} on {torch.get_num_threads()} threads, "
          f"medians of {args.repeat}")
    print(f"| op | n | onegrad | torch | onegrad/torch |")
    print(f"|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for name, setup in CASES:
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        for n in args.sizes:
            og_fn, torch_fn = setup(n, rng)
            same(name, og_fn(), torch_fn())
            t_og, t_torch = warm_median_time(og_fn, args.repeat), warm_median_time(torch_fn, args.repeat)
            print(f"| {name} | {n:,} | {t_og * 1e3:.3f} ms | {t_torch * 1e3:.3f} ms | {t_og / t_torch:.2f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
