"""Elementwise kernels that read a nearest upsample (codegen/heuristics.h, elementwise_opts): their
rows are split into 8 vector lanes, in which the upsample's `c / 2` folds to the outer part plus a
constant; a conv's input that reads one is realized before its pad copy (tensor/repeated_view.h);
elementwise kernels are threaded from 2^16 iterations on. Opts, sources and values against torch."""
import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

rng = np.random.default_rng(0)


def arr(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def up(v, f):  # nearest upsample by f, as the ONNX importer writes it (a repeated view)
    n, c, h, w = v.shape
    return v.reshape(n, c, h, 1, w, 1).expand(n, c, h, f, w, f).reshape(n, c, h * f, w * f)


def levels(c, h):  # an FPN's four levels, each scaled by (1 + hardsigmoid(s)) per channel
    return [(arr(1, c, h // f, h // f), arr(1, c, 1, 1)) for f in (1, 2, 4, 8)]


def fpn_sum(ls):
    out = None
    for (v, s), f in zip(ls, (1, 2, 4, 8)):
        t = Tensor(v) * (1 + Tensor(s).hardsigmoid())
        t = t if f == 1 else up(t, f)
        out = t if out is None else out + t
    return out


def fpn_sum_torch(ls):
    out = 0
    for (v, s), f in zip(ls, (1, 2, 4, 8)):
        t = torch.tensor(v) * (1 + torch.nn.functional.hardsigmoid(torch.tensor(s)))
        out = out + (t if f == 1 else torch.nn.functional.interpolate(t, scale_factor=f, mode="nearest"))
    return out


def only_kernel(t):
    k, = [k for k in onegrad.kernels(t) if k.name.startswith("E_") and k.name.count("_") == 3]
    return k


def test_an_upsample_sum_is_split_into_vector_lanes(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "1")
    ls = levels(6, 32)
    k = only_kernel(fpn_sum(ls))
    assert k.name == "E_6_32_32"
    assert k.optimize(k.default_opts()) == "L6 L32 L4 u8"
    src = k.source()
    # the full-size level is one vector load, the x8 level one broadcast scalar, the store a vector
    assert "og_store_f32x8(&b0[" in src and "og_load_f32x8(" in src
    # no column index is divided: the x2 level reads 4 consecutive elements from 4 * column block
    assert "r2 / " not in src and "(r2 * 4)" in src, src
    np.testing.assert_allclose(fpn_sum(ls).numpy(), fpn_sum_torch(ls).numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("h", [36, 44])  # rows of 36 / 44: no whole 8-lane blocks
def test_rows_that_are_no_whole_blocks_stay_scalar(monkeypatch, h):
    monkeypatch.setenv("CPU_THREADS", "1")
    ls = [(arr(1, 3, h // f, h // f), arr(1, 3, 1, 1)) for f in (1, 2, 4)]
    ls.append((arr(1, 3, h // 4, h // 4), arr(1, 3, 1, 1)))  # the last level upsampled by 4 too
    t = None
    ref = 0
    for (v, s), f in zip(ls, (1, 2, 4, 4)):
        a = Tensor(v) * Tensor(s)
        t = (a if f == 1 else up(a, f)) if t is None else t + (a if f == 1 else up(a, f))
        b = torch.tensor(v) * torch.tensor(s)
        ref = ref + (b if f == 1 else torch.nn.functional.interpolate(b, scale_factor=f))
    k = only_kernel(t)
    assert k.default_opts() == []
    np.testing.assert_allclose(t.numpy(), ref.numpy(), rtol=1e-6, atol=1e-6)


def test_a_plain_elementwise_kernel_gets_no_lanes(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "1")
    k = only_kernel((Tensor(arr(1, 4, 16, 16)) * 2).relu() + Tensor(arr(1, 4, 1, 1)))
    assert k.default_opts() == []  # affine indices: the C compiler vectorizes the loop itself


@pytest.mark.parametrize("c,h", [(8, 32), (5, 40)])
def test_a_conv_realizes_an_upsample_sum_before_its_pad_copy(monkeypatch, c, h):
    monkeypatch.setenv("CPU_THREADS", "2")
    ls = levels(c, h)
    w = arr(4, c, 3, 3)
    t = fpn_sum(ls).conv2d(Tensor(w), padding=1)
    names = [k.name for k in onegrad.kernels(t)]
    assert f"E_{c}_{h}_{h}" in names and f"E_{c}_{h + 2}_{h + 2}" in names, names
    ref = torch.nn.functional.conv2d(fpn_sum_torch(ls), torch.tensor(w), padding=1)
    np.testing.assert_allclose(t.numpy(), ref.numpy(), rtol=1e-4, atol=1e-4)


def test_an_odd_width_upsample_is_padded_in_one_kernel(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "1")
    x, y, w = arr(1, 3, 18, 18), arr(1, 3, 9, 9), arr(2, 3, 3, 3)
    t = (Tensor(x) + up(Tensor(y), 2)).conv2d(Tensor(w), padding=1)
    names = [k.name for k in onegrad.kernels(t)]
    assert "E_3_18_18" not in names and "E_3_20_20" in names, names
    X = torch.tensor(x) + torch.nn.functional.interpolate(torch.tensor(y), scale_factor=2)
    ref = torch.nn.functional.conv2d(X, torch.tensor(w), padding=1)
    np.testing.assert_allclose(t.numpy(), ref.numpy(), rtol=1e-4, atol=1e-4)


def test_elementwise_kernels_are_threaded_from_2_to_the_16(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "2")
    x, b = arr(1, 192, 22, 22), arr(1, 192, 1, 1)
    t = (Tensor(x) + Tensor(b)).relu().pad((1, 1, 1, 1))  # 192 x 24 x 24 = 110592 iterations
    k = only_kernel(t)
    assert k.optimize(k.default_opts()) == "t2 L96 L24 L24"
    np.testing.assert_array_equal(t.numpy(), np.pad(np.maximum(x + b, 0), ((0, 0), (0, 0), (1, 1), (1, 1))))
    small = only_kernel((Tensor(arr(1, 64, 30, 30)) + 1).relu())  # 57600 iterations: one thread
    assert "t" not in small.optimize(small.default_opts())
    # a reduction of the same size keeps 2^18
    r, = onegrad.kernels(Tensor(arr(192, 24, 24)).sum(axis=2))
    assert not r.optimize(r.default_opts()).startswith("t")
