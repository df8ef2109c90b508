#!/usr/bin/env python3
"""The backward of scatter_reduce, timed side by side with PyTorch, both on one thread.

  PYTHONPATH=build/python /usr/bin/python3 bench/scatter_reduce_grad.py [--repeat 7] [--sizes 100000 1000000]
  ... bench/scatter_reduce_grad.py --only amax amin      # these reduces only

Each case scatters n values into n places (about one value per place, duplicates included, few
distinct values: ties and, for prod, zeros), realizes the forward once, then times the gradients of
(out * w).sum() with respect to self and src: onegrad's autograd.grad realized, torch's
autograd.grad with retain_graph. Figures are medians of --repeat calls after one warm-up (onegrad
compiles there), the two taking turns so that both see the same load; the ratio is onegrad's
time / torch's. Both gradients are checked against torch's first.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))
os.environ.setdefault("CPU_THREADS", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402

import onegrad  # noqa: E402
from onegrad import Tensor  # noqa: E402

CASES = [(r, s) for r in ("sum", "mean", "prod", "amax", "amin") for s in (True, False)]


def setup(reduce, include_self, n, rng):
    x = rng.integers(-8, 9, n).astype(np.float32)
    v = rng.integers(-8, 9, n).astype(np.float32)
    if reduce == "prod":  # finite products: values near 1, a few zeros
        x, v = 1 + x / 256, 1 + v / 256
        v[rng.integers(0, n, n // 1000)] = 0
    i = rng.integers(0, n, n)
    w = rng.standard_normal(n).astype(np.float32)
    ox, ov, ow = Tensor(x, requires_grad=True), Tensor(v, requires_grad=True), Tensor(w)
    out = ox.scatter_reduce(0, Tensor(i), ov, reduce, include_self=include_self).realize()
    tx, tv = torch.tensor(x, requires_grad=True), torch.tensor(v, requires_grad=True)
    tout = tx.scatter_reduce(0, torch.tensor(i), tv, reduce, include_self=include_self)
    tw = torch.tensor(w)

    def og():
        gs = onegrad.autograd.grad(out, [ox, ov], ow)
        Tensor.realize_all(*gs)  # one schedule, as backward() realizes the gradients
        return gs

    def th():
        return torch.autograd.grad(tout, (tx, tv), tw, retain_graph=True)
    return og, th


def alternating_medians(fns, repeat):
    """The median time of each of fns, called in turns."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t0)
    return [statistics.median(ts) for ts in times]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--sizes", type=int, nargs="+", default=[10**5, 10**6])
    p.add_argument("--only", nargs="*", default=None, help="only these reduces (sum, mean, prod, amax, amin)")
    args = p.parse_args()
    torch.set_num_threads(1)
    print(f"load average {os.getloadavg()[0]:.1f}, torch {torch.__version__} on {torch.get_num_threads()} thread, "
          f"onegrad CPU_THREADS={os.environ['CPU_THREADS']}, medians of {args.repeat}")
    print("| backward of | n | onegrad | torch | onegrad/torch |")
    print("|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for reduce, include_self in CASES:
        if args.only and reduce not in args.only:
            continue
        name = f"scatter_reduce {reduce}" + ("" if include_self else ", no self")
        for n in args.sizes:
            og, th = setup(reduce, include_self, n, rng)
            for a, b in zip(og(), th()):  # warm-up and check
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
            t_og, t_th = alternating_medians([og, th], args.repeat)
            print(f"| {name} | {n:,} | {t_og * 1e3:.3f} ms | {t_th * 1e3:.3f} ms | {t_og / t_th:.2f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
