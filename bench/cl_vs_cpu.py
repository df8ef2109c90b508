#!/usr/bin/env python3
"""The op suite on the CL device (PoCL: OpenCL on this CPU) against the CPU backend, in one run.

  PYTHONPATH=build/python /usr/bin/python3 bench/cl_vs_cpu.py [--repeat 7] [--only matmul512,sum]

Per figure and device: the first call (lowering, opts, and the driver's build of each kernel; the
cache folder is a fresh one, so nothing comes from disk) and the median of --repeat warm calls,
each a realize() of the result (a CL launch waits for its event, so the time includes the
kernels' run). The CL first-call column minus the warm median is the build time of its kernels. The CL/CPU column is the ratio of the medians (> 1: CL is slower). The results of
both devices are compared: equal bit for bit (the same IEEE ops in the same order), except a sum
reduced through a group's lanes on CL, which adds in another order (the max difference is printed).
Prints a Markdown table; `DEBUG=4` shows the OpenCL source of each kernel, `DEBUG=3` its opts.
"""
import argparse
import os
import sys
import tempfile
import time

# cold: every build counted (onegrad's binary cache and PoCL's own kernel cache both start empty)
os.environ["ONEGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="onegrad-cl-vs-cpu-")
os.environ["POCL_CACHE_DIR"] = tempfile.mkdtemp(prefix="onegrad-cl-vs-cpu-pocl-")

import numpy as np  # noqa: E402

import onegrad.nn.functional as F  # noqa: E402
from onegrad import Device, Tensor  # noqa: E402
from tensor_vs_numpy_torch import median_time  # noqa: E402  (bench/ is on sys.path when run as a script)


def figures(rng):
    """name -> (inputs as numpy arrays, the op on Tensors)."""
    f32 = lambda *shape: rng.standard_normal(shape, dtype=np.float32)
    n16 = 16 * 1024 * 1024 // 4
    return {
        "matmul512": ("matmul 512×512 @ 512×512", [f32(512, 512), f32(512, 512)], lambda a, b: a @ b),
        "matmul1024": ("matmul 1024×1024 @ 1024×1024", [f32(1024, 1024), f32(1024, 1024)], lambda a, b: a @ b),
        "softmax": ("softmax(-1) of 1024×1024 rows", [f32(1024, 1024)], lambda a: a.softmax(-1)),
        "conv2d": ("conv2d 64×8×14×14, 16×8×3×3, pad 1 (main job's 2nd layer)", [f32(64, 8, 14, 14), f32(16, 8, 3, 3)],
                   lambda x, w: F.conv2d(x, w, padding=1)),
        "chain": ("fused ((a*b+c).relu()*d).sum(), 4M f32", [f32(n16) for _ in range(4)],
                  lambda a, b, c, d: ((a * b + c).relu() * d).sum()),
        "sum": ("row sums of 2048×2048", [f32(2048, 2048)], lambda a: a.sum(1)),
    }


def measure(device, arrays, op, repeat):
    ts = [Tensor(x, device=device).realize() for x in arrays]
    t0 = time.perf_counter()
    out = op(*ts).realize()
    first = time.perf_counter() - t0
    return first, median_time(lambda: op(*ts).realize(), repeat), out.numpy()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", default="", help="comma-separated figure keys")
    args = ap.parse_args()
    if why := Device.opencl_unavailable():
        sys.exit(f"no CL device: {why}")
    rng = np.random.default_rng(0)
    figs = figures(rng)
    keys = args.only.split(",") if args.only else list(figs)
    print("| figure | CPU median | CL median | CL / CPU | CPU first call | CL first call (builds) | equal |")
    print("|---|---|---|---|---|---|---|")
    build_total = 0.0
    for key in keys:
        name, arrays, op = figs[key]
        c_first, c_med, c_out = measure("CPU", arrays, op, args.repeat)
        l_first, l_med, l_out = measure("CL", arrays, op, args.repeat)
        build_total += l_first - l_med
        same = np.array_equal(c_out, l_out, equal_nan=True)
        print(f"| {name} | {c_med * 1e3:.2f} ms | {l_med * 1e3:.2f} ms | {l_med / c_med:.2f} | {c_first:.2f} s | "
              f"{l_first:.2f} s | {'yes' if same else '**no** (max diff %.3g)' % np.abs(c_out - l_out).max()} |", flush=True)
    print(f"\nCL first calls beyond their warm time, all figures: {build_total:.1f} s; "
          f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
