#!/usr/bin/env python3
"""The spread of float32 sum errors, onegrad's and torch's, over random draws of one data kind.

  PYTHONPATH=build/python /usr/bin/python3 bench/sum_error_spread.py --n 1000000 --kind normal --draws 300

Errors are measured against the float64 sum of the same float32 data, in units of
2^-24 x sqrt(sum x^2): the scale of the partial sums of random-sign terms, on which any summation
order's rounding errors lie. tests/python/test_reduce_precision.py derives its allowance for
cancelling sums (WALK_EPS) from these figures. Data kinds are the test's (const, uniform, normal,
mixed, offset)."""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
from test_reduce_precision import data  # noqa: E402

from onegrad import Tensor  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=10**6)
    p.add_argument("--kind", default="normal")
    p.add_argument("--draws", type=int, default=100)
    p.add_argument("--seed", type=int, default=1000)
    args = p.parse_args()
    unit = 2.0**-24
    ours, theirs = [], []
    for s in range(args.draws):
        x = data(args.kind, (args.n,), np.random.default_rng(args.seed + s))
        ref = float(x.astype(np.float64).sum())
        walk = float(np.sqrt(np.square(x.astype(np.float64)).sum()))
        ours.append(abs(float(Tensor(x).sum().numpy()) - ref) / (unit * walk))
        theirs.append(abs(float(torch.from_numpy(x).sum()) - ref) / (unit * walk))
    print(f"{args.kind}, n = {args.n}: error / (2^-24 sqrt(sum x^2)) over {args.draws} draws")
    for name, e in (("onegrad", np.array(ours)), ("torch", np.array(theirs))):
        print(f"  {name:8s} median {np.median(e):.2f}  rms {np.sqrt(np.mean(e**2)):.2f}  "
              f"p90 {np.percentile(e, 90):.2f}  max {e.max():.2f}")


if __name__ == "__main__":
    main()
