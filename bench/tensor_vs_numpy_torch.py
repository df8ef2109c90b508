#!/usr/bin/env python3
"""onegrad side by side with numpy and PyTorch (CPU), in one run, with same-run ratios.

  PYTHONPATH=build/python /usr/bin/python3 bench/tensor_vs_numpy_torch.py [--repeat 7]

Figures: the machine's copy bandwidth (numpy copy of 64 MiB, read + write); the fused chain
((a*b+c).relu()*d).sum() on 16M float32 in GB/s of input read; a row-sum and a column-sum of a
4096x4096 float32; first-call latency (graph to result, compile included, empty compile cache) vs
the second call; with --ops also softmax(4096x4096), conv2d (batch 8, 64->64, 56x56, 3x3, pad 1) and
layer_norm (8192x1024) against PyTorch (and numpy for softmax). Each figure is the median of --repeat runs; ratios are onegrad time / other time
(below 1 means onegrad is faster).
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

# A fresh compile cache, so the first call really compiles (set before onegrad is imported).
os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))

import numpy as np  # noqa: E402

try:
    import torch  # noqa: E402
    torch.set_num_threads(1)  # onegrad's CPU kernels are single-threaded until the optimiser issue
except ImportError:
    torch = None

from onegrad import Tensor  # noqa: E402


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def row(name, seconds, work_bytes=None, baseline=None):
    gbs = f"{work_bytes / seconds / 1e9:8.2f} GB/s" if work_bytes else " " * 13
    ratio = f"  x{seconds / baseline:6.2f} of onegrad's time" if baseline else ""
    print(f"  {name:<10} {seconds * 1e3:10.3f} ms  {gbs}{ratio}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--n", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--ops", action="store_true", help="also the composite op figures (softmax, conv2d, layer_norm)")
    ap.add_argument("--only-ops", action="store_true", help="only the op figures")
    args = ap.parse_args()
    r = args.repeat
    rng = np.random.default_rng(0)
    print(f"# {time.strftime('%Y-%m-%d')}  numpy {np.__version__}  torch {torch.__version__ if torch else 'absent'}"
          f"  cores {os.cpu_count()}  torch threads 1")

    if args.only_ops:
        return op_figures(rng, r)

    # ---- copy bandwidth of the machine, measured here
    src = np.ones(16 * 1024 * 1024, dtype=np.float32)
    dst = np.empty_like(src)
    t = median_time(lambda: np.copyto(dst, src), r)
    copy_gbs = 2 * src.nbytes / t / 1e9
    print(f"copy bandwidth (numpy copyto, 64 MiB, read+write): {copy_gbs:.2f} GB/s")

    # ---- fused chain
    n = args.n
    a, b, c, d = (rng.standard_normal(n, dtype=np.float32) for _ in range(4))
    ta, tb, tc, td = (Tensor(x).realize() for x in (a, b, c, d))
    chain = lambda: ((ta * tb + tc).relu() * td).sum().numpy()
    chain()  # compile and copy in
    t_og = median_time(chain, r)
    t_np = median_time(lambda: (np.maximum(a * b + c, 0) * d).sum(), r)
    print(f"\nfused chain ((a*b+c).relu()*d).sum(), n={n} float32 (bytes read: {4 * a.nbytes / 2**20:.0f} MiB)")
    row("onegrad", t_og, 4 * a.nbytes)
    print(f"  {'':<10} {'':>13}  {4 * a.nbytes / t_og / 1e9 / copy_gbs * 100:5.1f}% of copy bandwidth")
    row("numpy", t_np, 4 * a.nbytes, None)
    if torch is not None:
        pa, pb, pc, pd = (torch.from_numpy(x) for x in (a, b, c, d))
        t_pt = median_time(lambda: ((pa * pb + pc).relu() * pd).sum(), r)
        row("torch", t_pt, 4 * a.nbytes)
        print(f"  ratio onegrad/numpy {t_og / t_np:.2f}  onegrad/torch {t_og / t_pt:.2f}")
    else:
        print(f"  ratio onegrad/numpy {t_og / t_np:.2f}")

    # ---- row and column sums
    m = rng.standard_normal((4096, 4096), dtype=np.float32)
    tm = Tensor(m).realize()
    pm = torch.from_numpy(m) if torch is not None else None
    for axis, label in ((1, "row-sum"), (0, "column-sum")):
        f = lambda: tm.sum(axis).numpy()
        f()
        t_og = median_time(f, r)
        t_np = median_time(lambda: m.sum(axis), r)
        print(f"\n{label} of 4096x4096 float32")
        row("onegrad", t_og, m.nbytes)
        row("numpy", t_np, m.nbytes)
        line = f"  ratio onegrad/numpy {t_og / t_np:.2f}"
        if pm is not None:
            t_pt = median_time(lambda: pm.sum(axis), r)
            row("torch", t_pt, m.nbytes)
            line += f"  onegrad/torch {t_og / t_pt:.2f}"
        print(line)

    # ---- first call (graph to result, compile included) vs second call
    x = rng.standard_normal((256, 256), dtype=np.float32)
    tx = Tensor(x).realize()
    prog = lambda: (((tx * 1.5 + 0.25).relu() @ tx).softmax(-1)).sum(0).numpy()
    t0 = time.perf_counter()
    prog()
    first = time.perf_counter() - t0
    second = median_time(prog, r)
    print(f"\nfirst call vs second call: softmax(relu(x*1.5+0.25) @ x).sum(0), x 256x256")
    print(f"  first  {first * 1e3:10.3f} ms  (schedule, render, compile, run)")
    print(f"  second {second * 1e3:10.3f} ms  (cached: run only)   first/second {first / second:.1f}")
    return op_figures(rng, r) if args.ops else 0


def compare_ops(label, og, np_fn, pt_fn, r):
    """One figure: onegrad (compiled once first), numpy when it has the op, torch; same-run ratios."""
    og()
    t_og = median_time(og, r)
    print(f"\n{label}")
    row("onegrad", t_og)
    line = ""
    if np_fn is not None:
        t_np = median_time(np_fn, r)
        row("numpy", t_np)
        line += f"  ratio onegrad/numpy {t_og / t_np:.2f}"
    if torch is not None:
        t_pt = median_time(pt_fn, r)
        row("torch", t_pt)
        line += f"  onegrad/torch {t_og / t_pt:.2f}"
    print(line)


def op_figures(rng, r):
    import onegrad.nn.functional as F
    tF = torch.nn.functional if torch is not None else None

    x = rng.standard_normal((4096, 4096), dtype=np.float32)
    tx, px = Tensor(x).realize(), (torch.from_numpy(x) if torch else None)

    def np_softmax():
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)
    compare_ops("softmax over the last axis of 4096x4096 float32", lambda: tx.softmax(-1).realize(), np_softmax,
                lambda: px.softmax(-1), r)

    a = rng.standard_normal((8, 64, 56, 56), dtype=np.float32)
    w = rng.standard_normal((64, 64, 3, 3), dtype=np.float32) * 0.05
    ta, tw = Tensor(a).realize(), Tensor(w).realize()
    pa, pw = (torch.from_numpy(a), torch.from_numpy(w)) if torch else (None, None)
    compare_ops("conv2d batch 8, 64->64 channels, 56x56, 3x3, padding 1 (float32)",
                lambda: F.conv2d(ta, tw, padding=1).realize(), None, lambda: tF.conv2d(pa, pw, padding=1), r)

    y = rng.standard_normal((8192, 1024), dtype=np.float32)
    g, b = rng.standard_normal(1024, dtype=np.float32), rng.standard_normal(1024, dtype=np.float32)
    ty, tg, tb = Tensor(y).realize(), Tensor(g).realize(), Tensor(b).realize()
    py, pg, pb = (torch.from_numpy(v) for v in (y, g, b)) if torch else (None, None, None)

    def np_layer_norm():
        mu = y.mean(-1, keepdims=True)
        return (y - mu) / np.sqrt(y.var(-1, keepdims=True) + 1e-5) * g + b
    compare_ops("layer_norm over the last axis of 8192x1024 float32 (weight, bias)",
                lambda: F.layer_norm(ty, (1024,), tg, tb).realize(), np_layer_norm,
                lambda: tF.layer_norm(py, (1024,), pg, pb), r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
