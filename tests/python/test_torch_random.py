"""Random numbers (src/tensor/random.h) against torch 1.13: the values come from another generator
(THREEFRY, not torch's Mersenne Twister), so torch is the oracle for dtypes, shapes, argument forms
and errors, and the values are checked by statistics with fixed tolerances. Every statistical test
seeds onegrad first, so it is deterministic: a tolerance that holds once holds on every run.
Reproducibility is checked across processes too."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import onegrad
from onegrad import Tensor, dtypes
from onegrad.nn import functional as OF

FLOATS = [None, "float16", "float32", "float64", "bfloat16"]
SHAPES = [(), (1,), (5,), (2, 3), (2, 0, 3), (3, 1, 4)]
TORCH_DT = {None: None, "float16": torch.float16, "float32": torch.float32, "float64": torch.float64,
            "bfloat16": torch.bfloat16, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
            "int64": torch.int64, "uint8": torch.uint8, "bool": torch.bool}


def same_dtype(t: Tensor, tt: torch.Tensor):
    assert t.dtype.name == str(tt.dtype).replace("torch.", ""), f"{t.dtype.name} != {tt.dtype}"
    assert t.shape == tuple(tt.shape), f"{t.shape} != {tuple(tt.shape)}"


def torch_half(fn, tt, *args):
    """fn(tt, *args) in torch; its CPU has no float16 bernoulli, so float16 runs in float32 and the
    result is cast back (the dtype and shape are what is compared)."""
    if tt.dtype == torch.float16:
        return fn(tt.float(), *args).half()
    return fn(tt, *args)


def ks_statistic(sample, cdf):
    """Kolmogorov-Smirnov distance between a sample and a continuous CDF (vectorized)."""
    x = np.sort(np.asarray(sample, dtype=np.float64))
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def ks_bound(n):
    """The KS critical value at the 0.1% level (asymptotic)."""
    return 1.95 / math.sqrt(n)


# ---- dtypes and shapes as torch

@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dt", FLOATS, ids=str)
@pytest.mark.parametrize("name", ["rand", "randn"])
def test_rand_randn_dtype_shape(name, dt, shape):
    kw = {} if dt is None else {"dtype": dt}
    tkw = {} if dt is None else {"dtype": TORCH_DT[dt]}
    got = getattr(onegrad, name)(*shape, **kw)
    same_dtype(got, getattr(torch, name)(shape, **tkw))
    v = got.numpy().astype(np.float64)
    assert v.shape == shape
    if name == "rand" and v.size:
        assert v.min() >= 0 and v.max() < 1
    assert np.all(np.isfinite(v))
    # the tuple form and the Tensor static method agree on shape and dtype
    same_dtype(getattr(Tensor, name)(shape, **kw), getattr(torch, name)(shape, **tkw))


@pytest.mark.parametrize("dt", [None, "int8", "int16", "int32", "int64", "uint8", "bool", "float32", "float64"],
                         ids=str)
@pytest.mark.parametrize("low,high", [(0, 2), (-3, 3), (5, 100), (0, 1)])
def test_randint_dtype_shape_range(low, high, dt):
    if dt == "bool" and (low < 0 or high > 2):
        pytest.skip("bool holds [0, 2) only (tested with the errors)")
    if dt == "uint8" and low < 0:
        pytest.skip("uint8 holds no negatives (tested with the errors)")
    kw = {} if dt is None else {"dtype": dt}
    tkw = {} if dt is None else {"dtype": TORCH_DT[dt]}
    got = onegrad.randint(low, high, (4, 50), **kw)
    same_dtype(got, torch.randint(low, high, (4, 50), **tkw))
    v = got.numpy().astype(np.int64)
    assert v.min() >= low and v.max() < high


@pytest.mark.parametrize("size", [(3,), (2, 3), (0,), ()], ids=str)
def test_randint_high_only_form(size):
    same_dtype(onegrad.randint(10, size), torch.randint(10, size))
    same_dtype(Tensor.randint(2, 10, size), torch.randint(2, 10, size))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 100, 1000])
@pytest.mark.parametrize("dt", [None, "int32", "int64", "float32", "float64"], ids=str)
def test_randperm_is_a_permutation(n, dt):
    onegrad.manual_seed(n)
    kw = {} if dt is None else {"dtype": dt}
    tkw = {} if dt is None else {"dtype": TORCH_DT[dt]}
    got = onegrad.randperm(n, **kw)
    same_dtype(got, torch.randperm(n, **tkw))
    np.testing.assert_array_equal(np.sort(got.numpy().astype(np.int64)), np.arange(n))


@pytest.mark.parametrize("shape", [(5,), (3, 4), (1, 7), (6, 1)], ids=str)
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("num_samples", [1, 2, 9])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_multinomial_dtype_shape(shape, replacement, num_samples, dt, rng):
    if not replacement and num_samples > shape[-1]:
        pytest.skip("more samples than categories without replacement (tested with the errors)")
    p = rng.uniform(0.1, 1.0, size=shape).astype(dt)
    got = Tensor(p).multinomial(num_samples, replacement=replacement)
    want = torch.multinomial(torch.from_numpy(p), num_samples, replacement=replacement)
    same_dtype(got, want)
    v = got.numpy()
    assert v.min() >= 0 and v.max() < shape[-1]
    if not replacement:  # distinct within a row
        rows = v.reshape(-1, num_samples)
        assert all(len(set(r)) == num_samples for r in rows)
    same_dtype(onegrad.multinomial(Tensor(p), num_samples, replacement), want)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "bfloat16"])
def test_bernoulli_dtype_shape(shape, dt, rng):
    p = rng.uniform(0, 1, size=shape).astype(np.float32)
    t = Tensor(p).cast(dt)
    tt = torch.from_numpy(p).to(TORCH_DT[dt])
    got = t.bernoulli()
    same_dtype(got, torch_half(torch.bernoulli, tt))
    assert set(np.unique(got.numpy().astype(np.float64))) <= {0.0, 1.0}
    same_dtype(onegrad.bernoulli(t, 0.25), torch_half(torch.bernoulli, tt, 0.25))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("training", [True, False])
def test_dropout_dtype_shape_and_fixed_cases(shape, dt, p, training, rng):
    x = rng.uniform(-2, 2, size=shape).astype(dt)
    got = OF.dropout(Tensor(x), p, training)
    want = torch_half(F.dropout, torch.from_numpy(x), p, training)
    same_dtype(got, want)
    v = got.numpy()
    if not training or p == 0.0 or p == 1.0:  # deterministic cases: torch's values exactly
        np.testing.assert_array_equal(v, want.numpy())
    else:  # each element is 0 or x / (1 - p)
        scaled = (x.astype(np.float64) / (1 - p)).astype(dt)
        assert np.all((v == 0) | np.isclose(v, scaled, rtol=2e-3))
    same_dtype(Tensor(x).dropout(p, training), want)


@pytest.mark.parametrize("dt", ["float16", "float32", "float64", "int32", "int64", "uint8"])
@pytest.mark.parametrize("fn", ["rand_like", "randn_like", "randint_like"])
def test_like_variants(fn, dt):
    x = np.zeros((2, 3), dtype=dt)
    tt = torch.from_numpy(x)
    if fn == "randint_like":
        same_dtype(getattr(onegrad, fn)(Tensor(x), 5), torch.randint_like(tt, 5))
        same_dtype(getattr(onegrad, fn)(Tensor(x), 2, 5), torch.randint_like(tt, 2, 5))
        return
    tfn = getattr(torch, fn)
    if dt.startswith(("int", "uint")):
        with pytest.raises(RuntimeError):
            tfn(tt)
        with pytest.raises(onegrad.DTypeError, match="expects a float dtype, got " + dt):
            getattr(onegrad, fn)(Tensor(x))
        same_dtype(getattr(onegrad, fn)(Tensor(x), dtype="float32"), tfn(tt, dtype=torch.float32))
        return
    same_dtype(getattr(onegrad, fn)(Tensor(x)), tfn(tt))


@pytest.mark.parametrize("dt", FLOATS, ids=str)
def test_uniform_and_normal(dt):
    kw = {} if dt is None else {"dtype": dt}
    onegrad.manual_seed(11)
    u = Tensor.uniform(1000, low=-3, high=5, **kw)
    assert u.dtype == (dtypes.float32 if dt is None else onegrad.dtype.to_dtype(dt))
    v = u.numpy().astype(np.float64)
    assert v.min() >= -3 and v.max() <= 5 and abs(v.mean() - 1) < 0.5
    n = onegrad.normal(2.0, 0.5, (1000,), **kw)
    same_dtype(n, torch.normal(2.0, 0.5, (1000,), **({} if dt is None else {"dtype": TORCH_DT[dt]})))
    w = n.numpy().astype(np.float64)
    assert abs(w.mean() - 2) < 0.1 and abs(w.std() - 0.5) < 0.05


# ---- errors: what torch rejects, onegrad rejects with a clear message

ERRORS = [
    ("rand negative dim", lambda: onegrad.rand(-1, 3), lambda: torch.rand(-1, 3), onegrad.ShapeError,
     r"rand: negative dim -1 in shape \(-1, 3\)"),
    ("randn negative dim", lambda: onegrad.randn(2, -2), lambda: torch.randn(2, -2), onegrad.ShapeError,
     r"randn: negative dim -2"),
    ("randint negative dim", lambda: onegrad.randint(0, 5, (-1,)), lambda: torch.randint(0, 5, (-1,)),
     onegrad.ShapeError, r"randint: negative dim -1"),
    ("rand int dtype", lambda: onegrad.rand(3, dtype="int64"), lambda: torch.rand(3, dtype=torch.int64),
     onegrad.DTypeError, r"rand: expects a float dtype, got int64"),
    ("randn int dtype", lambda: onegrad.randn(3, dtype="int32"), lambda: torch.randn(3, dtype=torch.int32),
     onegrad.DTypeError, r"randn: expects a float dtype, got int32"),
    ("randint low == high", lambda: onegrad.randint(5, 5, (3,)), lambda: torch.randint(5, 5, (3,)),
     onegrad.ShapeError, r"randint: low must be less than high, got low=5 and high=5"),
    ("randint low > high", lambda: onegrad.randint(7, 2, (3,)), lambda: torch.randint(7, 2, (3,)),
     onegrad.ShapeError, r"got low=7 and high=2"),
    ("randint out of uint8", lambda: onegrad.randint(0, 300, (3,), dtype="uint8"),
     lambda: torch.randint(0, 300, (3,), dtype=torch.uint8), onegrad.ShapeError, r"\[0, 300\) does not fit uint8"),
    ("randint out of bool", lambda: onegrad.randint(0, 3, (3,), dtype="bool"),
     lambda: torch.randint(0, 3, (3,), dtype=torch.bool), onegrad.ShapeError, r"\[0, 3\) does not fit bool"),
    ("randperm negative", lambda: onegrad.randperm(-1), lambda: torch.randperm(-1), onegrad.ShapeError,
     r"randperm: n must be >= 0, got -1"),
    ("normal negative std", lambda: onegrad.normal(0.0, -1.0, (3,)), lambda: torch.normal(0.0, -1.0, (3,)),
     onegrad.ShapeError, r"normal: expects a finite std >= 0, got std=-1.0"),
    ("uniform low > high", lambda: Tensor.uniform(3, low=2, high=1), lambda: torch.empty(3).uniform_(2, 1),
     onegrad.ShapeError, r"uniform: expects finite low <= high, got low=2.0 and high=1.0"),
    ("multinomial negative", lambda: Tensor([0.2, -0.1]).multinomial(1),
     lambda: torch.multinomial(torch.tensor([0.2, -0.1]), 1), onegrad.ShapeError,
     r"multinomial: probabilities must be finite and >= 0"),
    ("multinomial nan", lambda: Tensor([0.2, float("nan")]).multinomial(1, True),
     lambda: torch.multinomial(torch.tensor([0.2, float("nan")]), 1, True), onegrad.ShapeError,
     r"must be finite and >= 0"),
    ("multinomial inf", lambda: Tensor([[0.2, float("inf")]]).multinomial(1),
     lambda: torch.multinomial(torch.tensor([[0.2, float("inf")]]), 1), onegrad.ShapeError,
     r"must be finite and >= 0"),
    ("multinomial zero sum", lambda: Tensor([0.0, 0.0]).multinomial(1, True),
     lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1, True), onegrad.ShapeError,
     r"every row of probabilities must have a positive sum"),
    ("multinomial too many", lambda: Tensor([0.2, 0.1]).multinomial(3),
     lambda: torch.multinomial(torch.tensor([0.2, 0.1]), 3), onegrad.ShapeError,
     r"multinomial: cannot draw 3 samples without replacement from 2 categories"),
    ("multinomial 3-D", lambda: Tensor.ones(2, 2, 2).multinomial(1), lambda: torch.multinomial(torch.ones(2, 2, 2), 1),
     onegrad.ShapeError, r"multinomial: probabilities must be 1-D or 2-D, got shape \(2, 2, 2\)"),
    ("multinomial zero samples", lambda: Tensor.ones(2).multinomial(0), lambda: torch.multinomial(torch.ones(2), 0),
     onegrad.ShapeError, r"multinomial: num_samples must be positive, got 0"),
    ("multinomial int", lambda: Tensor([1, 2]).multinomial(1), lambda: torch.multinomial(torch.tensor([1, 2]), 1),
     onegrad.DTypeError, r"multinomial: expects float probabilities, got int32"),
    ("bernoulli p > 1", lambda: Tensor([0.5, 1.5]).bernoulli(), lambda: torch.bernoulli(torch.tensor([0.5, 1.5])),
     onegrad.ShapeError, r"bernoulli: probabilities must be in \[0, 1\]"),
    ("bernoulli p < 0", lambda: Tensor([-0.5, 0.5]).bernoulli(), lambda: torch.bernoulli(torch.tensor([-0.5, 0.5])),
     onegrad.ShapeError, r"bernoulli: probabilities must be in \[0, 1\]"),
    ("bernoulli int", lambda: Tensor([1, 0]).bernoulli(), lambda: torch.bernoulli(torch.tensor([1, 0])),
     onegrad.DTypeError, r"bernoulli: expects float probabilities, got int32"),
    ("bernoulli scalar p", lambda: Tensor.ones(3).bernoulli(1.5), lambda: torch.bernoulli(torch.ones(3), 1.5),
     onegrad.ShapeError, r"bernoulli: p must be in \[0, 1\], got 1.5"),
    ("dropout p > 1", lambda: OF.dropout(Tensor.ones(3), 1.5), lambda: F.dropout(torch.ones(3), 1.5),
     onegrad.ShapeError, r"dropout: probability has to be between 0 and 1, got 1.5"),
    ("dropout p < 0", lambda: Tensor.ones(3).dropout(-0.1), lambda: F.dropout(torch.ones(3), -0.1),
     onegrad.ShapeError, r"dropout: probability has to be between 0 and 1, got -0.1"),
    ("dropout p < 0 not training", lambda: OF.dropout(Tensor.ones(3), -0.1, training=False),
     lambda: F.dropout(torch.ones(3), -0.1, training=False), onegrad.ShapeError, r"got -0.1"),
    ("dropout int", lambda: OF.dropout(Tensor([1, 2, 3]), 0.5), lambda: F.dropout(torch.tensor([1, 2, 3]), 0.5),
     onegrad.DTypeError, r"dropout: expects a float tensor, got int32"),
    ("manual_seed overflow", lambda: onegrad.manual_seed(2**64), lambda: torch.manual_seed(2**64), ValueError,
     r"manual_seed: seed 18446744073709551616 is outside"),
]


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_errors_like_torch(case):
    _, ours, theirs, err, match = case
    with pytest.raises(Exception):
        theirs()
    with pytest.raises(err, match=match):
        ours()


def test_multinomial_without_replacement_needs_enough_nonzero_weights():
    # torch documents this as an error (its 1.13 CPU kernel does not check); onegrad raises
    with pytest.raises(onegrad.ShapeError, match="fewer non-zero probabilities"):
        Tensor([0.5, 0.0, 0.0]).multinomial(2)


# ---- reproducibility

def test_same_seed_same_values_and_calls_differ():
    onegrad.manual_seed(1234)
    a, b = onegrad.rand(100).numpy(), onegrad.randn(3, 4).numpy()
    c = onegrad.rand(100).numpy()
    assert not np.array_equal(a, c)  # each call advances the counter
    onegrad.manual_seed(1234)
    np.testing.assert_array_equal(onegrad.rand(100).numpy(), a)
    np.testing.assert_array_equal(onegrad.randn(3, 4).numpy(), b)
    onegrad.manual_seed(1235)
    assert not np.array_equal(onegrad.rand(100).numpy(), a)
    assert onegrad.initial_seed() == 1235


def test_values_do_not_depend_on_shape_or_kernel_split():
    onegrad.manual_seed(5)
    flat = onegrad.rand(24).numpy()
    onegrad.manual_seed(5)
    t = onegrad.rand(2, 3, 4)
    part = t[1].numpy()  # a kernel over half of the draw
    np.testing.assert_array_equal(t.numpy().ravel(), flat)
    np.testing.assert_array_equal(part.ravel(), flat[12:])


def test_negative_seed_wraps_like_torch():
    onegrad.manual_seed(-1)
    assert onegrad.initial_seed() == 2**64 - 1 == torch.manual_seed(-1).initial_seed()
    a = onegrad.rand(10).numpy()
    onegrad.manual_seed(2**64 - 1)
    np.testing.assert_array_equal(onegrad.rand(10).numpy(), a)
    torch.seed()  # leave torch's generator as it would be


SCRIPT = """
import onegrad, numpy as np
onegrad.manual_seed(42)
a = onegrad.rand(1000).numpy(); b = onegrad.randn(7, 5, dtype="float64").numpy()
c = onegrad.randint(0, 1000, (50,)).numpy(); d = onegrad.randperm(20).numpy()
print(a.tobytes().hex(), b.tobytes().hex(), c.tobytes().hex(), d.tobytes().hex())
"""


def test_reproducible_across_processes():
    env = dict(os.environ)
    outs = [subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert outs[0] == outs[1]
    onegrad.manual_seed(42)
    here = [onegrad.rand(1000).numpy(), onegrad.randn(7, 5, dtype="float64").numpy(),
            onegrad.randint(0, 1000, (50,)).numpy(), onegrad.randperm(20).numpy()]
    assert outs[0].split() == [x.tobytes().hex() for x in here]


def threefry_ref(ctr, key):
    """Threefry-2x32-20 in numpy (Random123's definition), packed as onegrad's THREEFRY."""
    ctr = np.asarray(ctr, dtype=np.uint64)
    x0, x1 = (ctr & np.uint64(0xffffffff)).astype(np.uint32), (ctr >> np.uint64(32)).astype(np.uint32)
    k0, k1 = np.uint32(key & 0xffffffff), np.uint32(key >> 32)
    ks = [k0, k1, np.uint32(k0 ^ k1 ^ np.uint32(0x1BD11BDA))]
    rot = [13, 15, 26, 6, 17, 29, 16, 24]
    with np.errstate(over="ignore"):
        x0, x1 = x0 + ks[0], x1 + ks[1]
        for r in range(20):
            x0 = x0 + x1
            x1 = ((x1 << np.uint32(rot[r % 8])) | (x1 >> np.uint32(32 - rot[r % 8]))) ^ x0
            if r % 4 == 3:
                i = r // 4 + 1
                x0, x1 = x0 + ks[i % 3], x1 + ks[(i + 1) % 3] + np.uint32(i)
    return (x1.astype(np.uint64) << np.uint64(32)) | x0.astype(np.uint64)


@pytest.mark.parametrize("seed", [0, 1, 2**32 + 7, 2**64 - 1])
def test_rand_is_the_documented_function_of_threefry(seed):
    # rand (float32): the low word's top 23 bits as the mantissa of [1, 2), minus 1
    onegrad.manual_seed(seed)
    got = onegrad.rand(3000).numpy()
    w = threefry_ref(np.arange(3000), seed)
    bits = ((w & np.uint64(0xffffffff)) >> np.uint64(9)).astype(np.uint32) | np.uint32(0x3f800000)
    np.testing.assert_array_equal(got, bits.view(np.float32) - np.float32(1))
    # float64: the top 52 bits; counters continue after the first draw
    got64 = onegrad.rand(100, dtype="float64").numpy()
    w = threefry_ref(np.arange(3000, 3100), seed)
    np.testing.assert_array_equal(got64, ((w >> np.uint64(12)) | np.uint64(0x3ff0000000000000)).view(np.float64) - 1)


# ---- distributions (seeded: deterministic, fixed tolerances)

@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_rand_distribution(dt):
    onegrad.manual_seed(100)
    n = 1_000_000
    v = onegrad.rand(n, dtype=dt).numpy().astype(np.float64)
    assert v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 5 * math.sqrt(1 / 12 / n)
    assert abs(v.var() - 1 / 12) < 5 * math.sqrt(1 / 180 / n)  # var of (u - 1/2)^2 is 1/180
    counts = np.bincount((v * 100).astype(np.int64), minlength=100)
    chi2 = ((counts - n / 100) ** 2 / (n / 100)).sum()
    assert chi2 < 148.2  # 99 degrees of freedom, 0.1% level
    assert ks_statistic(v[:200_000], lambda x: x) < ks_bound(200_000)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_rand_half_distribution(dt):
    onegrad.manual_seed(101)
    v = onegrad.rand(100_000, dtype=dt).numpy().astype(np.float64)
    assert v.min() >= 0 and v.max() < 1
    assert abs(v.mean() - 0.5) < 0.005
    mant = 10 if dt == "float16" else 7
    assert np.all(v * 2**mant == np.round(v * 2**mant))  # the mantissa grid of [1, 2), minus 1
    assert len(np.unique(v)) == 2**mant  # every value of the grid is drawn


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_randn_distribution(dt):
    onegrad.manual_seed(200)
    n = 1_000_000
    z = onegrad.randn(n, dtype=dt).numpy().astype(np.float64)
    assert abs(z.mean()) < 5 / math.sqrt(n)
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / n)
    assert abs((z ** 3).mean()) < 5 * math.sqrt(15 / n)  # skewness 0
    assert abs((z ** 4).mean() - 3) < 5 * math.sqrt(96 / n)  # kurtosis 3
    normal_cdf = lambda x: torch.special.ndtr(torch.from_numpy(x)).numpy()  # noqa: E731
    assert ks_statistic(z[:200_000], normal_cdf) < ks_bound(200_000)


def test_normal_and_uniform_moments():
    onegrad.manual_seed(300)
    g = onegrad.normal(-1.5, 3.0, (500_000,), dtype="float64").numpy()
    assert abs(g.mean() + 1.5) < 5 * 3 / math.sqrt(5e5)
    assert abs(g.std() - 3) < 0.02
    u = Tensor.uniform(500_000, low=10, high=12).numpy().astype(np.float64)
    assert u.min() >= 10 and u.max() < 12
    assert abs(u.mean() - 11) < 5 * (2 / math.sqrt(12)) / math.sqrt(5e5)


def test_randint_uniform_over_range():
    onegrad.manual_seed(400)
    n = 600_000
    v = onegrad.randint(-10, 20, (n,)).numpy()
    assert v.min() == -10 and v.max() == 19
    counts = np.bincount(v + 10, minlength=30)
    chi2 = ((counts - n / 30) ** 2 / (n / 30)).sum()
    assert chi2 < 58.3  # 29 degrees of freedom, 0.1% level
    big = onegrad.randint(-(2**63), 2**63 - 1, (1000,)).numpy()
    assert big.min() < -(2**61) and big.max() > 2**61  # the whole int64 range, no overflow


def test_randperm_positions_are_uniform():
    onegrad.manual_seed(500)
    first = np.bincount([int(onegrad.randperm(5).numpy()[0]) for _ in range(500)], minlength=5)
    chi2 = ((first - 100) ** 2 / 100).sum()
    assert chi2 < 18.5  # 4 degrees of freedom, 0.1% level
    p = onegrad.randperm(2000).numpy()
    np.testing.assert_array_equal(np.sort(p), np.arange(2000))
    assert abs(np.corrcoef(p, np.arange(2000))[0, 1]) < 0.08


def test_multinomial_frequencies_with_replacement():
    onegrad.manual_seed(600)
    w = np.array([1.0, 0.0, 3.0, 6.0, 0.0], dtype=np.float32)  # unnormalised, zero weights
    n = 200_000
    v = Tensor(w).multinomial(n, replacement=True).numpy()
    counts = np.bincount(v, minlength=5)
    assert counts[1] == 0 and counts[4] == 0
    expected = w / w.sum() * n
    nz = expected > 0
    chi2 = ((counts[nz] - expected[nz]) ** 2 / expected[nz]).sum()
    assert chi2 < 13.9  # 2 degrees of freedom, 0.1% level


def test_multinomial_without_replacement():
    onegrad.manual_seed(700)
    w = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float64)
    rows = 5000
    v = Tensor(np.tile(w, (rows, 1))).multinomial(4).numpy()
    assert all(sorted(r) == [0, 1, 2, 3] for r in v[:200])  # all four, each once
    first = np.bincount(v[:, 0], minlength=4)
    chi2 = ((first - w * rows) ** 2 / (w * rows)).sum()
    assert chi2 < 16.3  # 3 degrees of freedom, 0.1% level
    # the second draw: P(i second) = sum_j p_j p_i / (1 - p_j)
    p2 = np.array([sum(w[j] * w[i] / (1 - w[j]) for j in range(4) if j != i) for i in range(4)])
    second = np.bincount(v[:, 1], minlength=4)
    assert ((second - p2 * rows) ** 2 / (p2 * rows)).sum() < 16.3
    z = Tensor([0.0, 0.5, 0.0, 0.5]).multinomial(2).numpy()
    assert sorted(z) == [1, 3]  # zero weights never drawn while others remain


@pytest.mark.parametrize("p", [0.0, 0.05, 0.5, 0.9, 1.0])
def test_bernoulli_rate(p):
    onegrad.manual_seed(800)
    n = 200_000
    v = Tensor.ones(n).bernoulli(p).numpy()
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(v.mean() - p) <= 5 * sigma
    q = np.full(n, p, dtype=np.float32)
    w = Tensor(q).bernoulli().numpy()
    assert abs(w.mean() - p) <= 5 * sigma + 1e-7


@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_rate_and_scale(p):
    onegrad.manual_seed(900)
    n = 200_000
    x = np.linspace(1, 2, n, dtype=np.float32)
    v = OF.dropout(Tensor(x), p).numpy()
    dropped = v == 0
    assert abs(dropped.mean() - p) < 5 * math.sqrt(p * (1 - p) / n)
    np.testing.assert_allclose(v[~dropped], x[~dropped] / (1 - p), rtol=1e-6)
    assert abs(v.mean() - x.mean()) < 0.02  # the expectation is kept
    # the two calls draw different masks
    assert not np.array_equal(OF.dropout(Tensor(x), p).numpy() == 0, dropped)
