#!/usr/bin/env python3
"""Two opt lists for one kernel, timed as generated C alone: PaddleOCR cls's depthwise 5x5 convs and
its squeeze-excite means (a BatchNorm + hardswish fused into a spatial mean) under the opts they got
before (`old`) and under today's default_opts (`new`).

  PYTHONPATH=build/python /usr/bin/python3 bench/kernel_opts_ab.py [--repeat 200] [--rounds 2]

Each kernel's `Kernel.source(opts)` is compiled with the CPU backend's flags (src/runtime/cpu_compiler.h)
and called through ctypes for every THREAD part in turn on one core (its whole work, free of the
thread pool's scheduling on a shared machine); best of --repeat calls, the best of --rounds rounds
that alternate old and new. Each output is checked against numpy before it is timed.
"""
import argparse
import ctypes
import os
import subprocess
import tempfile
import time

import numpy as np

import onegrad
from onegrad import Tensor
from onegrad.kernel import Opt

FLAGS = "-O2 -funswitch-loops -march=native -fno-trapping-math -fPIC -shared -std=c11 -ffp-contract=off".split()


def compiled(kernel, opts, tmp):
    path = os.path.join(tmp, f"k{len(os.listdir(tmp))}")
    with open(path + ".c", "w") as f:
        f.write(kernel.source(opts))
    subprocess.run(["gcc", *FLAGS, path + ".c", "-o", path + ".so", "-lm"], check=True)
    fn = getattr(ctypes.CDLL(path + ".so"), kernel.name)
    fn.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_int64]
    return fn


def best_ms(fn, bufs, parts, repeat, clock=time.perf_counter):
    ptrs = (ctypes.c_void_p * len(bufs))(*[b.ctypes.data for b in bufs])
    variables = (ctypes.c_int64 * 4)()
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        for p in range(parts):
            fn(ptrs, ctypes.cast(variables, ctypes.c_void_p), p)
        best = min(best, clock() - t0)
    return best * 1e3


def depthwise(b, c, h, w):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((b, c, h + 4, w + 4), dtype=np.float32)
    wt = rng.standard_normal((c, 1, 5, 5), dtype=np.float32)
    k, = [k for k in onegrad.kernels(Tensor(x).conv2d(Tensor(wt), groups=c)) if k.name.startswith("r_")]
    a = 3 if b > 1 else 2  # the output's column axis
    old = [Opt.split(a, 16, "UPCAST"), Opt.split(a - 1, h, "UPCAST")]
    want = np.zeros((b, c, h, w), np.float32)
    for i in range(5):
        for j in range(5):
            want += x[:, :, i:i + h, j:j + w] * wt[:, 0, i, j][None, :, None, None]
    return k, old, [np.zeros((b, c, h, w), np.float32), x, wt], want.reshape(-1) if b == 1 else want


def se_mean(b, c, h, w):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((b, c, h, w), dtype=np.float32)
    s, t = rng.standard_normal((c, 1, 1), dtype=np.float32), rng.standard_normal((c, 1, 1), dtype=np.float32)
    k, = onegrad.kernels((Tensor(x) * Tensor(s) + Tensor(t)).hardswish().mean((2, 3)))
    a = 1 if b > 1 else 0  # the channel axis
    old = [Opt.split(a + 2, 4, "UNROLL"), Opt.split(a, 8, "UPCAST")]
    y = x * s + t
    want = (y * np.clip(y + 3, 0, 6) / 6).mean((2, 3))
    return k, old, [np.zeros((b, c), np.float32), x, s.reshape(-1).copy(), t.reshape(-1).copy()], want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    cases = [("depthwise 5x5", depthwise, (16, 200, 2, 96)), ("depthwise 5x5", depthwise, (16, 88, 3, 96)),
             ("depthwise 5x5", depthwise, (1, 200, 2, 96)), ("BN+hardswish mean", se_mean, (16, 200, 2, 96)),
             ("BN+hardswish mean", se_mean, (16, 88, 3, 96)), ("BN+hardswish mean", se_mean, (1, 200, 2, 96))]
    print(f"{'kernel':24s} {'what':18s} {'old ms':>8s} {'new ms':>8s} {'new/old':>8s}  new opts")
    with tempfile.TemporaryDirectory() as tmp:
        for what, make, shape in cases:
            k, old_opts, bufs, want = make(*shape)
            new_opts = k.default_opts()
            threads = [o for o in new_opts if o.target == "THREAD"]
            parts = threads[0].arg if threads else 1
            times = {}
            for name, opts in (("old", old_opts + threads), ("new", new_opts)):
                fn = compiled(k, opts, tmp)
                bufs[0][...] = 0
                best_ms(fn, bufs, parts, 1)
                np.testing.assert_allclose(bufs[0].reshape(want.shape), want, rtol=1e-4, atol=1e-4)
                times[name] = fn
            best = {"old": float("inf"), "new": float("inf")}
            for _ in range(args.rounds):
                for name in ("old", "new"):
                    best[name] = min(best[name], best_ms(times[name], bufs, parts, args.repeat))
            ups = " ".join(str(o) for o in new_opts if o.target != "THREAD")
            print(f"{k.name:24s} {what:18s} {best['old']:8.3f} {best['new']:8.3f} {best['new'] / best['old']:8.2f}  {ups}")


if __name__ == "__main__":
    main()
