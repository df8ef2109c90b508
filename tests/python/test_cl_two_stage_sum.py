"""Whole-tensor float32 sums on a CL device whose work items run in turn (PoCL): realized as 64
partial sums of consecutive elements (a row reduction over several workgroups), then their sum
(engine/two_stage_sum.h, docs/kernel_opts.md "Workgroups"). The kernels as onegrad.kernels lists
them, and the values against float64 on sizes whose rows are not a multiple of the lanes, shapes
of several axes, fused bodies, and sizes that stay one kernel. CL is PoCL here and in CI (a GPU's
work items do not run in turn, and its sums stay one kernel). Skips, naming why, without an OpenCL
platform."""
import numpy as np
import pytest

import onegrad
from onegrad import Device, Tensor

pytestmark = pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")


def close_to_float64(got, x):
    want = x.astype(np.float64).sum()
    scale = np.abs(x).astype(np.float64).sum()
    assert abs(float(got) - want) <= 1e-5 * scale, (float(got), want)


@pytest.mark.parametrize("shape", [(64 * 4099,), (64 * 4096,), (512, 1000), (8, 64, 1025)])
def test_split_sums_are_two_kernels_and_close_to_float64(shape):
    x = np.random.default_rng(7).standard_normal(shape, dtype=np.float32)
    t = Tensor(x, device="CL")
    n = x.size
    ks = onegrad.kernels(t.sum())
    assert [k.name for k in ks] == [f"r_64_{n // 64}", "r_64"], [k.name for k in ks]
    assert [k.shape for k in ks] == [f"L64 R{n // 64}", "R64"]
    got = t.sum().numpy()
    close_to_float64(got, x)
    # the same sum on the CPU backend (one kernel, other partial sums): close, not equal
    np.testing.assert_allclose(got, Tensor(x).sum().numpy(), rtol=1e-5)


def test_fused_body_and_keepdim():
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((2, 1 << 18), dtype=np.float32)
    ta, tb = Tensor(a, device="CL"), Tensor(b, device="CL")
    out = ((ta * tb + 1).relu() * 2).sum(keepdim=True)
    assert out.shape == (1,)
    assert len(onegrad.kernels(out)) == 2
    close_to_float64(out.numpy()[0], (np.maximum(a * b + 1, 0) * 2))


@pytest.mark.parametrize("n", [(1 << 18) + 1, (1 << 18) - 64, 64 * 4099 + 32])
def test_sizes_that_stay_one_kernel(n):
    """Too few elements, or a count that 64 does not divide: one kernel, as before."""
    x = np.random.default_rng(9).standard_normal(n, dtype=np.float32)
    t = Tensor(x, device="CL")
    assert len(onegrad.kernels(t.sum())) == 1
    close_to_float64(t.sum().numpy(), x)


def test_partial_sums_and_gradient():
    """Sums over some axes are not split; the gradient of a split sum is the ones it should be."""
    x = np.random.default_rng(10).standard_normal((512, 1024), dtype=np.float32)
    t = Tensor(x, device="CL", requires_grad=True)
    assert len(onegrad.kernels(t.sum(0))) == 1
    np.testing.assert_allclose(t.sum(1).numpy(), x.sum(1), rtol=1e-4, atol=1e-3)
    t.sum().backward()
    assert np.array_equal(t.grad.numpy(), np.ones_like(x))
