"""Host time of one MLP training step (forward, cross-entropy, backward, SGD-momentum step) with and
without onegrad.jit, and the jitted step's time per kernel launched (docs/jit.md; target <= 50 us per
kernel on the CPU). The default MLP is tiny (batch 4, 16 -> 32 -> 4), so its kernels take a few
microseconds and a step's time is nearly all host work: the per-kernel figure bounds the replay's
host cost from above. Blocks of plain and jitted steps alternate; medians are reported.

  PYTHONPATH=build/python /usr/bin/python3 bench/jit_overhead.py [--steps 100] [--repeat 5]
      [--batch 4] [--features 16] [--hidden 32]
"""
import argparse
import json
import statistics
import time

import numpy as np

import onegrad
from onegrad import Tensor, nn


def make_step(args, seed):
    onegrad.manual_seed(seed)
    model = nn.Sequential(nn.Linear(args.features, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 4))
    opt = onegrad.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step(x, y):
        opt.zero_grad()
        loss = model(x).cross_entropy(y)
        loss.backward()
        opt.step()
        return loss
    return step


def time_steps(step, batches):
    t = time.perf_counter()
    for x, y in batches:
        step(x, y).numpy()
    return (time.perf_counter() - t) / len(batches)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--features", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=32)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    batches = [(Tensor(rng.standard_normal((args.batch, args.features)).astype(np.float32)),
                Tensor(rng.integers(0, 4, args.batch))) for _ in range(args.steps)]
    plain = make_step(args, 0)
    jitted = onegrad.jit(make_step(args, 0))
    for x, y in batches[:5]:  # compile, warm up, capture
        plain(x, y).numpy()
        jitted(x, y).numpy()
    plain_s, jit_s = [], []
    for _ in range(args.repeat):
        plain_s.append(time_steps(plain, batches))
        jit_s.append(time_steps(jitted, batches))
    p, j = statistics.median(plain_s), statistics.median(jit_s)
    print(json.dumps({"batch": args.batch, "mlp": [args.features, args.hidden, 4], "kernels": jitted.kernels,
                      "plain_us": round(p * 1e6, 1), "jit_us": round(j * 1e6, 1),
                      "jit_us_per_kernel": round(j * 1e6 / jitted.kernels, 2), "plain_over_jit": round(p / j, 2)}))


if __name__ == "__main__":
    main()
