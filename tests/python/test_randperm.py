"""randperm (tensor/random.h): the inside-out Fisher-Yates kernel of uop/custom_kernels.h over
Threefry words. Uniformity by chi-square (p-values from torch.special.gammaincc), determinism
under manual_seed, the same values under every opt setting, and the dtype and size errors."""
import math
import os
import subprocess
import sys
from itertools import permutations

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Opt

# A test fails when its p-value is below this: about one false alarm in 10^5 runs per test.
ALPHA = 1e-5


def chi_square_p(observed, expected):
    observed = np.asarray(observed, np.float64).ravel()
    expected = np.broadcast_to(np.asarray(expected, np.float64), observed.shape)
    stat = float(((observed - expected) ** 2 / expected).sum())
    dof = observed.size - 1
    return float(torch.special.gammaincc(torch.tensor(dof / 2, dtype=torch.float64),
                                         torch.tensor(stat / 2, dtype=torch.float64)))


def test_chi_square_p_rejects_a_biased_count():
    # the criterion itself: a fair table passes, a table 10% off in one cell of 24 fails
    assert chi_square_p([1000] * 24, 1000) > 0.99
    assert chi_square_p([1100] + [1000] * 23, 1000) > ALPHA
    assert chi_square_p([1300] + [1000] * 23, 1000) < ALPHA


@pytest.mark.parametrize("n", [3, 4, 5])  # odd n: the last step has a word of its own
def test_every_permutation_is_equally_likely(n):
    onegrad.manual_seed(1234 + n)
    draws = 200 * math.factorial(n)
    index = {p: k for k, p in enumerate(permutations(range(n)))}
    counts = np.zeros(len(index))
    for _ in range(draws):
        counts[index[tuple(onegrad.randperm(n).numpy().tolist())]] += 1
    assert counts.min() > 0, counts
    assert chi_square_p(counts, draws / len(index)) > ALPHA, counts


@pytest.mark.parametrize("n", [100_000, 2**20 + 3])  # two steps per word, then one word per step
def test_values_land_uniformly_over_positions(n):
    # one large draw: the (position decile, value decile) table of a uniform permutation is
    # n/100 per cell up to hypergeometric noise
    onegrad.manual_seed(n)
    p = onegrad.randperm(n).numpy()
    np.testing.assert_array_equal(np.sort(p), np.arange(n))
    table = np.zeros((10, 10))
    np.add.at(table, (np.arange(n) * 10 // n, p * 10 // n), 1)
    assert chi_square_p(table, n / 100) > ALPHA, table


def test_small_positions_are_uniform_over_many_draws():
    # the first and last positions of randperm(50) over 5000 draws: each value 100 times
    onegrad.manual_seed(7)
    first, last = np.zeros(50), np.zeros(50)
    for _ in range(5000):
        p = onegrad.randperm(50).numpy()
        first[p[0]] += 1
        last[p[-1]] += 1
    assert chi_square_p(first, 100) > ALPHA and chi_square_p(last, 100) > ALPHA, (first, last)


def test_a_million_is_a_permutation_and_dtype_int64():
    onegrad.manual_seed(3)
    got = onegrad.randperm(10**6)
    assert got.dtype == onegrad.int64 and got.shape == (10**6,)
    assert torch.randperm(3).dtype == torch.int64
    p = got.numpy()
    np.testing.assert_array_equal(np.sort(p), np.arange(10**6))
    assert (p != np.arange(10**6)).mean() > 0.99


def test_empty_and_one():
    assert onegrad.randperm(0).numpy().shape == (0,) and onegrad.randperm(0).dtype == onegrad.int64
    np.testing.assert_array_equal(onegrad.randperm(1).numpy(), [0])


def test_deterministic_under_manual_seed():
    onegrad.manual_seed(11)
    a, b = onegrad.randperm(1000).numpy(), onegrad.randperm(1000).numpy()
    onegrad.manual_seed(11)
    np.testing.assert_array_equal(onegrad.randperm(1000).numpy(), a)
    np.testing.assert_array_equal(onegrad.randperm(1000).numpy(), b)
    assert not np.array_equal(a, b)  # the generator moved on


def test_the_shuffle_kernel_runs_in_order():
    # the words' kernel, then the shuffle's (the output itself, so its reason is "output 0")
    words, k = onegrad.kernels(onegrad.randperm(1000))
    assert words.reason == "contiguous()" and k.reason == "output 0"
    assert k.shape == "L1000" and k.default_opts() == []
    with pytest.raises(onegrad.OptError, match="the kernel runs in order"):
        k.optimize([Opt.split(0, 4, "UPCAST")])


CHILD = """
import sys
import numpy as np
import onegrad
onegrad.manual_seed(5)
out = [onegrad.randperm(n).numpy() for n in (2, 7, 1000, 100_000)]
np.savez(sys.argv[1], *out)
"""


# Each setting in a child process with its own compile cache; all must give the default's values.
SETTINGS = {"default": {}, "NOOPT": {"NOOPT": "1"}, "BEAM": {"BEAM": "2"}, "THREADS": {"CPU_THREADS": "2"}}


def test_same_values_under_every_opt_setting(tmp_path):
    results = {}
    for name, env in SETTINGS.items():
        path = tmp_path / f"{name}.npz"
        run_env = dict(os.environ, ONEGRAD_CACHE_DIR=str(tmp_path / f"cache-{name}"), **env)
        out = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=run_env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, out.stderr
        with np.load(path) as z:
            results[name] = [z[f"arr_{i}"] for i in range(4)]
    for name, got in results.items():
        for a, b in zip(got, results["default"]):
            np.testing.assert_array_equal(a, b, err_msg=name)


@pytest.mark.parametrize("dtype", ["int32", "int16", "uint8", "float32", "float64", "float16", "bfloat16"])
def test_dtypes(dtype):
    onegrad.manual_seed(2)
    got = onegrad.randperm(200, dtype=dtype)
    assert got.dtype == getattr(onegrad, dtype)
    np.testing.assert_array_equal(np.sort(got.numpy().astype(np.int64)), np.arange(200))


@pytest.mark.parametrize("n, dtype, error, message", [
    (-1, None, onegrad.ShapeError, r"randperm: n must be >= 0, got -1"),
    (3, "bool", onegrad.DTypeError, r"randperm: expects an integer or float dtype, got bool"),
    (257, "uint8", onegrad.ShapeError, r"randperm: n=257 does not fit uint8$"),
    (129, "int8", onegrad.ShapeError, r"randperm: n=129 does not fit int8$"),
    (2050, "float16", onegrad.ShapeError, r"randperm: n=2050 does not fit float16 \(0\.\.n-1 would not all be exact\)"),
    (258, "bfloat16", onegrad.ShapeError, r"randperm: n=258 does not fit bfloat16 \(0\.\.n-1 would not all be exact\)"),
])
def test_errors(n, dtype, error, message):
    kw = {} if dtype is None else {"dtype": dtype}
    with pytest.raises(error, match=message):
        onegrad.randperm(n, **kw)


@pytest.mark.parametrize("n, dtype", [(256, "uint8"), (128, "int8"), (2049, "float16"), (257, "bfloat16")])
def test_largest_n_of_a_dtype(n, dtype):
    # torch accepts the same largest n for uint8, int8 and float16 (it checks no bfloat16 bound)
    torch.randperm(n, dtype=getattr(torch, dtype))
    got = onegrad.randperm(n, dtype=dtype).numpy().astype(np.int64)
    np.testing.assert_array_equal(np.sort(got), np.arange(n))
