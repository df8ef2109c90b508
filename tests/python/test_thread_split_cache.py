"""The THREAD split of a matrix product (a 1x1 conv over its flattened pixels) keeps what each part
reads again and again within one core's cache (docs/kernel_opts.md, "Threads"): split by pixel
blocks, a part re-reads the whole weight for every block of pixels it owns, so where that weight is
larger than kCoreCacheBytes (512 KiB) the output channels are split instead; results against numpy."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor


def product(ci, co, px, seed=0):
    # the ONNX loader's layout: output channels innermost in the weight
    rng = np.random.default_rng(seed)
    return rng.standard_normal((ci, co), dtype=np.float32), rng.standard_normal((ci, px), dtype=np.float32)


def kernel(wt, x):
    ks = [k for k in onegrad.kernels(Tensor(wt).T @ Tensor(x)) if k.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


def thread_split(k):
    return [str(o) for o in k.default_opts() if o.op == "SPLIT" and o.target == "THREAD"]


def test_a_weight_larger_than_a_core_cache_is_split_by_output_channels():
    wt, x = product(480, 480, 480)  # PaddleOCR rec's 480 -> 480 on 6x80: a 900 KiB weight
    with onegrad.settings.override(CPU_THREADS=2):
        k = kernel(wt, x)
        assert k.shape == "L480 L480 R480"
        # the pixel blocks (L30) stay the outer loop, the 80 blocks of 6 channels go to the threads:
        # each of 8 parts re-reads 60 channels' weights (113 KiB) per block of pixels
        assert k.optimize(k.default_opts()) == "L30 u6 t8 L10 u16 R480"
        assert thread_split(k) == ["SPLIT(2, 8, THREAD)"]


def test_a_weight_within_a_core_cache_keeps_the_pixel_split():
    wt, x = product(240, 240, 960)  # rec's 240 -> 240 on 12x80: a 225 KiB weight
    with onegrad.settings.override(CPU_THREADS=2):
        k = kernel(wt, x)
        assert k.optimize(k.default_opts()) == "t6 L10 u6 L40 u16 R240"


def test_one_thread_has_no_split():
    wt, x = product(480, 480, 480)
    with onegrad.settings.override(CPU_THREADS=1):
        assert thread_split(kernel(wt, x)) == []


@pytest.mark.parametrize("ci,co,px", [(480, 480, 480), (240, 240, 960), (384, 368, 100)])
def test_results_match_numpy_on_two_threads(ci, co, px):
    wt, x = product(ci, co, px, seed=ci + px)
    with onegrad.settings.override(CPU_THREADS=2):
        got = (Tensor(wt).T @ Tensor(x)).numpy()
    want = wt.T.astype(np.float64) @ x.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
