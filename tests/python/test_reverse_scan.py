"""Scans read backwards (a cumsum or cumprod of a flipped view, flipped back: suffix sums), which
Rangeify's reverse_loop_to_scan runs as a scan of the reversed loop (docs/schedule.md, "Scans"):
against torch 1.13 at a size where the window as written would take minutes, and bit for bit
against the window itself (FOLD_REDUCE=0, in a subprocess)."""
import json
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import torch

import onegrad as og

N = 100_000  # 10^10 adds if the window survived


def _rand(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


CASES = {
    "suffix_cumsum": lambda t: t.flip(0).cumsum(0).flip(0),
    "suffix_cumprod": lambda t: (t * 1e-3 + 1).flip(0).cumprod(0).flip(0),
    "cumsum_read_flipped": lambda t: t.cumsum(0).flip(0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_large_reverse_scans_match_torch_in_linear_time(name):
    x = _rand(N, 1)
    t0 = time.perf_counter()
    got = CASES[name](og.Tensor(x)).numpy()
    secs = time.perf_counter() - t0
    want = CASES[name](torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-2)
    assert secs < 30, f"{name} of {N} took {secs:.1f} s"


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_suffix_sums_along_any_axis_match_torch(dim):
    x = _rand((30, 40), 2)
    got = og.Tensor(x).flip(dim).cumsum(dim).flip(dim).numpy()
    want = torch.from_numpy(x).flip(dim).cumsum(dim).flip(dim).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_suffix_sum_of_ints_is_exact():
    x = np.random.default_rng(3).integers(-2**30, 2**30, 5000).astype(np.int32)  # wraps, as torch
    got = og.Tensor(x).flip(0).cumsum(0).flip(0).numpy()
    np.testing.assert_array_equal(got, torch.from_numpy(x).flip(0).cumsum(0).flip(0).numpy())


PROGRAM = textwrap.dedent("""
    import json
    import numpy as np
    from onegrad import Tensor
    # 60 columns: a longer float window would be summed in levels of partial sums (docs/codegen.md)
    x = Tensor(np.random.default_rng(4).standard_normal((60, 60)).astype(np.float32) * 1000)
    out = {
        "suffix_1d": x[0].flip(0).cumsum(0).flip(0),
        "suffix_rows": x.flip(1).cumsum(1).flip(1),
        "suffix_cols": x.flip(0).cumsum(0).flip(0),
        "cumprod": (x[1] * 1e-4 + 1).flip(0).cumprod(0).flip(0),
        "read_flipped": x.cumsum(1).flip(1),
        "half_flipped": x.flip(1).cumsum(1)[:, ::-1],
    }
    print(json.dumps({k: v.numpy().view(np.uint32).tolist() for k, v in out.items()}))
""")


def _run(fold):
    # NOOPT: the window as written, summed in order (no opt splits it into several accumulators)
    env = dict(os.environ, FOLD_REDUCE=str(fold), NOOPT="1")
    r = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_reverse_scans_equal_the_windows_bit_for_bit():
    scans, windows = _run(1), _run(0)
    for name in windows:
        assert scans[name] == windows[name], name
