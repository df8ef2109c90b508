"""Compiled TIR float32 exp and sigmoid over --n elements (one call of a PrimFunc looping over
them), median of --repeat calls, next to numpy's float32 np.exp on the same array. Run it on two
builds (PYTHONPATH) for a before/after; the interpreter is not timed (it takes seconds)."""
import argparse
import statistics
import time

import numpy as np

import onegrad.tir as tir

SRC = '''
@T.prim_func
def f(A: T.Buffer(({n},), "float32"), B: T.Buffer(({n},), "float32")):
    for i in range({n}):
        B[i] = T.{op}(A[i])
'''


def median_us(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e6)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1 << 20)
    p.add_argument("--repeat", type=int, default=51)
    o = p.parse_args()
    a = np.linspace(-20, 20, o.n, dtype=np.float32)
    b = np.zeros(o.n, np.float32)
    for op in ("exp", "sigmoid"):
        f = tir.parse(SRC.format(n=o.n, op=op))["f"]
        f(a, b)  # compiles
        assert f.mode == "compiled"
        print(f"compiled {op:8s} n={o.n}: median {median_us(lambda: f(a, b), o.repeat):.0f} us")
    print(f"numpy    exp      n={o.n}: median {median_us(lambda: np.exp(a, out=b), o.repeat):.0f} us")


if __name__ == "__main__":
    main()
