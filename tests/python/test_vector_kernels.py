"""Native vector types (docs/kernel_opts.md "Native vector types"): an UPCAST output axis over
consecutive elements renders as GCC vector types with vector loads and accumulators; VECTORIZE=0 gives
the scalar copies; results agree bit for bit with the scalar kernels and with numpy."""

import re

import numpy as np
import pytest

import onegrad
from onegrad import Opt, Tensor


def matmul(rng):
    a = rng.standard_normal((16, 24), dtype=np.float32)
    b = rng.standard_normal((24, 32), dtype=np.float32)
    return a, b


def test_blocked_matmul_source_has_vector_types(monkeypatch):
    a, b = matmul(np.random.default_rng(0))
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    opts = [Opt.split(1, 8, "UPCAST"), Opt.split(0, 2, "UPCAST")]
    src = k.source(opts)
    assert "typedef float og_f32x8 __attribute__((vector_size(32)));" in src
    assert "og_load_f32x8(&b2[" in src and "og_f32x8 acc1[1] = {0};" in src
    monkeypatch.setenv("VECTORIZE", "0")
    assert "og_f32x" not in k.source(opts)


@pytest.mark.parametrize("program", ["matmul", "column_sum", "row_sum"])
def test_vectorized_results_are_bit_identical(monkeypatch, program):
    rng = np.random.default_rng(1)
    a, b = matmul(rng)
    run = {
        "matmul": lambda: (Tensor(a) @ Tensor(b)).numpy(),
        "column_sum": lambda: Tensor(b).sum(0).numpy(),
        "row_sum": lambda: Tensor(b).sum(1).numpy(),
    }[program]
    vector = run()
    monkeypatch.setenv("VECTORIZE", "0")
    scalar = run()
    assert vector.tobytes() == scalar.tobytes()
    want = {"matmul": a @ b, "column_sum": b.sum(0), "row_sum": b.sum(1)}[program]
    np.testing.assert_allclose(vector, want, rtol=1e-5, atol=1e-5)


def softmax_input(rng):
    """Rows of wide and narrow spread, with ±inf, NaN, ±0 and subnormals in some rows."""
    x = rng.standard_normal((32, 1024)).astype(np.float32) * np.float32(40)
    x[1] *= np.float32(1e-3)
    x[2, 5], x[3, 7], x[4, 9] = np.inf, -np.inf, np.nan
    x[5] = -np.inf
    x[6, ::3] = np.float32(1e-40)  # subnormal
    x[7, :] = 0.0
    x[7, ::2] = -0.0
    return x


def test_softmax_exp_is_vector_code_with_the_scalar_bits(monkeypatch):
    """The float32 EXP2 inside softmax's 16-wide output loop and its unrolled sum of exponentials is
    vector code (its int32 exponent arithmetic and bitcasts too) computing the scalar kernel's bits;
    both near torch's."""
    torch = pytest.importorskip("torch")
    x = softmax_input(np.random.default_rng(2))
    k, = onegrad.kernels(Tensor(x).softmax(-1))
    src = k.source()
    assert "og_i32x" in src and "(og_u32x" in src, src
    # the sum of exponentials: unrolled by 16 into 8 lane accumulators, one vector accumulator
    # (2^x's polynomial times 2^n fused into it: fuse_mulacc), its lanes added after the loop
    assert Opt.split(3, 16, "UNROLL") in k.default_opts()
    assert re.search(r"= og_fma_f32x8\(", src), src
    assert "[7];" in src, src
    vector = Tensor(x).softmax(-1).numpy()
    monkeypatch.setenv("VECTORIZE", "0")
    assert "og_i32x" not in k.source()
    scalar = Tensor(x).softmax(-1).numpy()
    assert np.array_equal(np.isnan(vector), np.isnan(scalar))
    assert vector[~np.isnan(vector)].tobytes() == scalar[~np.isnan(scalar)].tobytes()
    want = torch.from_numpy(x).softmax(-1).numpy()
    np.testing.assert_allclose(vector, want, rtol=2e-6, atol=1e-7, equal_nan=True)
