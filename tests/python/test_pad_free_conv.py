"""A padded conv that reads its unpadded input (PAD_FREE_CONV=1, tensor/conv.cpp): no padded copy is
realized, the conv's loads are gated by the padding, and split_padded_loops runs its output loops as
gated edges and a middle without gates (codegen/split_padded_loops.h). Values against torch, and the
split kernel against the unsplit one (SPLIT_PADDED=0) on the same data."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import Device, Tensor

from helpers import conv_nd, torch_conv_nd

rng = np.random.default_rng(0)

# (input shape, weight shape, torch conv kwargs): odd sizes, asymmetric ('same' with an even kernel),
# stride 2, dilation, depthwise, 1-D, 2-D and 3-D
CASES = [
    ((1, 3, 11, 13), (8, 3, 3, 3), dict(padding=1)),
    ((2, 8, 20, 19), (16, 8, 3, 3), dict(padding=1, stride=2)),
    ((1, 16, 17, 9), (16, 1, 3, 3), dict(padding=1, groups=16)),
    ((1, 12, 23, 21), (12, 1, 5, 5), dict(padding=2, groups=12)),
    ((1, 6, 30, 30), (10, 6, 3, 3), dict(padding=2, dilation=2)),
    ((1, 5, 14, 18), (7, 5, 4, 4), dict(padding="same")),
    ((1, 5, 14, 18), (7, 5, 2, 3), dict(padding=(1, 2), stride=(2, 1))),
    ((2, 4, 37), (6, 4, 5), dict(padding=2)),
    ((1, 3, 7, 9, 10), (4, 3, 3, 3, 3), dict(padding=1)),
    ((1, 96, 24, 40), (24, 96, 3, 3), dict(padding=1)),
]


conv = conv_nd


def torch_conv(x, w, kw):
    return torch_conv_nd(torch.tensor(x), torch.tensor(w), kw).numpy()


@pytest.mark.parametrize("xs,ws,kw", CASES)
def test_values_match_torch_with_no_padded_copy(xs, ws, kw):
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    with onegrad.settings.override(PAD_FREE_CONV=1):
        y = conv(Tensor(x), Tensor(w), kw)
        names = [k.name for k in onegrad.kernels(y)]
        got = y.numpy()
    assert len(names) == 1 and names[0].startswith("r_"), names  # the conv alone: no E_ copy
    np.testing.assert_allclose(got, torch_conv(x, w, kw), rtol=1e-4, atol=1e-4)


def test_the_padded_copy_is_realized_by_default():
    x, w = rng.standard_normal((1, 3, 11, 13), dtype=np.float32), rng.standard_normal((8, 3, 3, 3), dtype=np.float32)
    names = [k.name for k in onegrad.kernels(Tensor(x).conv2d(Tensor(w), padding=1))]
    assert names == ["E_3_13_15", "r_8_11_13_3_3_3"], names


def test_a_computed_input_is_realized_unpadded():
    # the prologue (bias + relu) is computed once into an unpadded buffer, not once per window tap
    x, b = rng.standard_normal((1, 8, 15, 15), dtype=np.float32), rng.standard_normal((1, 8, 1, 1), dtype=np.float32)
    w = rng.standard_normal((8, 8, 3, 3), dtype=np.float32)
    with onegrad.settings.override(PAD_FREE_CONV=1):
        y = (Tensor(x) + Tensor(b)).relu().conv2d(Tensor(w), padding=1)
        names = [k.name for k in onegrad.kernels(y)]
        got = y.numpy()
    assert names == ["E_8_15_15", "r_8_15_15_8_3_3"], names
    np.testing.assert_allclose(got, torch_conv(np.maximum(x + b, 0), w, dict(padding=1)), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("xs,ws,kw", CASES)
def test_split_kernel_equals_the_unsplit_one(xs, ws, kw):
    # the pieces compute each output as the one loop did: the same sums in the same order
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    out = {}
    for split in (0, 1):
        with onegrad.settings.override(PAD_FREE_CONV=1, SPLIT_PADDED=split):
            out[split] = conv(Tensor(x), Tensor(w), kw).numpy()
    np.testing.assert_array_equal(out[0], out[1])


def test_the_middle_reads_the_input_as_vectors():
    x, w = rng.standard_normal((1, 96, 24, 40), dtype=np.float32), rng.standard_normal((24, 96, 3, 3), dtype=np.float32)
    src = {}
    for split in (0, 1):
        with onegrad.settings.override(PAD_FREE_CONV=1, SPLIT_PADDED=split):
            k, = onegrad.kernels(Tensor(x).conv2d(Tensor(w), padding=1))
            src[split] = k.source()
    # unsplit, every load of the input (b1) is gated and packed lane by lane; the middle loads vectors
    assert "og_load_f32x8(&b1[" not in src[0]
    assert "og_load_f32x8(&b1[" in src[1]


@pytest.mark.skipif(bool(Device.opencl_unavailable()), reason=Device.opencl_unavailable() or "-")
@pytest.mark.parametrize("xs,ws,kw", [CASES[1], CASES[5], CASES[7]])
def test_cl_values_match_torch(xs, ws, kw):
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    with onegrad.settings.override(PAD_FREE_CONV=1):
        got = conv(Tensor(x, device="CL"), Tensor(w, device="CL"), kw).numpy()
    np.testing.assert_allclose(got, torch_conv(x, w, kw), rtol=1e-4, atol=1e-4)


def test_threads_split_an_axis_without_padding():
    # split over threads, the rows would have edges at every part's first and last row: the THREAD
    # parts take the channel blocks, and the rows run as 1 + 78 + 1
    x, w = np.zeros((1, 96, 80, 80), np.float32), np.zeros((24, 96, 3, 3), np.float32)
    with onegrad.settings.override(PAD_FREE_CONV=1, CPU_THREADS=2):
        k, = onegrad.kernels(Tensor(x).conv2d(Tensor(w), padding=1))
        opts = k.default_opts()
        src = k.source(opts)
    assert any(o.target == "THREAD" for o in opts), opts
    assert "< 78;" in src
