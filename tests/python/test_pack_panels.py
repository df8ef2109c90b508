"""Packed panels (src/codegen/pack_panels.h): model-shaped 1x1 convs, whose blocks of output
channels re-read one block of pixels' input rows, read them from a contiguous stack panel; the
results match torch."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def conv_kernel(x, w):
    ks = [k for k in onegrad.kernels(Tensor(x).conv2d(Tensor(w))) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


# rec's 240 -> 240 channels on 12 x 80 pixels, its 480 -> 240 on 6 x 80, det's 192 -> 192 on 20 x 20
@pytest.mark.parametrize("cin,cout,h,w", [(240, 240, 12, 80), (480, 240, 6, 80), (192, 192, 20, 20), (96, 40, 7, 9)])
def test_one_by_one_conv_matches_torch(cin, cout, h, w):
    rng = np.random.default_rng(cin + cout + h)
    x = rng.standard_normal((1, cin, h, w), dtype=np.float32)
    wt = rng.standard_normal((cout, cin, 1, 1), dtype=np.float32) * 0.1
    got = Tensor(x).conv2d(Tensor(wt)).numpy()
    want = torch.nn.functional.conv2d(torch.from_numpy(x).double(), torch.from_numpy(wt).double()).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_rec_conv_reads_a_panel():
    x = np.ones((1, 240, 12, 80), np.float32)
    wt = np.ones((240, 240, 1, 1), np.float32)
    src = conv_kernel(x, wt).source()
    assert "float lds0[3840] __attribute__((aligned(64)));" in src
    assert "og_load_f32x8(&lds0[" in src
