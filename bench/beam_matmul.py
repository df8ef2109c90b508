#!/usr/bin/env python3
"""BEAM search on sgemm float32 N x N @ N x N: how long BEAM=2 takes, and what it buys.

  PYTHONPATH=build/python /usr/bin/python3 bench/beam_matmul.py [--sizes 128 256 512 1024] [--repeat 5]

For each N, in fresh processes sharing one new cache folder: the default opts (hand-coded
heuristics), BEAM=2 (its first call is the search: wall time, compile included), and
BEAM=2 once more (the second run replays the database: no timing); numpy (OpenBLAS) in this
process. Times are medians of --repeat runs after the first call; GFLOP/s = 2 N^3 / time.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from tensor_vs_numpy_torch import median_time  # bench/ is on sys.path when run as a script


def child(n, repeat):
    """Runs in a subprocess under the settings of its environment; prints one JSON line."""
    from onegrad import Tensor

    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    ta, tb = Tensor(a).realize(), Tensor(b).realize()
    run = lambda: (ta @ tb).realize()
    t0 = time.perf_counter()
    run()
    first = time.perf_counter() - t0
    os.environ["DEBUG"] = "0"  # DEBUG=2 was for the search's report; the timed runs print nothing
    err = float(np.abs((ta @ tb).numpy() - a @ b).max())
    print(json.dumps({"first": first, "median": median_time(run, repeat), "err": err}))


def measure(n, repeat, env):
    full = dict(os.environ, **env)
    out = subprocess.run([sys.executable, __file__, "--child", str(n), "--repeat", str(repeat)], env=full, check=True,
                         capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    # DEBUG=2's line per searched or replayed kernel: the opts chosen and the times behind them
    result["beam"] = [line for line in out.stderr.splitlines() if line.startswith("BEAM ") and "r_" in line]
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512, 1024])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--child", type=int)
    args = p.parse_args()
    if args.child:
        return child(args.child, args.repeat)
    cache = tempfile.mkdtemp(prefix="onegrad-beam-bench-")
    rows = [("default", {"BEAM": "0"}), ("BEAM=2", {"BEAM": "2", "DEBUG": "2"}), ("BEAM=2 again", {"BEAM": "2", "DEBUG": "2"})]
    print(f"cache folder {cache}; medians of {args.repeat} runs; GFLOP/s and time / numpy time")
    for n in args.sizes:
        flops = 2 * n ** 3
        a = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
        t_np = median_time(lambda: a @ a, max(args.repeat, 5))
        print(f"\nsgemm {n}: numpy {t_np * 1e3:8.2f} ms {flops / t_np / 1e9:7.1f} GFLOP/s")
        for label, env in rows:
            r = measure(n, args.repeat, dict(env, ONEGRAD_CACHE_DIR=cache))
            print(f"  {label:<13} {r['median'] * 1e3:8.2f} ms {flops / r['median'] / 1e9:7.1f} GFLOP/s"
                  f"  x{r['median'] / t_np:6.2f} numpy   first call {r['first']:7.2f} s   max err {r['err']:.1e}")
            for line in r["beam"]:
                print(f"      {line}")


if __name__ == "__main__":
    main()
