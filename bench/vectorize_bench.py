#!/usr/bin/env python3
"""Native vector types (codegen/vectorize.h): the default kernels with VECTORIZE=1 (vector values,
GCC vector types) and VECTORIZE=0 (Expand's scalar copies, left to GCC's SLP vectorizer), timed
interleaved in one process, with numpy's copy of the same bytes as the bandwidth reference.

  PYTHONPATH=build/python /usr/bin/python3 bench/vectorize_bench.py [--repeat 7] [--only sgemm]

Medians of --repeat runs after one warm-up of each setting (compile excluded); GB/s counts the bytes
a kernel must read and write once.
"""
import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))

import numpy as np  # noqa: E402

from onegrad import Tensor  # noqa: E402


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def compare(label, fn, repeat, flops=0, nbytes=0):
    times = {"1": [], "0": []}
    for setting in times:  # warm-up: compiles each setting's kernels
        os.environ["VECTORIZE"] = setting
        fn()
    for _ in range(repeat):
        for setting in times:
            os.environ["VECTORIZE"] = setting
            times[setting].append(timed(fn))
    os.environ.pop("VECTORIZE")
    med = {s: statistics.median(t) for s, t in times.items()}

    def rate(t):
        if flops:
            return f"{flops / t / 1e9:7.1f} GFLOP/s"
        return f"{nbytes / t / 1e9:7.1f} GB/s" if nbytes else ""
    print(f"{label:<34} vector {med['1'] * 1e3:8.2f} ms {rate(med['1'])}   scalar {med['0'] * 1e3:8.2f} ms {rate(med['0'])}"
          f"   speed-up {med['0'] / med['1']:5.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", choices=["sgemm", "memory"])
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    r = args.repeat
    if args.only in (None, "sgemm"):
        for n in (1024, 2048):
            a, b = (Tensor(rng.standard_normal((n, n), dtype=np.float32)).realize() for _ in range(2))
            compare(f"sgemm {n}", lambda: (a @ b).realize(), max(3, r // 2) if n == 2048 else r, flops=2 * n ** 3)
        n = 1024
        a, b = (Tensor(rng.standard_normal((n, n), dtype=np.float32)).realize() for _ in range(2))
        bias = Tensor(rng.standard_normal((n,), dtype=np.float32)).realize()
        compare(f"linear+relu {n} (a @ b + bias).relu()", lambda: (a @ b + bias).relu().realize(), r, flops=2 * n ** 3)
    if args.only in (None, "memory"):
        n = 4096
        x_np = rng.standard_normal((n, n), dtype=np.float32)
        dst = np.empty_like(x_np)
        t_copy = statistics.median(timed(lambda: np.copyto(dst, x_np)) for _ in range(r))
        print(f"{'numpy copy 4096x4096 f32':<34} {t_copy * 1e3:8.2f} ms {2 * x_np.nbytes / t_copy / 1e9:7.1f} GB/s", flush=True)
        x = Tensor(x_np).realize()
        y = Tensor(rng.standard_normal((n, n), dtype=np.float32)).realize()
        compare("elementwise (x*y + x)*0.5 - y", lambda: ((x * y + x) * 0.5 - y).realize(), r, nbytes=3 * x_np.nbytes)
        compare("row sums x.sum(1)", lambda: x.sum(1).realize(), r, nbytes=x_np.nbytes)
        compare("column sums x.sum(0)", lambda: x.sum(0).realize(), r, nbytes=x_np.nbytes)
        compare("softmax(4096, 4096)", lambda: x.softmax(1).realize(), r, nbytes=2 * x_np.nbytes)


if __name__ == "__main__":
    main()
