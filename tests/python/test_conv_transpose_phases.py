"""A strided conv_transpose runs as a conv over its stride phases (src/tensor/conv_transpose.cpp),
realized in the phase layout, then an interleave: the conv kernel's ranges are the input's, its loads
are vectors (fused into the interleave, its loads x[o/s] and w[o%s] were gathers and the kernel stayed
scalar). Kernels and results against torch, values and gradients."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def data(n, ci, co, hw, k, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((n, ci, hw, hw), dtype=np.float32), rng.standard_normal((ci, co, k, k), dtype=np.float32),
            rng.standard_normal(co, dtype=np.float32))


def test_a_2x2_stride_2_upsampling_is_a_vector_conv_then_an_interleave():
    x, w, b = data(1, 24, 1, 160, 2)
    ks = onegrad.kernels(Tensor(x).conv_transpose2d(Tensor(w), Tensor(b), stride=2).sigmoid())
    names = [k.name for k in ks]
    # the conv: 1 channel x 4 phases at the input's 160x160, summing 24 channels; the interleave to 320x320
    assert names == ["r_4_160_160_24", "E_320_320"]
    conv = ks[0]
    assert "og_load_f32x8(&b1[" in conv.source()  # the input rows are vector loads
    assert "og_store_f32x8(&b0[" in conv.source()


def two_upsamplings(x, w1, b1, w2, b2):
    return x.conv_transpose2d(w1, b1, stride=2).relu().conv_transpose2d(w2, b2, stride=2).sigmoid()


def test_an_upsampling_of_an_upsampling_reads_its_input_realized():
    # det's head: 24 -> 24 then 24 -> 1 channels, each 2x2 stride 2. The second conv's input is the
    # first's phases interleaved (plus its bias and the relu): realized first, so that the second conv
    # loads vectors along its rows instead of gathering every element from two phase planes.
    x, w1, b1 = data(1, 24, 24, 80, 2)
    _, w2, b2 = data(1, 24, 1, 80, 2, seed=1)
    ks = onegrad.kernels(two_upsamplings(Tensor(x), Tensor(w1), Tensor(b1), Tensor(w2), Tensor(b2)))
    assert [k.name for k in ks] == ["r_96_80_80_24", "E_24_160_160", "r_4_160_160_24", "E_320_320"]
    assert "og_load_f32x8(&b1[" in ks[2].source()


def test_an_upsampling_of_an_upsampling_matches_torch():
    x, w1, b1 = data(1, 8, 6, 12, 2, seed=3)
    _, w2, b2 = data(1, 6, 2, 12, 2, seed=4)
    got = two_upsamplings(Tensor(x), Tensor(w1), Tensor(b1), Tensor(w2), Tensor(b2)).numpy()
    t = torch.from_numpy
    f = torch.nn.functional.conv_transpose2d
    want = f(f(t(x), t(w1), t(b1), stride=2).relu(), t(w2), t(b2), stride=2).sigmoid()
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n,ci,co,hw,k,stride,padding,output_padding", [
    (1, 24, 1, 16, 2, 2, 0, 0),   # det's last upsampling
    (1, 24, 24, 8, 2, 2, 0, 0),   # and the one before it
    (2, 8, 6, 7, 3, 2, 1, 1),     # taps beyond the stride, cropped
    (1, 4, 5, 6, 4, 3, 2, 0),     # stride 3
])
def test_strided_conv_transpose_matches_torch(n, ci, co, hw, k, stride, padding, output_padding):
    x, w, b = data(n, ci, co, hw, k, seed=ci + k)
    got = Tensor(x).conv_transpose2d(Tensor(w), Tensor(b), stride=stride, padding=padding,
                                     output_padding=output_padding).relu().numpy()
    want = torch.nn.functional.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(b),
                                                stride=stride, padding=padding, output_padding=output_padding).relu()
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-4, atol=1e-4)


def test_strided_conv_transpose_gradients_match_torch():
    x, w, b = data(2, 6, 4, 5, 3, seed=7)
    xs, ws = Tensor(x, requires_grad=True), Tensor(w, requires_grad=True)
    xs.conv_transpose2d(ws, stride=2, padding=1).square().sum().backward()
    xt, wt = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
    torch.nn.functional.conv_transpose2d(xt, wt, stride=2, padding=1).square().sum().backward()
    np.testing.assert_allclose(xs.grad.numpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(ws.grad.numpy(), wt.grad.numpy(), rtol=1e-4, atol=1e-3)
