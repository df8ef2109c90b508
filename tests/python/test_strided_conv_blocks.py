"""Register blocks of kernels whose first blocked axis no load walks with unit stride
(docs/kernel_opts.md, "Hand-coded heuristics", rule 1 "Scalar blocks"): a strided depthwise conv's
output columns read every second input and share no load with its rows, so vectorize leaves their
copies scalar and the blocks are a few scalars (4 columns x 3 or 4 rows), not 16 x 8 spilled
ones; a matmul against a transposed operand, whose gathered column of B every row of the block
shares, keeps its 16 x 8 block of packed vectors. Results against torch at PaddleOCR's shapes."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def reduce_kernel(t):
    ks = [k for k in onegrad.kernels(t) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


def upcasts(k):
    return [str(o) for o in k.default_opts() if o.op == "SPLIT" and o.target == "UPCAST"]


def depthwise(c, hw, kk, stride, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((1, c, *hw), dtype=np.float32)
    w = rng.standard_normal((c, 1, kk, kk), dtype=np.float32)
    got = Tensor(x).conv2d(Tensor(w), stride=stride, padding=kk // 2, groups=c)
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), stride=stride, padding=kk // 2, groups=c)
    return got, want.numpy()


@pytest.mark.parametrize("c, hw, kk, stride, blocks", [
    (32, (160, 160), 3, 2, ["SPLIT(2, 4, UPCAST)", "SPLIT(1, 4, UPCAST)"]),   # det: 32 channels 160x160 -> 80x80
    (128, (24, 160), 3, (1, 2), ["SPLIT(2, 4, UPCAST)", "SPLIT(1, 3, UPCAST)"]),  # rec: 24x160 -> 24x80
    (96, (40, 40), 3, 2, ["SPLIT(2, 4, UPCAST)", "SPLIT(1, 4, UPCAST)"]),     # det: 40x40 -> 20x20
])
def test_strided_depthwise_conv_blocks_few_scalars(c, hw, kk, stride, blocks):
    got, want = depthwise(c, hw, kk, stride)
    k = reduce_kernel(got)
    assert upcasts(k) == blocks
    assert "og_f32x8 acc" not in k.source()  # the columns are gathers: scalar accumulators
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_strided_depthwise_5x5_matches_torch():
    # det's 192 channels 20x20 -> 10x10, 5x5 stride 2: a 10-column row blocked by 2 (no 4 divides it)
    got, want = depthwise(192, (20, 20), 5, 2, seed=1)
    assert all(int(s.split(", ")[1]) <= 10 for s in upcasts(reduce_kernel(got)))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_unit_stride_depthwise_conv_keeps_vector_blocks():
    got, want = depthwise(32, (80, 80), 3, 1, seed=2)
    k = reduce_kernel(got)
    assert upcasts(k)[0] == "SPLIT(2, 16, UPCAST)"
    assert "og_f32x8 acc" in k.source()
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)


def test_matmul_with_a_transposed_operand_keeps_packed_vector_blocks():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((64, 96), dtype=np.float32)
    b = rng.standard_normal((128, 96), dtype=np.float32)
    y = Tensor(a) @ Tensor(b).T
    k = reduce_kernel(y)
    # no output axis is unit-stride, but B's gathered column feeds every row of the block
    assert upcasts(k) == ["SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]
    assert "og_f32x8 acc" in k.source()
    np.testing.assert_allclose(y.numpy(), a @ b.T, rtol=1e-4, atol=1e-4)
