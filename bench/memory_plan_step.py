#!/usr/bin/env python3
"""Peak memory of a CNN training step with the memory plan off (MEMPLAN=0) and on (MEMPLAN=1), in
one run (docs/memory_plan.md).

  PYTHONPATH=build/python /usr/bin/python3 bench/memory_plan_step.py [--steps 5] [--batch 64]

Two copies of one model (bench/train_vs_torch.py's cnn: conv 1->8 3x3, relu, maxpool 2, conv 8->16
3x3, relu, maxpool 2, linear 784->64, relu, linear 64->10; cross-entropy, Adam lr 1e-3) start from the
same weights and train on the same random batches, one with the plan off and one with it on, their
steps interleaved. For each step: the allocator's peak above what it held before the step (the
step's own memory: activations, gradients, new parameters and optimizer state) and the absolute
peak, as medians over the steps after the first (which compiles), with the same-run ratio. The losses
of the two copies must agree bit for bit: the plan changes where buffers live, never what a kernel
computes.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import onegrad
from onegrad import Tensor, nn


def cnn():
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 10))


def measured_step(model, opt, x, y, memplan):
    """One training step under MEMPLAN=memplan: (loss, step peak above the start, absolute peak, seconds)."""
    os.environ["MEMPLAN"] = str(memplan)
    onegrad.reset_peak_memory()
    base = onegrad.device_memory_stats()["current_bytes"]
    t0 = time.perf_counter()
    opt.zero_grad()
    loss = model(Tensor(x)).cross_entropy(Tensor(y))
    loss.backward()
    opt.step()
    value = loss.item()
    sec = time.perf_counter() - t0
    peak = onegrad.device_memory_stats()["peak_bytes"]
    return value, peak - base, peak, sec


def mib(n):
    return f"{n / 2**20:8.2f} MiB"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=64)
    args = ap.parse_args()
    np.random.seed(0)
    models = {m: cnn() for m in (0, 1)}
    models[1].load_state_dict(models[0].state_dict())
    opts = {m: onegrad.optim.Adam(models[m].parameters(), 1e-3) for m in (0, 1)}
    rng = np.random.default_rng(1)
    rows = {0: [], 1: []}
    for step in range(args.steps):
        x = rng.standard_normal((args.batch, 1, 28, 28), dtype=np.float32)
        y = rng.integers(0, 10, args.batch).astype(np.int64)
        losses = {}
        for m in (0, 1):
            loss, step_peak, peak, sec = measured_step(models[m], opts[m], x, y, m)
            losses[m] = loss
            rows[m].append((step_peak, peak, sec))
        if np.float32(losses[0]).tobytes() != np.float32(losses[1]).tobytes():
            print(f"step {step}: losses differ: MEMPLAN=0 {losses[0]!r}, MEMPLAN=1 {losses[1]!r}")
            return 1
    print(f"# {time.strftime('%Y-%m-%d')}  cnn training step, batch {args.batch}, Adam, {args.steps} steps"
          f" (medians of steps 2..{args.steps}), cores {os.cpu_count()}")
    med = {m: [statistics.median(r[i] for r in rows[m][1:]) for i in range(3)] for m in (0, 1)}
    for m in (0, 1):
        print(f"  MEMPLAN={m}: step peak {mib(med[m][0])}   absolute peak {mib(med[m][1])}"
              f"   step {med[m][2] * 1e3:8.1f} ms")
    print(f"  plan on / off: step peak x{med[1][0] / med[0][0]:.3f}   absolute peak x{med[1][1] / med[0][1]:.3f}"
          f"   time x{med[1][2] / med[0][2]:.3f}")
    print(f"  losses identical with the plan on and off ({args.steps} steps, last {losses[1]:.6f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
