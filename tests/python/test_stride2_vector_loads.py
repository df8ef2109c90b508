"""Loads of every second element (docs/kernel_opts.md "Native vector types", stride-2 loads): a
stride-2 conv's or pool's output columns read the input two apart, and vectorize makes each run of
k columns two vector loads whose even and odd lanes one shuffle picks (`og_pick2`), so the columns
are vector FMAs into vector accumulators instead of scalar copies. PaddleOCR's shapes, scaled
down; results against torch, and bit for bit against the scalar kernels (VECTORIZE=0)."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def reduce_kernel(t):
    ks = [k for k in onegrad.kernels(t) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


def depthwise(x, w, stride, padding):
    return Tensor(x).conv2d(Tensor(w), stride=stride, padding=padding, groups=x.shape[1])


@pytest.mark.parametrize("c, hw, kk, stride, padding", [
    (32, (34, 34), 3, 2, 0),       # det: a padded 162x162 input read by a 3x3 stride 2
    (48, (40, 40), 3, 2, 1),       # det's 48 channels on 40x40 -> 20x20, padded in the kernel
    (16, (12, 40), 3, (1, 2), 1),  # rec: stride (1, 2), 128 channels on 12x160 -> 12x80
    (24, (20, 20), 5, 2, 2),       # det's 5x5 stride 2 on 20x20 -> 10x10
])
def test_stride2_depthwise_conv_reads_vector_pairs(monkeypatch, c, hw, kk, stride, padding):
    rng = np.random.default_rng(c)
    x = rng.standard_normal((1, c, *hw), dtype=np.float32)
    w = rng.standard_normal((c, 1, kk, kk), dtype=np.float32)
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), stride=stride, padding=padding, groups=c).numpy()
    src = reduce_kernel(depthwise(x, w, stride, padding)).source()
    assert "og_pick2(og_i32x" in src and "og_f32x8 acc" in src
    got = depthwise(x, w, stride, padding).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    monkeypatch.setenv("VECTORIZE", "0")
    assert "og_pick2" not in reduce_kernel(depthwise(x, w, stride, padding)).source()
    assert depthwise(x, w, stride, padding).numpy().tobytes() == got.tobytes()


def test_stride2_pool_reads_vector_pairs(monkeypatch):
    # rec's average pool, window and stride (3, 2), on 3x80 -> 1x40
    x = np.random.default_rng(5).standard_normal((1, 48, 3, 80), dtype=np.float32)
    want = torch.nn.functional.avg_pool2d(torch.from_numpy(x), (3, 2), (3, 2)).numpy()
    pool = lambda: Tensor(x).avg_pool2d((3, 2), stride=(3, 2))
    assert "og_pick2(" in reduce_kernel(pool()).source()
    got = pool().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    monkeypatch.setenv("VECTORIZE", "0")
    assert pool().numpy().tobytes() == got.tobytes()


def test_stride3_conv_columns_are_no_pairs():
    # every third element is no pair of vectors: the columns stay scalar copies
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 8, 30, 30), dtype=np.float32)
    w = rng.standard_normal((8, 1, 3, 3), dtype=np.float32)
    src = reduce_kernel(depthwise(x, w, 3, 0)).source()
    assert "og_pick2" not in src
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), stride=3, groups=8).numpy()
    np.testing.assert_allclose(depthwise(x, w, 3, 0).numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_stride2_columns_of_eight_byte_lanes(dtype):
    # the shuffle's mask lanes are ints of the vector's lane size (int64 for 8-byte lanes)
    x = (np.arange(6 * 64) % 51 - 25).astype(dtype).reshape(6, 64)
    w = (np.arange(6 * 3) % 7 - 3).astype(dtype).reshape(6, 3)
    t = (Tensor(x)[:, ::2].reshape(6, 1, 32) * Tensor(w).reshape(6, 3, 1)).sum(0)
    src = reduce_kernel(t).source()
    assert "og_pick2(og_i64x" in src
    np.testing.assert_array_equal(t.numpy(), (x[:, ::2].reshape(6, 1, 32) * w.reshape(6, 3, 1)).sum(0))
