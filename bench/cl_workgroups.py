"""Kernels the workgroup heuristics shape on CL (docs/kernel_opts.md, "Workgroups"): a whole sum,
row sums, a softmax, an elementwise chain and a matmul, each realized and copied out; prints the
median of --repeat calls after one warm-up call (which builds the kernels).

    PYTHONPATH=build/python python3 bench/cl_workgroups.py --device CL
    NOOPT=1 PYTHONPATH=build/python python3 bench/cl_workgroups.py --device CL   # one work item
"""
import argparse
import statistics
import time

import numpy as np

from onegrad import Tensor


def bench(name, f, arrays, device, repeat):
    ts = [Tensor(a, device=device) for a in arrays]
    f(*ts).numpy()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f(*ts).numpy()
        times.append(time.perf_counter() - t0)
    print(f"{name:28s} median {statistics.median(times) * 1e3:8.2f} ms")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="CL")
    p.add_argument("--repeat", type=int, default=7)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1 << 22,)).astype(np.float32)
    m = rng.standard_normal((512, 512)).astype(np.float32)
    bench("sum 4M", lambda t: t.sum(), [x], a.device, a.repeat)
    bench("row sums 64x65536", lambda t: t.sum(1), [x.reshape(64, 65536)], a.device, a.repeat)
    bench("softmax 256x1024", lambda t: t.softmax(1), [x[: 256 * 1024].reshape(256, 1024)], a.device, a.repeat)
    bench("elementwise 4M x*2+exp", lambda t: t * 2 + t.exp(), [x], a.device, a.repeat)
    bench("matmul 512", lambda p_, q: p_ @ q, [m, m], a.device, a.repeat)


if __name__ == "__main__":
    main()
