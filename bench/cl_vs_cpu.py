"""PoCL (CL) vs the CPU backend on a 512x512 matmul and softmax: first call (lowering + build) and
the median of 7 warm calls, each including .numpy(). PYTHONPATH=build/python python3 bench/cl_vs_cpu.py"""
import time, statistics, numpy as np, onegrad
from onegrad import Tensor
rng = np.random.default_rng(0)
a = rng.standard_normal((512, 512), dtype=np.float32); b = rng.standard_normal((512, 512), dtype=np.float32)
for dev in ["CPU", "CL"]:
    x, y = Tensor(a, device=dev), Tensor(b, device=dev)
    for name, f in [("matmul 512", lambda: (x @ y).numpy()), ("softmax 512x512", lambda: x.softmax(-1).numpy())]:
        t0 = time.perf_counter(); f(); first = time.perf_counter() - t0
        ts = []
        for _ in range(7):
            t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
        print(f"{dev} {name}: first {first*1e3:.1f} ms, median {statistics.median(ts)*1e3:.2f} ms")
