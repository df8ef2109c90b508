"""The three fusions that bert.py realizes around (docs/models.md "Speed"), each fused (as the
scheduler does it) and split by a realize, at MiniLM's sizes (batch 16, 32 tokens, hidden 384,
feed-forward 1536): medians in ms, same run. A ratio near 1 means the realize is no longer needed.

  PYTHONPATH=build/python CPU_THREADS=1 /usr/bin/python3 bench/minilm_fusions.py [--repeat 5]
"""
import argparse
import os
import statistics
import time

import numpy as np

from onegrad import Tensor, nn
from onegrad.nn import functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=5)
args = parser.parse_args()

rng = np.random.default_rng(0)
ln, up, down = nn.LayerNorm(384), nn.Linear(384, 1536), nn.Linear(1536, 384)
x = Tensor(rng.random((16, 32, 384), dtype=np.float32))
h = Tensor(rng.random((16, 32, 1536), dtype=np.float32))
CASES = {
    "LayerNorm -> matmul": (lambda: up(ln(x)), lambda: up(ln(x).realize())),
    "matmul -> GELU": (lambda: F.gelu(up(x)), lambda: F.gelu(up(x).realize())),
    "GELU -> matmul": (lambda: down(F.gelu(h)), lambda: down(F.gelu(h).realize())),
}


def median_ms(fn):
    for _ in range(2):
        fn().realize()
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        fn().realize()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


print(f"load average {os.getloadavg()[0]:.1f}, CPU_THREADS={os.environ.get('CPU_THREADS', 'all')}, "
      f"median of {args.repeat}")
print(f"{'case':<22} {'fused ms':>9} {'split ms':>9} {'fused/split':>12}")
for name, (fused, split) in CASES.items():
    a, b = median_ms(fused), median_ms(split)
    print(f"{name:<22} {a:>9.1f} {b:>9.1f} {a / b:>12.2f}")
