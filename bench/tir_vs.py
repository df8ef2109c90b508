#!/usr/bin/env python3
"""TIR programs as TVM prints them, compiled by onegrad, side by side with numpy (OpenBLAS) and torch.

  PYTHONPATH=build/python /usr/bin/python3 bench/tir_vs.py [--repeat 7] [--bench build/bin/tir_vs_bench]

The programs are bench/tir_vs_bench.cpp's (te.create_prim_func style, float32): matmul 256^3 with
a block, T.init and a reduce axis; add + relu on 1024x1024; row sum of 1024x1024; softmax over
rows of 256x1024 (row max, sum of exp, exp / sum as three blocks); conv2d NCHW 1x16x34x34 with
32x16x3x3 (no padding). onegrad runs in three configurations of the same binary in this run:
"before" (ONEGRAD_TIR_NO_SCHEDULE=1: the loop nest as written, what main did), "1 thread"
(CPU_THREADS=1: schedule_blocks' jam and hoisted init, no parallel split) and "threads" (the
default: the cores). The same computations written as onegrad Tensor programs ("tensor": matmul,
x + y then relu, sum over axis 1, softmax over the last axis, conv2d; each call builds the graph and
realizes it, as a Tensor program does; kernels compiled before timing), numpy (its BLAS's threads)
and torch (--torch-threads, default the cores) compute the same results, into preallocated outputs
where they can; times are medians of --repeat runs (Google Benchmark's medians for the TIR
programs, wall time), ratios are onegrad TIR (threads) time / other time (below 1: TIR is faster).
--only picks programs; --rounds N measures everything N times in turn (on a loaded machine the load
drifts between the first and the last measurement of one round): times are then the medians over
the rounds and each ratio the median of the rounds' own ratios.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

try:
    import torch
except ImportError:
    torch = None

NAMES = ["matmul", "add_relu", "row_sum", "softmax", "conv2d"]


def onegrad_medians(bench, repeat, env, names):
    out = subprocess.run([bench, f"--benchmark_repetitions={repeat}", "--benchmark_report_aggregates_only=true",
                          "--benchmark_format=json", "--benchmark_filter=/(" + "|".join(names) + ")$"],
                         env={**os.environ, **env}, check=True, capture_output=True, text=True)
    times = {}
    for b in json.loads(out.stdout)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
            times[b["run_name"].split("/")[-1]] = b["real_time"] * scale
    return times


def median_time(fn, repeat):
    fn()  # warm-up
    samples = []
    for _ in range(repeat):
        n, start = 0, time.perf_counter()
        while True:  # at least 20 ms per sample
            fn()
            n += 1
            if time.perf_counter() - start > 0.02:
                break
        samples.append((time.perf_counter() - start) / n)
    return statistics.median(samples)


def numpy_programs(rng):
    a, b = rng.standard_normal((256, 256), np.float32), rng.standard_normal((256, 256), np.float32)
    x, y = rng.standard_normal((1024, 1024), np.float32), rng.standard_normal((1024, 1024), np.float32)
    s = rng.standard_normal((256, 1024), np.float32)
    img, w = rng.standard_normal((1, 16, 34, 34), np.float32), rng.standard_normal((32, 16, 3, 3), np.float32)

    def softmax():
        e = np.exp(s - s.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def conv2d():  # im2col by a strided view, then one tensordot (BLAS)
        win = np.lib.stride_tricks.sliding_window_view(img, (3, 3), axis=(2, 3))  # 1,16,32,32,3,3
        return np.tensordot(w, win, axes=([1, 2, 3], [1, 4, 5])).transpose(1, 0, 2, 3)

    mm_out, ew_out, rs_out = np.empty((256, 256), np.float32), np.empty((1024, 1024), np.float32), np.empty(1024, np.float32)

    def add_relu():  # into a preallocated output, as the compiled kernel writes its parameter
        np.add(x, y, out=ew_out)
        return np.maximum(ew_out, 0, out=ew_out)

    progs = {"matmul": lambda: np.matmul(a, b, out=mm_out), "add_relu": add_relu, "row_sum": lambda: x.sum(axis=1, out=rs_out),
             "softmax": softmax, "conv2d": conv2d}
    tensors = {"matmul": (a, b), "add_relu": (x, y), "row_sum": (x,), "softmax": (s,), "conv2d": (img, w)}
    return progs, tensors


def tensor_programs(tensors):
    """The same computations as onegrad Tensor programs (None without the onegrad module)."""
    try:
        import onegrad
    except ImportError:
        return None
    t = {k: [onegrad.Tensor(v) for v in vs] for k, vs in tensors.items()}
    return {"matmul": lambda: (t["matmul"][0] @ t["matmul"][1]).realize(),
            "add_relu": lambda: (t["add_relu"][0] + t["add_relu"][1]).relu().realize(),
            "row_sum": lambda: t["row_sum"][0].sum(axis=1).realize(),
            "softmax": lambda: t["softmax"][0].softmax(-1).realize(),
            "conv2d": lambda: t["conv2d"][0].conv2d(t["conv2d"][1]).realize()}


def torch_programs(tensors):
    t = {k: [torch.from_numpy(v) for v in vs] for k, vs in tensors.items()}
    mm_out, ew_out, rs_out = torch.empty(256, 256), torch.empty(1024, 1024), torch.empty(1024)
    return {"matmul": lambda: torch.matmul(t["matmul"][0], t["matmul"][1], out=mm_out),
            "add_relu": lambda: torch.add(t["add_relu"][0], t["add_relu"][1], out=ew_out).relu_(),
            "row_sum": lambda: torch.sum(t["row_sum"][0], dim=1, out=rs_out),
            "softmax": lambda: torch.softmax(t["softmax"][0], dim=1),
            "conv2d": lambda: torch.nn.functional.conv2d(t["conv2d"][0], t["conv2d"][1])}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--bench", default="build/bin/tir_vs_bench")
    p.add_argument("--torch-threads", type=int, default=os.cpu_count(), help="default: the cores, as onegrad's CPU_THREADS")
    p.add_argument("--only", nargs="+", choices=NAMES, default=NAMES, help="the programs to run (default: all)")
    p.add_argument("--rounds", type=int, default=1)
    args = p.parse_args()
    names = [k for k in NAMES if k in args.only]
    if torch is not None:
        torch.set_num_threads(args.torch_threads)
    cache = {"ONEGRAD_CACHE_DIR": tempfile.mkdtemp(prefix="onegrad-tir-vs-")}
    progs, tensors = numpy_programs(np.random.default_rng(0))
    tensor = tensor_programs(tensors)
    th = torch_programs(tensors) if torch is not None else None
    cols = ["before", "1 thread", "threads", "tensor", "numpy", "torch"]
    rounds = []  # per round: column -> program -> seconds
    for _ in range(args.rounds):
        r = {"before": onegrad_medians(args.bench, args.repeat, {**cache, "ONEGRAD_TIR_NO_SCHEDULE": "1"}, names),
             "1 thread": onegrad_medians(args.bench, args.repeat, {**cache, "CPU_THREADS": "1"}, names),
             "threads": onegrad_medians(args.bench, args.repeat, cache, names)}
        r["numpy"] = {k: median_time(progs[k], args.repeat) for k in names}
        r["tensor"] = {k: median_time(tensor[k], args.repeat) for k in names} if tensor else {}
        r["torch"] = {k: median_time(th[k], args.repeat) for k in names} if th else {}
        rounds.append(r)
    nan = float("nan")
    time_of = lambda c, k: statistics.median(r[c].get(k, nan) for r in rounds)
    ratio_of = lambda a, b, k: statistics.median(r[a][k] / r[b].get(k, nan) for r in rounds)
    print(f"cores {os.cpu_count()}, torch threads {torch.get_num_threads() if torch else '-'}, rounds {args.rounds}; medians, ms")
    print(f"{'program':10} " + " ".join(f"{c:>9}" for c in cols) + f" {'x before':>9} {'/tensor':>8} {'/numpy':>7} {'/torch':>7}")
    for k in names:
        print(f"{k:10} " + " ".join(f"{time_of(c, k)*1e3:9.3f}" for c in cols) +
              f" {ratio_of('before', 'threads', k):9.1f} {ratio_of('threads', 'tensor', k):8.2f} "
              f"{ratio_of('threads', 'numpy', k):7.2f} {ratio_of('threads', 'torch', k):7.2f}")


if __name__ == "__main__":
    main()
