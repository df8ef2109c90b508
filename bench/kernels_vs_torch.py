#!/usr/bin/env python3
"""onegrad's generated CPU kernels side by side with numpy (OpenBLAS) and PyTorch, in one run.

  PYTHONPATH=build/python /usr/bin/python3 bench/kernels_vs_torch.py [--repeat 5] [--steps 5]
  NOOPT=1 PYTHONPATH=build/python /usr/bin/python3 bench/kernels_vs_torch.py   # without the opts

Figures: sgemm float32 1024x1024 @ 1024x1024 and 2048 (GFLOP/s); the memory-bound kernels
against the copy bandwidth measured in the same run (numpy copyto and torch copy_ of 64 MiB, the
faster): the elementwise chain (a*b+c).relu()*d on 16M float32 (5 arrays moved), row and column
sums of 4096x4096 (the input read), softmax(4096x4096) against torch; conv2d batch 8, 64->64 channels,
56x56, 3x3, padding 1; and one training step of a small CNN on Fashion-MNIST-shaped data (batch 64,
1x28x28: conv 1->8 3x3 pad 1, relu, max-pool 2, conv 8->16 3x3 pad 1, relu, max-pool 2, linear
784->64, relu, linear 64->10, cross-entropy; forward + backward + Adam). Medians of --repeat runs
after one warm-up (compile excluded); torch runs with --torch-threads threads (default: the cores,
as onegrad's kernels use CPU_THREADS = the cores); ratios are onegrad time / other time (below 1:
onegrad is faster).
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))

import numpy as np  # noqa: E402

try:
    import torch  # noqa: E402
except ImportError:
    torch = None

import onegrad.nn.functional as F  # noqa: E402
from onegrad import Tensor, optim  # noqa: E402
from tensor_vs_numpy_torch import median_time  # noqa: E402  (bench/ is on sys.path when run as a script)


def report(label, flops, timings):
    print(f"\n{label}")
    base = timings.get("onegrad")
    for name, t in timings.items():
        rate = f"{flops / t / 1e9:8.2f} GFLOP/s" if flops else ""
        ratio = f"   onegrad/{name} {base / t:6.2f}" if name != "onegrad" and base else ""
        print(f"  {name:<8} {t * 1e3:10.2f} ms {rate}{ratio}")


def first_call(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def sgemm(rng, r, n=1024):
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    ta, tb = Tensor(a).realize(), Tensor(b).realize()
    og = lambda: (ta @ tb).realize()
    compile_s = first_call(og)
    got = (ta @ tb).numpy()
    err = np.abs(got - a @ b).max()
    t = {"onegrad": median_time(og, r), "numpy": median_time(lambda: a @ b, r)}
    if torch is not None:
        pa, pb = torch.from_numpy(a), torch.from_numpy(b)
        t["torch"] = median_time(lambda: pa @ pb, r)
    report(f"sgemm float32 {n}x{n} @ {n}x{n} (first call {compile_s * 1e3:.0f} ms; max |onegrad - numpy| {err:.2e})",
           2 * n ** 3, t)


def conv(rng, r):
    a = rng.standard_normal((8, 64, 56, 56), dtype=np.float32)
    w = rng.standard_normal((64, 64, 3, 3), dtype=np.float32) * 0.05
    ta, tw = Tensor(a).realize(), Tensor(w).realize()
    og = lambda: F.conv2d(ta, tw, padding=1).realize()
    compile_s = first_call(og)
    t = {"onegrad": median_time(og, r)}
    if torch is not None:
        pa, pw = torch.from_numpy(a), torch.from_numpy(w)
        t["torch"] = median_time(lambda: torch.nn.functional.conv2d(pa, pw, padding=1), r)
        err = np.abs(F.conv2d(ta, tw, padding=1).numpy() - torch.nn.functional.conv2d(pa, pw, padding=1).numpy()).max()
    else:
        err = float("nan")
    report(f"conv2d batch 8, 64->64, 56x56, 3x3, padding 1 (first call {compile_s * 1e3:.0f} ms; max |onegrad - torch| {err:.2e})",
           2 * 8 * 64 * 56 * 56 * 64 * 9, t)


def copy_bandwidth(r, n=16 * 1024 * 1024):
    """GB/s of a 64 MiB copy (read + write): numpy's and torch's, the faster."""
    src = np.ones(n, dtype=np.float32)
    dst = np.empty_like(src)
    best = 2 * src.nbytes / median_time(lambda: np.copyto(dst, src), r) / 1e9
    if torch is not None:
        ps, pd = torch.from_numpy(src), torch.from_numpy(dst)
        best = max(best, 2 * src.nbytes / median_time(lambda: pd.copy_(ps), r) / 1e9)
    return best


def bandwidth_row(label, nbytes, t, copy_gbs):
    print(f"  {label:<8} {t * 1e3:10.2f} ms {nbytes / t / 1e9:8.2f} GB/s   {nbytes / t / 1e9 / copy_gbs:5.2f}x copy bandwidth")


def memory_bound(rng, r):
    copy_gbs = copy_bandwidth(r)
    print(f"\ncopy bandwidth (64 MiB, read + write): {copy_gbs:.2f} GB/s")
    n = 16 * 1024 * 1024
    a, b, c, d = (rng.standard_normal(n, dtype=np.float32) for _ in range(4))
    ta, tb, tc, td = (Tensor(x).realize() for x in (a, b, c, d))
    og = lambda: ((ta * tb + tc).relu() * td).realize()
    og()
    print(f"\nelementwise (a*b+c).relu()*d, n={n} float32 (4 reads + 1 write)")
    bandwidth_row("onegrad", 5 * a.nbytes, median_time(og, r), copy_gbs)
    if torch is not None:
        pa, pb, pc, pd = (torch.from_numpy(x) for x in (a, b, c, d))
        bandwidth_row("torch", 5 * a.nbytes, median_time(lambda: ((pa * pb + pc).relu() * pd), r), copy_gbs)
    m = rng.standard_normal((4096, 4096), dtype=np.float32)
    tm = Tensor(m).realize()
    for axis, label in ((1, "row sums"), (0, "column sums")):
        og = lambda: tm.sum(axis).realize()
        og()
        print(f"\n{label} of 4096x4096 float32 (input read)")
        bandwidth_row("onegrad", m.nbytes, median_time(og, r), copy_gbs)
        bandwidth_row("numpy", m.nbytes, median_time(lambda: m.sum(axis), r), copy_gbs)
        if torch is not None:
            pm = torch.from_numpy(m)
            bandwidth_row("torch", m.nbytes, median_time(lambda: pm.sum(axis), r), copy_gbs)
    og = lambda: tm.softmax(-1).realize()
    og()
    t = {"onegrad": median_time(og, r)}
    if torch is not None:
        pm = torch.from_numpy(m)
        t["torch"] = median_time(lambda: torch.softmax(pm, -1), r)
        err = np.abs(tm.softmax(-1).numpy() - torch.softmax(pm, -1).numpy()).max()
    else:
        err = float("nan")
    report(f"softmax(4096x4096, -1) float32 (max |onegrad - torch| {err:.2e})", None, t)


def cnn_params(rng):
    def init(*shape, fan_in):
        return (rng.standard_normal(shape, dtype=np.float32) / np.sqrt(fan_in)).astype(np.float32)
    return [init(8, 1, 3, 3, fan_in=9), np.zeros(8, np.float32), init(16, 8, 3, 3, fan_in=72), np.zeros(16, np.float32),
            init(784, 64, fan_in=784), np.zeros(64, np.float32), init(64, 10, fan_in=64), np.zeros(10, np.float32)]


def cnn_step(F, params, opt, x, y):
    """One step of the model with `F` onegrad's or torch's functional module (same signatures)."""
    c1w, c1b, c2w, c2b, w1, b1, w2, b2 = params
    h = F.max_pool2d(F.conv2d(x, c1w, c1b, padding=1).relu(), 2)
    h = F.max_pool2d(F.conv2d(h, c2w, c2b, padding=1).relu(), 2)
    h = (h.reshape(x.shape[0], 784) @ w1 + b1).relu()
    loss = F.cross_entropy(h @ w2 + b2, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def timed_steps(step, steps):
    """The first step's time (compiles, for onegrad) and the median of the next `steps`; the last loss."""
    first = first_call(lambda: step(0))
    times, loss = [], None
    for i in range(1, steps + 1):
        t0 = time.perf_counter()
        loss = step(i)
        times.append(time.perf_counter() - t0)
    return first, statistics.median(times), loss


def cnn(rng, steps):
    batch = 64
    xs = [rng.random((batch, 1, 28, 28), dtype=np.float32) for _ in range(steps + 1)]
    ys = [rng.integers(0, 10, batch).astype(np.int64) for _ in range(steps + 1)]
    init = cnn_params(rng)
    og_params = [Tensor(p.copy(), requires_grad=True) for p in init]
    og_opt = optim.Adam(og_params, lr=1e-3)
    og_x, og_y = [Tensor(x).realize() for x in xs], [Tensor(y).realize() for y in ys]
    first, t_og, loss_og = timed_steps(lambda i: cnn_step(F, og_params, og_opt, og_x[i], og_y[i]), steps)
    t = {"onegrad": t_og}
    line = ""
    if torch is not None:
        pt_params = [torch.tensor(p.copy(), requires_grad=True) for p in init]
        pt_opt = torch.optim.Adam(pt_params, lr=1e-3)
        _, t["torch"], loss_pt = timed_steps(
            lambda i: cnn_step(torch.nn.functional, pt_params, pt_opt, torch.from_numpy(xs[i]), torch.from_numpy(ys[i])), steps)
        line = f"; last loss onegrad {loss_og:.5f} torch {loss_pt:.5f}"
    report(f"CNN training step, batch {batch} (forward + backward + Adam; first step {first * 1e3:.0f} ms{line})", None, t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--only", choices=["sgemm", "memory", "conv", "cnn"])
    ap.add_argument("--torch-threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    if torch is not None:
        torch.set_num_threads(args.torch_threads)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}  numpy {np.__version__}  torch {torch.__version__ if torch else 'absent'}"
          f"  cores {os.cpu_count()}  torch threads {args.torch_threads}  NOOPT={os.environ.get('NOOPT', '0')}"
          f"  CPU_THREADS={os.environ.get('CPU_THREADS', '(cores)')}")
    if args.only in (None, "sgemm"):
        sgemm(rng, args.repeat)
        sgemm(rng, args.repeat, 2048)
    if args.only in (None, "memory"):
        memory_bound(rng, args.repeat)
    if args.only in (None, "conv"):
        conv(rng, args.repeat)
    if args.only in (None, "cnn"):
        cnn(rng, args.steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
