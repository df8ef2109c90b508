"""THREAD splits of kernels whose output bounds no multiple of the thread count divides
(docs/kernel_opts.md, "Threads"): a divisor of a LOOP axis with parts balanced within 10% across the
threads, instead of one thread. Shapes of the heuristics' opts and results against numpy."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor


def product(rng):  # 40 x 120 @ 120 x 1328, blocked 16 x 8 as L83 u8 L5 u16 (no wider block divides 1328)
    return rng.standard_normal((40, 120), dtype=np.float32), rng.standard_normal((120, 1328), dtype=np.float32)


@pytest.mark.parametrize("threads", ["2", "3", "4"])
def test_odd_bounds_split_into_balanced_parts(monkeypatch, threads):
    monkeypatch.setenv("CPU_THREADS", threads)
    a, b = product(np.random.default_rng(0))
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    shape = k.optimize(k.default_opts())
    assert shape.startswith("t83 "), shape  # 83 and 5 are odd: 5 parts would leave one thread 3 (or 2) of 5
    got = (Tensor(a) @ Tensor(b)).numpy()
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_even_bounds_keep_the_even_split(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "2")
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((64, 120), dtype=np.float32), rng.standard_normal((120, 6640), dtype=np.float32)
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    assert "t8 " in k.optimize(k.default_opts())


def test_one_thread_gets_no_split(monkeypatch):
    monkeypatch.setenv("CPU_THREADS", "1")
    a, b = product(np.random.default_rng(2))
    k, = onegrad.kernels(Tensor(a) @ Tensor(b))
    assert not any(axis.startswith("t") for axis in k.optimize(k.default_opts()).split())
