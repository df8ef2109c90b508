"""Compiled TIR keyed by structure (docs/tir.md "Compiling", DESIGN decision 6): one program parsed
twice compiles once in a process, and a second process with the same disk cache compiles nothing.
The counter is the runtime's program cache's (engine_stats()["compiles"]); results against numpy."""

import json
import os
import subprocess
import sys

import numpy as np

from onegrad import _C, tir

# A text no other test compiles, so that the counts below are this test's own.
PROGRAM = '''from tvm.script import tir as T

@T.prim_func
def scaled_row_sum(A: T.Buffer((8, 24), "float32"), B: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 24):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0.0)
            B[vi] = B[vi] + A[vi, vk] * T.float32(%s)
'''


def compiles():
    return _C.engine_stats()["compiles"]


def run(text, a):
    b = np.zeros(8, np.float32)
    tir.parse(text)["scaled_row_sum"](a, b)
    return b


def test_the_same_program_parsed_twice_compiles_once(rng):
    text = PROGRAM % "0.75"
    a = rng.standard_normal((8, 24)).astype(np.float32)
    before = compiles()
    first = run(text, a)
    once = compiles() - before
    second = run(text, a)  # a new parse: other nodes, other Vars
    assert compiles() - before == once
    np.testing.assert_allclose(first, (a * np.float32(0.75)).sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(second, first)
    # another constant is another program
    third = run(PROGRAM % "0.5", a)
    np.testing.assert_allclose(third, (a * np.float32(0.5)).sum(axis=1), rtol=1e-5, atol=1e-5)


CHILD = '''
import json, sys
import numpy as np
from onegrad import _C, tir
a = np.arange(8 * 24, dtype=np.float32).reshape(8, 24) / 100
b = np.zeros(8, np.float32)
tir.parse(sys.argv[1])["scaled_row_sum"](a, b)
s = _C.engine_stats()
print(json.dumps({"compiles": s["compiles"], "b": b.tolist()}))
'''


def child(text, cache_dir):
    env = dict(os.environ, ONEGRAD_CACHE_DIR=str(cache_dir))
    r = subprocess.run([sys.executable, "-c", CHILD, text], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_a_second_process_compiles_nothing(tmp_path):
    text = PROGRAM % "1.25"
    first = child(text, tmp_path)
    second = child(text, tmp_path)
    assert first["compiles"] >= 1
    assert second["compiles"] == 0
    a = np.arange(8 * 24, dtype=np.float32).reshape(8, 24) / 100
    np.testing.assert_allclose(second["b"], (a * np.float32(1.25)).sum(axis=1), rtol=1e-5)
    assert second["b"] == first["b"]
