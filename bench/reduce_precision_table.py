#!/usr/bin/env python3
"""Errors of float32 reductions in ulps of the result, against the float64 result of the same data,
for onegrad (the build on PYTHONPATH) and torch 1.13: the table of BENCHMARKS.md "Partial sums".

  PYTHONPATH=build/python /usr/bin/python3 bench/reduce_precision_table.py [--seed 1]

Prints op|shape|data|onegrad ulps|torch ulps per line (largest error over the outputs); the data are
tests/python/test_reduce_precision.py's."""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "python"))
from test_reduce_precision import OPS, data  # noqa: E402

from onegrad import Tensor  # noqa: E402

ROWS = [("sum", (10**6,)), ("sum", (10**7,)), ("sum(1)", (4, 10**6)), ("sum(0)", (10**6, 4)), ("softmax", (10**6,)),
        ("var", (10**6,))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    rng = np.random.default_rng(ap.parse_args().seed)
    for op, shape in ROWS:
        for kind in ("const", "uniform", "normal", "mixed") if op != "var" else ("offset", "normal"):
            x = data(kind, shape, rng)
            ref = OPS[op](torch.from_numpy(x).double()).numpy()
            ulp = float(np.spacing(np.float32(np.abs(ref).max())))
            ours = float(np.abs(np.asarray(OPS[op](Tensor(x)).numpy(), np.float64) - ref).max()) / ulp
            theirs = float(np.abs(OPS[op](torch.from_numpy(x)).double().numpy() - ref).max()) / ulp
            print(f"{op}|{'x'.join(map(str, shape))}|{kind}|{ours:.2f}|{theirs:.2f}", flush=True)


if __name__ == "__main__":
    main()
