#!/usr/bin/env python3
"""onegrad's foundation side by side with tinygrad's, in one run, on the same machine.

    /usr/bin/python3 bench/vs_tinygrad.py /path/to/tinygrad-checkout [--build build]

Times, for both systems: creating and dropping distinct UOps, and simplifying a convolution's
input index (fresh nodes every time, so no memoized result is reused). onegrad's figures come
from its Google Benchmark programs (median of repetitions); tinygrad's from timing its Python
API here. tinygrad is not a dependency: pass the path of a checkout.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# conv2d, batch 8, 64 -> 64 channels, 56x56, 3x3, pad 1: the index bench/symbolic_bench.cpp builds
N, C, K, H, W, KH, KW, P = 8, 64, 64, 56, 56, 3, 3, 1
HP, WP = H + 2 * P, W + 2 * P


def onegrad_medians(build: Path) -> dict:
  out = {}
  for binary, flt in (("uop_bench", "BM_CreateAndDropDistinctNodes"), ("symbolic_bench", "BM_SimplifyConvIndex$")):
    res = subprocess.run([str(build / "bin" / binary), f"--benchmark_filter={flt}", "--benchmark_repetitions=5",
                          "--benchmark_format=json"], check=True, capture_output=True, text=True)
    for b in json.loads(res.stdout)["benchmarks"]:
      if b.get("aggregate_name") == "median":
        out[b["run_name"]] = b
  return out


def tinygrad_figures(path: Path) -> dict:
  sys.path.insert(0, str(path))
  from tinygrad.uop.ops import UOp  # noqa: E402
  from tinygrad.dtype import dtypes  # noqa: E402
  idx_dtype = getattr(dtypes, "index", None) or dtypes.weakint  # renamed across versions

  n_nodes = 200_000
  rates = []
  for rep in range(5):
    t0 = time.perf_counter()
    keep = [UOp.const(idx_dtype, 2_000_000_000 + rep * n_nodes + i) if hasattr(dtypes, "index")
            else UOp.const(2_000_000_000 + rep * n_nodes + i, idx_dtype) for i in range(n_nodes)]
    del keep
    rates.append(n_nodes / (time.perf_counter() - t0))

  times = []
  for it in range(20):
    base = 1000 + 4 * it
    g, c, ky, kx = UOp.range(N * K * H * W, base), UOp.range(C, base + 1), UOp.range(KH, base + 2), UOp.range(KW, base + 3)
    ox, oy, n = g % W, (g // W) % H, g // (W * H * K)
    flat = ((n * C + c) * HP + (oy + ky)) * WP + (ox + kx)
    py, px, pc, pn = (flat // WP) % HP, flat % WP, (flat // (WP * HP)) % C, flat // (WP * HP * C)
    idx = ((pn * C + pc) * H + (py - P)) * W + (px - P)
    t0 = time.perf_counter()
    idx.simplify()
    times.append(time.perf_counter() - t0)
  return {"create_per_s": statistics.median(rates), "simplify_us": statistics.median(times) * 1e6}


def main() -> None:
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("tinygrad", type=Path, help="path of a tinygrad checkout")
  ap.add_argument("--build", type=Path, default=ROOT / "build")
  args = ap.parse_args()
  og = onegrad_medians(args.build)
  tg = tinygrad_figures(args.tinygrad)
  og_create = og["BM_CreateAndDropDistinctNodes/1048576"]["items_per_second"]
  og_simplify = og["BM_SimplifyConvIndex"]["real_time"]  # microseconds
  print(f"{'':40s} {'onegrad':>12s} {'tinygrad':>12s} {'ratio':>8s}")
  print(f"{'create + drop distinct UOps (M/s)':40s} {og_create / 1e6:12.2f} {tg['create_per_s'] / 1e6:12.2f} "
        f"{og_create / tg['create_per_s']:7.1f}x")
  print(f"{'simplify a conv index, fresh nodes (us)':40s} {og_simplify:12.0f} {tg['simplify_us']:12.0f} "
        f"{tg['simplify_us'] / og_simplify:7.1f}x")


if __name__ == "__main__":
  main()
