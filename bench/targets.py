#!/usr/bin/env python3
"""The CPU performance targets, measured side by side in one run, as a Markdown table.

  PYTHONPATH=build/python /usr/bin/python3 bench/targets.py [--repeat 7] [--threads N]

Rows: sgemm float32 N=1024 and 2048 against numpy (its BLAS: OpenBLAS once scripts/setup.sh
installed libopenblas0-pthread); the fused elementwise chain ((a*b+c).relu()*d).sum() and the row
and column sums of a 4096x4096 float32 against the copy bandwidth measured in the same run (bytes
read per second / numpy copyto's bytes read+written per second); softmax over the last axis of a
4096x4096 float32 and conv2d (batch 8, 64->64 channels, 56x56, 3x3, padding 1) against PyTorch.
Every figure is the median of --repeat calls after a warm-up call (compilation excluded). The
baselines run with --threads threads (default: all cores, as onegrad's CPU thread pool does).
BEAM's own target (BEAM=2 on matmul 1024 in under 60 s) is bench/beam_matmul.py.
"""
import argparse
import os
import sys
import tempfile
import time

os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-targets-"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import onegrad.nn.functional as F  # noqa: E402
from onegrad import Tensor  # noqa: E402
from tensor_vs_numpy_torch import median_time  # noqa: E402  (bench/ is on sys.path when run as a script)


class Table:
    def __init__(self):
        self.rows = []

    def add(self, figure, onegrad, baseline, ratio, target, met):
        self.rows.append((figure, onegrad, baseline, f"{ratio:.2f}", target, "yes" if met else "**no**"))

    def print(self):
        head = ("figure", "onegrad", "baseline", "ratio", "target", "met")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in self.rows:
            print("| " + " | ".join(r) + " |")


def sgemm(table, rng, r, n):
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    ta, tb = Tensor(a).realize(), Tensor(b).realize()
    og = lambda: (ta @ tb).realize()
    og()
    err = np.abs((ta @ tb).numpy() - a @ b).max()
    if err > 1e-2 * n ** 0.5:
        sys.exit(f"sgemm {n}: onegrad's result is off by {err}")
    t_og, t_np = median_time(og, r), median_time(lambda: a @ b, r)
    gf = lambda t: 2 * n ** 3 / t / 1e9
    table.add(f"sgemm f32 {n}, default opts", f"{gf(t_og):.1f} GFLOP/s", f"numpy {gf(t_np):.1f} GFLOP/s",
              t_np / t_og, "≥ 0.5× numpy's speed", t_np / t_og >= 0.5)


def bandwidth(table, rng, r):
    src = np.ones(16 * 1024 * 1024, dtype=np.float32)
    dst = np.empty_like(src)
    copy_gbs = 2 * src.nbytes / median_time(lambda: np.copyto(dst, src), r) / 1e9
    n = 16 * 1024 * 1024
    arrays = [rng.standard_normal(n, dtype=np.float32) for _ in range(4)]
    ta, tb, tc, td = (Tensor(x).realize() for x in arrays)
    chain = lambda: ((ta * tb + tc).relu() * td).sum().realize()
    chain()
    gbs = 4 * arrays[0].nbytes / median_time(chain, r) / 1e9
    table.add("fused chain ((a*b+c).relu()*d).sum(), 16M f32", f"{gbs:.1f} GB/s read", f"copy {copy_gbs:.1f} GB/s",
              gbs / copy_gbs, "≥ 0.7× copy bandwidth", gbs / copy_gbs >= 0.7)
    m = rng.standard_normal((4096, 4096), dtype=np.float32)
    tm = Tensor(m).realize()
    for axis, label in ((1, "row sums"), (0, "column sums")):
        f = lambda: tm.sum(axis).realize()
        f()
        gbs = m.nbytes / median_time(f, r) / 1e9
        table.add(f"{label} of 4096×4096 f32", f"{gbs:.1f} GB/s read", f"copy {copy_gbs:.1f} GB/s", gbs / copy_gbs,
                  "≥ 0.7× copy bandwidth", gbs / copy_gbs >= 0.7)


def versus_torch(table, label, og, pt, r, target, want):
    og()
    pt()
    t_og, t_pt = median_time(og, r), median_time(pt, r)
    ratio = t_pt / t_og  # onegrad's speed as a multiple of torch's
    table.add(label, f"{t_og * 1e3:.1f} ms", f"torch {t_pt * 1e3:.1f} ms", ratio, target, ratio >= want)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}  cores {os.cpu_count()}  baseline threads {args.threads}  "
          f"numpy {np.__version__}  torch {torch.__version__}  load {os.getloadavg()[0]:.1f}")
    print("# ratio: onegrad's speed / the baseline's (above 1: onegrad is faster)\n")
    table = Table()
    for n in (1024, 2048):
        sgemm(table, rng, args.repeat, n)
    bandwidth(table, rng, args.repeat)
    x = rng.standard_normal((4096, 4096), dtype=np.float32)
    tx, px = Tensor(x).realize(), torch.from_numpy(x)
    versus_torch(table, "softmax(4096×4096 f32, last axis)", lambda: tx.softmax(-1).realize(), lambda: px.softmax(-1),
                 args.repeat, "faster than torch (> 1)", 1.0)
    xi = rng.standard_normal((8, 64, 56, 56), dtype=np.float32)
    w = rng.standard_normal((64, 64, 3, 3), dtype=np.float32) * 0.05
    ti, tw, pi, pw = Tensor(xi).realize(), Tensor(w).realize(), torch.from_numpy(xi), torch.from_numpy(w)
    versus_torch(table, "conv2d b8, 64→64, 56×56, 3×3, pad 1", lambda: F.conv2d(ti, tw, padding=1).realize(),
                 lambda: torch.nn.functional.conv2d(pi, pw, padding=1), args.repeat, "≥ 0.7× torch's speed", 0.7)
    table.print()


if __name__ == "__main__":
    main()
