"""Comparisons and WHERE on float32 vectors (docs/kernel_opts.md "Native vector types"): a blocked
matmul's epilogue with a select (a sigmoid's two branches, a leaky ReLU, a step) is computed on the
accumulators' vectors as int32 masks and a blend, not lane by lane. Values against numpy in float64,
with NaN and infinite sums among them."""

import numpy as np

import onegrad
from onegrad import Tensor


def operands(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((40, 120), dtype=np.float32)
    w = rng.standard_normal((120, 240), dtype=np.float32) * 0.3
    bias = rng.standard_normal(240, dtype=np.float32)
    bias[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30]  # whole columns of NaN and infinite sums
    return x, w, bias


def epilogue_kernel(t):
    ks = [k for k in onegrad.kernels(t) if k.name.startswith("r_")]
    assert len(ks) == 1, [k.name for k in ks]
    return ks[0]


def test_matmul_sigmoid_selects_on_vectors():
    x, w, bias = operands()
    y = (Tensor(x) @ Tensor(w) + Tensor(bias)).sigmoid()
    src = epilogue_kernel(y).source()
    assert "og_where_f32x" in src and " ? " not in src
    z = x.astype(np.float64) @ w + bias
    with np.errstate(over="ignore", invalid="ignore"):
        ref = 1 / (1 + np.exp(-z))
    np.testing.assert_allclose(y.numpy(), ref, rtol=2e-6, atol=1e-7)


def test_comparison_epilogues_match_numpy():
    x, w, bias = operands(1)
    s = Tensor(x) @ Tensor(w) + Tensor(bias)
    z = (x.astype(np.float64) @ w + bias).astype(np.float32)
    leaky = Tensor.where(s > 0, s, s * 0.125)
    assert "og_where_f32x" in epilogue_kernel(leaky).source()
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(leaky.numpy(), np.where(z > 0, z, z * 0.125), rtol=2e-5, atol=2e-5)
        step = Tensor.where((s >= 0.5) | (s != s), 1.0, 0.0) + Tensor.where((s <= -0.5) & (s == s), 2.0, 0.0)
        want = np.where((z >= 0.5) | np.isnan(z), 1.0, 0.0) + np.where((z <= -0.5) & ~np.isnan(z), 2.0, 0.0)
    far = np.abs(np.abs(z) - 0.5) > 1e-3  # the float32 sums' rounding decides the sums at the thresholds
    np.testing.assert_array_equal(step.numpy()[far], want[far])
