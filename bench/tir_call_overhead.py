"""Host overhead of one Python call of a compiled TIR PrimFunc (a 4-element add), median of
--repeat rounds of --calls calls each, next to the interpreter's call of the same function."""
import argparse
import statistics
import time

import numpy as np

import onegrad.tir as tir
from onegrad import _C

SRC = '''
@T.prim_func
def add(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
    for i in range(4):
        C[i] = A[i] + B[i]
'''


def per_call_us(fn, args, calls):
    t = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    return (time.perf_counter() - t) / calls * 1e6


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--calls", type=int, default=2000)
    o = p.parse_args()
    f = tir.parse(SRC)["add"]
    args = (np.ones(4, np.float32), np.ones(4, np.float32), np.zeros(4, np.float32))
    f(*args)  # compiles
    compiled = [per_call_us(f, args, o.calls) for _ in range(o.repeat)]
    interpreted = [per_call_us(f.interpret, args, o.calls) for _ in range(o.repeat)]
    # the path without the held compiled code: compile_prim_func looks the function up per call
    uncached = [per_call_us(lambda *a: _C.tir.call(f.module._handle, "add", a, True), args, o.calls) for _ in range(o.repeat)]
    print(f"compiled call    median {statistics.median(compiled):.2f} us (min {min(compiled):.2f})")
    print(f"uncached call    median {statistics.median(uncached):.2f} us (min {min(uncached):.2f})")
    print(f"interpreted call median {statistics.median(interpreted):.2f} us (min {min(interpreted):.2f})")


if __name__ == "__main__":
    main()
