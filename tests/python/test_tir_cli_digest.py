"""`onegrad tir run --interpret` against an independent Python implementation of the documented
argument generator (SplitMix64, per-dtype distributions) and digest (FNV-1a; floats as "%.{d-1}e;"),
docs/tir.md "Command line". The program leaves its arguments as drawn, so every digest line is a
function of the seed alone."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

M64 = (1 << 64) - 1

PROGRAM = '''from tvm.script import tir as T

@T.prim_func
def keep(F: T.Buffer((3, 5), "float32"), I: T.Buffer((7,), "int8"), B: T.Buffer((4,), "bool"),
         U: T.Buffer((2, 3), "uint16"), D: T.Buffer((3,), "float64"), H: T.Buffer((5,), "float16"),
         L: T.Buffer((2,), "int64")):
    T.evaluate(0)
'''
BUFFERS = [("F", "float32", (3, 5)), ("I", "int8", (7,)), ("B", "bool", (4,)), ("U", "uint16", (2, 3)),
           ("D", "float64", (3,)), ("H", "float16", (5,)), ("L", "int64", (2,))]
DIGITS = {"float16": 3, "float32": 5, "float64": 9}


def onegrad_binary():
    if os.environ.get("ONEGRAD_BIN"):
        return pathlib.Path(os.environ["ONEGRAD_BIN"])
    import onegrad  # build/python/onegrad -> build/bin/onegrad
    return pathlib.Path(onegrad.__file__).resolve().parents[2] / "bin" / "onegrad"


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & M64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def integer(self, lo, hi):
        return lo + self.next() % (hi - lo + 1)

    def uniform_pm1(self):
        return (self.next() >> 11) * 2.0**-53 * 2 - 1


def fnv1a(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & M64
    return h


def expected_lines(seed):
    g = SplitMix64(seed)
    lines = []
    for name, dtype, shape in BUFFERS:
        n = int(np.prod(shape))
        if dtype in DIGITS:
            values = np.array([g.uniform_pm1() for _ in range(n)]).astype(dtype).astype(np.float64)
            d = DIGITS[dtype]
            texts = ["%.*e" % (d - 1, v + 0.0) for v in values]
            h = fnv1a("".join(t + ";" for t in texts).encode())
            rounded = [float(t) for t in texts]
            s, lo, hi = ("%.*g" % (d, x + 0.0) for x in (sum(rounded), min(rounded), max(rounded)))
        else:
            if dtype == "bool":
                values = np.array([g.integer(0, 1) for _ in range(n)], dtype=np.uint8)
            elif dtype.startswith("uint"):
                values = np.array([g.integer(0, 10) for _ in range(n)], dtype=dtype)
            else:
                values = np.array([g.integer(-10, 10) for _ in range(n)], dtype=dtype)
            h = fnv1a(values.astype(values.dtype.newbyteorder("<")).tobytes())
            ints = [int(v) for v in values]
            s, lo, hi = str(sum(ints)), str(min(ints)), str(max(ints))
        dims = ", ".join(str(e) for e in shape)
        lines.append(f"{name}: {dtype}[{dims}] hash={h:016x} sum={s} min={lo} max={hi}")
    return lines


def test_interpreted_run_digests_match_the_documented_generator(tmp_path, rng):
    binary = onegrad_binary()
    if not binary.exists():
        pytest.skip(f"{binary} is not built")
    program = tmp_path / "keep.py"
    program.write_text(PROGRAM)
    for seed in [0, 1, int(rng.integers(0, 2**62))]:
        r = subprocess.run([str(binary), "tir", "run", str(program), "--interpret", "--seed", str(seed)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == expected_lines(seed), (seed, r.stdout)
