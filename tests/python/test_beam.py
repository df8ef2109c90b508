"""BEAM search from Python (docs/kernel_opts.md "BEAM search"): BEAM=1 in the environment
gives the same results as numpy, writes <cache dir>/beam.sqlite3, and a second process replays the
search from it (DEBUG=2 says so) instead of timing candidates again."""

import os
import subprocess
import sys

import numpy as np

PROGRAM = """
import numpy as np
from onegrad import Tensor
a = np.arange(24 * 40, dtype=np.float32).reshape(24, 40) % 7 - 3
b = np.arange(40 * 16, dtype=np.float32).reshape(40, 16) % 5 - 2
got = (Tensor(a) @ Tensor(b)).numpy()
assert np.array_equal(got, a @ b), (got, a @ b)
print("ok")
"""


def run(cache_dir):
    env = dict(os.environ, BEAM="1", DEBUG="2", ONEGRAD_CACHE_DIR=str(cache_dir))
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("ok")
    return [line for line in out.stderr.splitlines() if line.startswith("BEAM r_24_16_40")]


def test_beam_searches_then_replays(tmp_path):
    first = run(tmp_path)
    assert len(first) == 1 and "timed in" in first[0], first
    assert (tmp_path / "beam.sqlite3").is_file()
    second = run(tmp_path)
    assert len(second) == 1 and second[0].endswith("from the cache"), second
    # the same opts both times
    assert first[0].split(": ")[1].split("]")[0] == second[0].split(": ")[1].split("]")[0]
