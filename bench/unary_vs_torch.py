#!/usr/bin/env python3
"""sigmoid, tanh, exp, softmax, sin, cos and tan of 1M float32 values: onegrad's CPU backend against torch (CPU).

  PYTHONPATH=build/python /usr/bin/python3 bench/unary_vs_torch.py [--repeat 15] [--threads 2]

Both sides use --threads threads (onegrad's CPU_THREADS, torch.set_num_threads). Per op: the median
of --repeat warm calls (onegrad: a realize() of the op on a realized input; torch: the op), the
ratio onegrad/torch (> 1: onegrad is slower), and onegrad's largest relative error against torch
in float64 on the same input (standard normal times 4, so exp and softmax see e^±20).
"""
import argparse
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=15)
parser.add_argument("--threads", type=int, default=2)
args = parser.parse_args()
os.environ["CPU_THREADS"] = str(args.threads)  # read when onegrad starts

import numpy as np  # noqa: E402
import torch  # noqa: E402

from onegrad import Tensor  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tensor_vs_numpy_torch import median_time  # noqa: E402

OPS = {
    "sigmoid": (lambda t: t.sigmoid(), torch.sigmoid),
    "tanh": (lambda t: t.tanh(), torch.tanh),
    "exp": (lambda t: t.exp(), torch.exp),
    "softmax(-1), 1024×1024": (lambda t: t.softmax(-1), lambda t: torch.softmax(t, -1)),
    "sin": (lambda t: t.sin(), torch.sin),
    "cos": (lambda t: t.cos(), torch.cos),
    "tan": (lambda t: t.tan(), torch.tan),
}


def main():
    torch.set_num_threads(args.threads)
    x = (np.random.default_rng(0).standard_normal((1024, 1024)) * 4).astype(np.float32)
    tx, t32, t64 = Tensor(x).realize(), torch.from_numpy(x), torch.from_numpy(x.astype(np.float64))
    print(f"threads {args.threads}, median of {args.repeat}, 1024×1024 float32\n")
    print("| op | onegrad | torch | onegrad/torch | max rel. error vs float64 |")
    print("|---|---|---|---|---|")
    for name, (ours, theirs) in OPS.items():
        got = ours(tx).numpy()
        want = theirs(t64).numpy()
        rel = np.max(np.abs(got - want) / np.maximum(np.abs(want), np.finfo(np.float32).tiny))
        a = median_time(lambda: ours(tx).realize(), args.repeat)
        b = median_time(lambda: theirs(t32), args.repeat)
        print(f"| {name} | {a * 1e3:.2f} ms | {b * 1e3:.2f} ms | {a / b:.2f} | {rel:.2e} |")


if __name__ == "__main__":
    main()
