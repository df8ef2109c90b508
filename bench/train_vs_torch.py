#!/usr/bin/env python3
"""Training speed, onegrad side by side with PyTorch (CPU), in one run, with same-run ratios.

  PYTHONPATH=build/python /usr/bin/python3 bench/train_vs_torch.py [--steps 20] [--threads 1]

Two workloads, each trained for the same steps on the same random batches from the same initial
weights (torch's state dict loaded into the same onegrad.nn model):
  cnn: the main job's model (conv 1->8 3x3, relu, maxpool 2, conv 8->16 3x3, relu, maxpool 2,
       linear 784->64, relu, linear 64->10), batch 64, cross-entropy, Adam lr 1e-3;
  mlp: 784-512-512-10 with relu, batch 128, cross-entropy, SGD lr 0.01.
For each: the first step's latency (trace + compile + run, empty compile cache), the steady step
time (median of --steps), images/s, and onegrad/torch ratios. The last loss of both is printed as a
check that the two trained the same thing.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

# A fresh compile cache, so the first step really compiles (set before onegrad is imported).
os.environ.setdefault("ONEGRAD_CACHE_DIR", tempfile.mkdtemp(prefix="onegrad-bench-"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import onegrad  # noqa: E402
from onegrad import Tensor  # noqa: E402


def cnn(nn):
    """The main job's model, in torch.nn or onegrad.nn (the same names)."""
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(16 * 7 * 7, 64), nn.ReLU(), nn.Linear(64, 10))


def mlp(nn):
    return nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))


WORKLOADS = {
    # name: (model in either framework, input shape per image, batch, optimizer)
    "cnn": (cnn, (1, 28, 28), 64, "adam"),
    "mlp": (mlp, (784,), 128, "sgd"),
}


def make_batches(shape, batch, steps, seed):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal((batch, *shape), dtype=np.float32), rng.integers(0, 10, batch).astype(np.int64))
            for _ in range(steps)]


def timed_steps(step, batches):
    """Runs step(x, y) -> loss (a float) on each batch; the time of each step and the last loss."""
    times, loss = [], None
    for x, y in batches:
        t0 = time.perf_counter()
        loss = step(x, y)
        times.append(time.perf_counter() - t0)
    return times, loss


def run_torch(model, batches, opt_name):
    opt = torch.optim.Adam(model.parameters(), 1e-3) if opt_name == "adam" else torch.optim.SGD(
        model.parameters(), 0.01)

    def step(x, y):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(torch.from_numpy(x)), torch.from_numpy(y))
        loss.backward()
        opt.step()
        return loss.item()
    return timed_steps(step, batches)


def run_onegrad(model, batches, opt_name):
    params = model.parameters()
    opt = onegrad.optim.Adam(params, 1e-3) if opt_name == "adam" else onegrad.optim.SGD(params, 0.01)

    def step(x, y):
        opt.zero_grad()
        loss = model(Tensor(x)).cross_entropy(Tensor(y))
        loss.backward()
        opt.step()
        return loss.item()
    return timed_steps(step, batches)


def report(name, batch, og, th):
    og_times, og_loss = og
    th_times, th_loss = th
    og_step, th_step = statistics.median(og_times[1:]), statistics.median(th_times[1:])
    print(f"{name}: batch {batch}, {len(og_times)} steps")
    print(f"  first step   onegrad {og_times[0] * 1e3:9.1f} ms   torch {th_times[0] * 1e3:8.1f} ms")
    print(f"  steady step  onegrad {og_step * 1e3:9.2f} ms   torch {th_step * 1e3:8.2f} ms"
          f"   onegrad/torch x{og_step / th_step:.2f}")
    print(f"  images/s     onegrad {batch / og_step:9.0f}      torch {batch / th_step:8.0f}")
    print(f"  last loss    onegrad {og_loss:9.5f}      torch {th_loss:8.5f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1, help="torch's intra-op threads")
    ap.add_argument("--only", choices=sorted(WORKLOADS), help="one workload")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    print(f"# {time.strftime('%Y-%m-%d')}  torch {torch.__version__} ({args.threads} thread)  cores {os.cpu_count()}")
    for name, (make_model, shape, batch, opt_name) in WORKLOADS.items():
        if args.only and name != args.only:
            continue
        torch.manual_seed(0)
        model = make_model(torch.nn)
        ours = make_model(onegrad.nn)
        ours.load_state_dict({k: v.numpy() for k, v in model.state_dict().items()})
        batches = make_batches(shape, batch, args.steps, seed=1)
        og = run_onegrad(ours, batches, opt_name)
        th = run_torch(model, batches, opt_name)
        report(name, batch, og, th)
    return 0


if __name__ == "__main__":
    sys.exit(main())
