"""The main job's training step (examples/train_fashion_mnist.py: the CNN, Adam, batch 64) per
device, with and without onegrad.jit: milliseconds per step (3 warm-up calls, then `--steps` timed
steps on random batches, each reading its loss and hit count back), medians over `--repeat`
rounds that alternate CPU and CL (the machine is shared and noisy).

  PYTHONPATH=build/python /usr/bin/python3 bench/main_step_devices.py [--steps 20] [--repeat 3]
"""
import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples"))
import numpy as np  # noqa: E402

import onegrad  # noqa: E402
from onegrad import Device, Tensor  # noqa: E402
from train_fashion_mnist import make_model, make_train_step  # noqa: E402


def run(dev, jitted, steps):
    """Milliseconds per step of the main job's step on `dev`."""
    Device.DEFAULT = dev
    onegrad.manual_seed(0)
    model = make_model()
    opt = onegrad.optim.Adam(model.parameters(), lr=2e-3)
    step = make_train_step(model, opt)
    if jitted:
        step = onegrad.jit(step)
    rng = np.random.default_rng(0)
    batches = [(Tensor(rng.integers(0, 255, (64, 1, 28, 28)).astype(np.uint8)), Tensor(rng.integers(0, 10, 64)))
               for _ in range(steps + 3)]
    for x, y in batches[:3]:
        step(x, y)[0].item()
    t = time.perf_counter()
    for x, y in batches[3:]:
        loss, hits = step(x, y)
        loss.item()
        hits.item()
    return (time.perf_counter() - t) / steps * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    res = {}
    for _ in range(args.repeat):
        for dev in ("CPU", "CL"):
            for jitted in (True, False):
                res.setdefault((dev, jitted), []).append(run(dev, jitted, args.steps))
    for (dev, jitted), v in res.items():
        med = statistics.median(v)
        print(f"{dev:4} {'jit' if jitted else 'plain':5} {med:7.1f} ms/step  {64e3 / med:6.0f} images/s  "
              f"rounds {', '.join(f'{x:.1f}' for x in v)}")


if __name__ == "__main__":
    main()
