#!/usr/bin/env python3
"""Two builds of onegrad timed side by side in one run: the reductions of bench/targets.py (row and
column sums and softmax of a 4096x4096 float32), a plain sum of 10^7 float32, the row and column
sums of (4, 10^6) and (10^6, 4), a softmax of (16, 65536), and sgemm 1024 (whose reduce axis the precision rule also cuts).

  /usr/bin/python3 bench/ab_builds.py OLD_BUILD/python NEW_BUILD/python [--rounds 5] [--repeat 7]

Each round runs every workload in a fresh process of the old build, then of the new one (compile
excluded: a warm-up call first); a process reports the median of --repeat calls. The table gives,
per workload, the median over the rounds of each build and their ratio new/old (below 1: faster).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, os, statistics, sys, time
import numpy as np
from onegrad import Tensor
rng = np.random.default_rng(0)
def median_time(fn, repeat):
    fn()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter(); fn(); out.append(time.perf_counter() - t0)
    return statistics.median(out)
name, repeat = sys.argv[1], int(sys.argv[2])
shapes = {"sum 10^7": (10**7,), "row sums 4096x4096": (4096, 4096), "column sums 4096x4096": (4096, 4096),
          "softmax 4096x4096": (4096, 4096), "row sums (4, 10^6)": (4, 10**6), "column sums (10^6, 4)": (10**6, 4),
          "softmax (16, 65536)": (16, 65536), "sgemm 1024": (1024, 1024)}
t = Tensor(rng.standard_normal(shapes[name], dtype=np.float32)).realize()
ops = {"sum 10^7": lambda: t.sum(), "row sums 4096x4096": lambda: t.sum(1), "column sums 4096x4096": lambda: t.sum(0),
       "softmax 4096x4096": lambda: t.softmax(-1), "row sums (4, 10^6)": lambda: t.sum(1),
       "column sums (10^6, 4)": lambda: t.sum(0), "softmax (16, 65536)": lambda: t.softmax(-1), "sgemm 1024": lambda: t @ t}
print(json.dumps(median_time(lambda: ops[name]().realize(), repeat)))
"""

WORKLOADS = ["sum 10^7", "row sums 4096x4096", "column sums 4096x4096", "softmax 4096x4096", "row sums (4, 10^6)",
             "column sums (10^6, 4)", "softmax (16, 65536)", "sgemm 1024"]


def run(pythonpath, name, repeat, cache):
    env = dict(os.environ, PYTHONPATH=pythonpath, ONEGRAD_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, name, str(repeat)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=WORKLOADS)
    a = ap.parse_args()
    caches = {b: tempfile.mkdtemp(prefix=f"onegrad-ab-{b}-") for b in ("old", "new")}
    times = {(w, b): [] for w in a.only for b in ("old", "new")}
    for _ in range(a.rounds):
        for w in a.only:
            for b, path in (("old", a.old), ("new", a.new)):
                times[(w, b)].append(run(path, w, a.repeat, caches[b]))
    print("| workload | old (ms) | new (ms) | new/old |")
    print("|---|---|---|---|")
    for w in a.only:
        o, n = statistics.median(times[(w, "old")]), statistics.median(times[(w, "new")])
        print(f"| {w} | {o * 1e3:.2f} | {n * 1e3:.2f} | {n / o:.2f} |")


if __name__ == "__main__":
    main()
