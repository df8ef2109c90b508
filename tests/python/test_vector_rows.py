"""Rows reduced in vector lanes (docs/kernel_opts.md, "Lane accumulators"): a reduction along a row
read with unit stride is unrolled by 16 (8), Expand splits it into 8 lane accumulators that vectorize
makes one vector accumulator, and the lanes are added after the loop. Sums, maxima, means, variances,
softmax and layer norm against numpy/torch; VECTORIZE=0 (8 scalar accumulators) gives the same bits;
the opts and the vector accumulator in the source."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Device, Tensor

ROWS = [(256, 4096), (40, 120), (7, 1000), (3, 6656), (5, 72), (2, 1 << 16)]


def reduce_kernel(t):
    ks = [k for k in onegrad.kernels(t) if k.name.startswith("r_")]
    assert len(ks) == 1, [k.name for k in onegrad.kernels(t)]
    return ks[0]


@pytest.mark.parametrize("shape", ROWS)
@pytest.mark.parametrize("op", ["sum", "max", "mean", "var"])
def test_row_reductions_match_numpy(shape, op):
    x = np.random.default_rng(0).standard_normal(shape, dtype=np.float32) * 3 + 1
    t = Tensor(x)
    got = {"sum": lambda: t.sum(-1), "max": lambda: t.max(axis=-1), "mean": lambda: t.mean(-1), "var": lambda: t.var(-1)}[op]().numpy()
    x64 = x.astype(np.float64)
    want = {"sum": x64.sum(-1), "max": x64.max(-1), "mean": x64.mean(-1), "var": x64.var(-1, ddof=1)}[op]
    if op == "max":
        np.testing.assert_array_equal(got, want.astype(np.float32))
    else:
        np.testing.assert_allclose(got, want, rtol=2e-6 * np.sqrt(shape[-1]), atol=1e-6 * np.sqrt(shape[-1]))


def test_integer_row_sums_are_exact():
    x = np.random.default_rng(1).integers(-1000, 1000, (33, 4096), dtype=np.int32)
    np.testing.assert_array_equal(Tensor(x).sum(-1).numpy(), x.sum(-1, dtype=np.int32))


def test_a_row_sum_reads_its_row_as_vectors_into_lane_accumulators():
    k = reduce_kernel(Tensor(np.zeros((256, 4096), np.float32)).sum(-1))
    shape = k.optimize(k.default_opts())
    assert "r16" in shape and "u" not in shape, shape  # the reduce unrolled, no upcast rows
    src = k.source(k.default_opts())
    assert "og_f32x8 acc" in src and "og_load_f32x8(" in src, src
    assert "[7];" in src, src  # the last lane, added after the loop


def test_a_softmax_unrolls_its_maximum_and_its_sum():
    k = reduce_kernel(Tensor(np.zeros((40, 6656), np.float32)).softmax(-1))
    shape = k.optimize(k.default_opts())
    assert shape.count("r16") == 2 and "u16" in shape, shape
    src = k.source(k.default_opts())
    assert "og_fmax_f32x8(val0" in src, src  # the maximum's vector accumulator


@pytest.mark.parametrize("program", ["sum", "max", "softmax", "layer_norm"])
def test_lanes_give_the_same_bits_without_vectors(monkeypatch, program):
    x = np.random.default_rng(2).standard_normal((40, 1024), dtype=np.float32) * 5
    run = {
        "sum": lambda: Tensor(x).sum(-1).numpy(),
        "max": lambda: Tensor(x).max(axis=-1).numpy(),
        "softmax": lambda: Tensor(x).softmax(-1).numpy(),
        "layer_norm": lambda: Tensor(x).layer_norm((1024,)).numpy(),
    }[program]
    vector = run()
    monkeypatch.setenv("VECTORIZE", "0")
    assert vector.tobytes() == run().tobytes()


@pytest.mark.parametrize("shape", [(40, 6625), (4, 1328), (6, 300)])
def test_softmax_and_layer_norm_match_torch(shape):
    x = np.random.default_rng(3).standard_normal(shape, dtype=np.float32) * 6
    np.testing.assert_allclose(Tensor(x).softmax(-1).numpy(), torch.from_numpy(x).softmax(-1).numpy(), rtol=1e-5, atol=1e-7)
    ln = torch.nn.functional.layer_norm(torch.from_numpy(x), (shape[-1],)).numpy()
    np.testing.assert_allclose(Tensor(x).layer_norm((shape[-1],)).numpy(), ln, rtol=1e-4, atol=1e-5)


def test_a_long_sum_stays_accurate():
    x = np.full((1, 1 << 22), 0.1, np.float32)
    got = float(Tensor(x).sum(-1).numpy()[0])
    assert abs(got - 0.1 * (1 << 22)) / (0.1 * (1 << 22)) < 1e-6, got


@pytest.mark.skipif(bool(Device.opencl_unavailable()), reason="no OpenCL device")
@pytest.mark.parametrize("rows", [8, 250])
def test_softmax_lanes_on_cl_match_the_cpu(rows):
    # the lanes' sources zip into narrower vectors there (float2 pairs of a lane's two copies), a
    # second zip of nodes made by the first: the zip's memo must hold what it keys
    x = np.random.default_rng(4).standard_normal((rows, 64), dtype=np.float32)
    cl = Tensor(x, device="CL").softmax(-1).numpy()
    np.testing.assert_allclose(cl, Tensor(x).softmax(-1).numpy(), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(cl.sum(-1), np.ones(rows), rtol=1e-6)
