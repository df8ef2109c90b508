"""The cost of index checks (docs/engine.md "Index faults"): gather, index_select, embedding and x[idx]
built and realized with the check (CHECK_INDEX=1, the default) and without it (CHECK_INDEX=0), in
the same run, alternating, after a warm-up that compiles every kernel. Each repetition builds the
graph anew, as a program does. Prints the median of each, their ratio, and the ratio of the fastest runs.

Run: PYTHONPATH=build/python /usr/bin/python3 bench/index_check_bench.py [--reps 25]
"""

import argparse
import statistics
import time

import numpy as np

import onegrad
import onegrad.nn.functional as F
from onegrad import Tensor


def cases():
    rng = np.random.default_rng(0)
    table = Tensor(rng.standard_normal((1000, 64)).astype(np.float32))
    tokens = Tensor(rng.integers(0, 1000, (8, 64)).astype(np.int64))
    x = Tensor(rng.standard_normal((256, 256)).astype(np.float32))
    gidx = Tensor(rng.integers(0, 256, (256, 256)).astype(np.int64))
    rows = Tensor(rng.integers(0, 256, (512,)).astype(np.int64))
    small = Tensor(rng.standard_normal((16, 8)).astype(np.float32))
    many = Tensor(rng.integers(0, 16, (256, 256)).astype(np.int64))
    big = Tensor(rng.standard_normal((1000, 1000)).astype(np.float32))
    bidx = Tensor(rng.integers(0, 1000, (1000, 1000)).astype(np.int64))
    tokens_1m = Tensor(rng.integers(0, 1000, (1000, 1000)).astype(np.int64))
    tiny, four = Tensor(np.arange(8, dtype=np.float32)), Tensor(np.array([1, 3, 5, 7]))
    return {
        "embedding (1000x64 table, 8x64 tokens)": lambda: F.embedding(tokens, table),
        "gather (256x256, dim 1, 256x256 index)": lambda: x.gather(1, gidx),
        "index_select (256x256, 512 rows)": lambda: x.index_select(0, rows),
        "x[idx] (256x256, computed 512-index)": lambda: x[rows + 0],
        "embedding (16x8 table, 256x256 tokens)": lambda: F.embedding(many, small),
        "gather (1000x1000, dim 1, 10^6 index)": lambda: big.gather(1, bidx),
        "embedding (1000x64 table, 10^6 tokens)": lambda: F.embedding(tokens_1m, table),
        "gather (8,), 4 indices: the fixed cost": lambda: tiny.gather(0, four),
    }


def timed(fn, check):
    with onegrad.settings.override(CHECK_INDEX=check):
        t0 = time.perf_counter()
        fn().realize()
        return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=41)
    args = ap.parse_args()
    print(f"{'case':42} {'checked ms':>11} {'unchecked ms':>13} {'ratio':>6} {'min ratio':>9}")
    for name, fn in cases().items():
        for check in (1, 0, 1, 0):  # warm-up: compile both schedules
            timed(fn, check)
        on, off = [], []
        for _ in range(args.reps):
            on.append(timed(fn, 1))
            off.append(timed(fn, 0))
        a, b = statistics.median(on) * 1e3, statistics.median(off) * 1e3
        print(f"{name:42} {a:11.2f} {b:13.2f} {a / b:6.2f} {min(on) / min(off):9.2f}")


if __name__ == "__main__":
    main()
