"""Means over a contiguous axis of a heavy fused body (a squeeze-excite block's spatial mean of
BatchNorm + hardswish; docs/kernel_opts.md "Vector rows" and "Threads"): the row is unrolled so that
the precision rule's innermost level keeps a loop, which Expand splits into vector lane
accumulators, and the kernel is split over threads below 2^18 iterations when its body is heavy.
Values against numpy in float64 for several sizes (odd and prime rows too, and a symbolic batch)."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, Variable


def bn_hardswish(x, a, b):
    y = x * a + b
    return y * (y + 3).relu().minimum(6) / 6


def bn_hardswish_np(x, a, b):
    y = x.astype(np.float64) * a + b
    return y * np.clip(y + 3, 0, 6) / 6


def inputs(shape, seed=0):
    rng = np.random.default_rng(seed)
    c = shape[1]
    return (rng.standard_normal(shape, dtype=np.float32) * 3, rng.standard_normal((1, c, 1, 1), dtype=np.float32),
            rng.standard_normal((1, c, 1, 1), dtype=np.float32))


def mean_kernel(shape):
    x, a, b = (Tensor(v) for v in inputs(shape))
    ks = [k for k in onegrad.kernels(bn_hardswish(x, a, b).mean((2, 3))) if k.name.startswith("r_")]
    assert len(ks) == 1, [k.name for k in ks]
    return ks[0]


def test_a_spatial_mean_of_80_wide_rows_keeps_a_vector_accumulator(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "2")
    k = mean_kernel((1, 480, 6, 80))
    opts = k.default_opts()
    shape = k.optimize(opts)
    # 80 = 5 x 16 would leave 80 terms per step of the row's 5, over the precision rule's chunk of
    # 64, so the 5 would become a level and the 16 copies one chain: by 8 a loop of 5 is left
    assert "r8" in shape and "r16" not in shape, shape
    src = k.source(opts)
    assert "og_f32x8 acc" in src and "og_load_f32x8(" in src, src
    assert "< 5; r" in src, src  # the innermost level's loop around the lanes
    # 230400 iterations of a body of about a dozen ops: split over the threads
    assert any(o.target == "THREAD" for o in opts), opts


def test_a_plain_sum_of_as_many_iterations_stays_on_one_thread(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "2")
    k, = [k for k in onegrad.kernels(Tensor(np.ones((480, 480), np.float32)).sum(1)) if k.name.startswith("r_")]
    assert not any(o.target == "THREAD" for o in k.default_opts()), k.default_opts()


def test_rows_whose_16_copies_keep_a_loop_stay_unrolled_by_16():
    k = mean_kernel((1, 8, 4, 64))  # 64 = 4 x 16: a loop of 4 steps of 16 copies is within the chunk
    shape = k.optimize(k.default_opts())
    assert "r16" in shape, shape


@pytest.mark.parametrize("shape", [(1, 480, 6, 80), (1, 240, 6, 80), (2, 7, 5, 112), (1, 3, 1, 80), (1, 5, 13, 80),
                                   (1, 6, 3, 17), (1, 4, 1, 1009), (3, 2, 7, 208)])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_means_match_numpy(monkeypatch, shape, threads):
    monkeypatch.setenv("CPU_THREADS", threads)
    x, a, b = inputs(shape, seed=shape[2])
    got = bn_hardswish(Tensor(x), Tensor(a), Tensor(b)).mean((2, 3)).numpy()
    want = bn_hardswish_np(x, a, b).mean((2, 3))
    n = shape[2] * shape[3]
    np.testing.assert_allclose(got, want, rtol=2e-6 * np.sqrt(n), atol=1e-6 * np.sqrt(n))
    again = bn_hardswish(Tensor(x), Tensor(a), Tensor(b)).mean((2, 3)).numpy()
    assert got.tobytes() == again.tobytes()  # deterministic run to run


def test_means_over_a_symbolic_batch_match_numpy():
    n = Variable("n", 1, 8)
    for batch in (1, 3, 8):
        x, a, b = inputs((batch, 16, 6, 80), seed=batch)
        xt = Tensor(x).reshape(n.bind(batch), 16, 6, 80)
        got = bn_hardswish(xt, Tensor(a), Tensor(b)).mean((2, 3)).numpy()
        np.testing.assert_allclose(got, bn_hardswish_np(x, a, b).mean((2, 3)), rtol=5e-5, atol=5e-5)
