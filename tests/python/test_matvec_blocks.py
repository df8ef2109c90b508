"""The register block the heuristics give a matrix-vector product (docs/kernel_opts.md, "Hand-coded
heuristics"): with one output axis and nothing else to block, its columns take up to 64 lanes (8
vector accumulators) instead of 16 (2 dependent FMA chains); results against numpy."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor


def upcasts(k):
    return [str(o) for o in k.default_opts() if o.op == "SPLIT" and o.target == "UPCAST"]


@pytest.mark.parametrize("n,k,block", [(512, 128, 64), (64, 240, 64), (96, 22, 32), (48, 64, 48), (20, 64, 20)])
def test_a_matrix_vector_product_blocks_up_to_64_columns(n, k, block):
    # a bound of up to 64 is taken whole (48: 6 vectors); 96 by 32; 20 stays whole (8 + 8 + 4 lanes)
    rng = np.random.default_rng(n + k)
    x = rng.standard_normal((1, k), dtype=np.float32)
    w = rng.standard_normal((k, n), dtype=np.float32)
    kern, = [q for q in onegrad.kernels(Tensor(x) @ Tensor(w)) if q.name.startswith("r_")]
    assert kern.shape == f"L{n} R{k}"
    assert upcasts(kern) == [f"SPLIT(0, {block}, UPCAST)"]
    np.testing.assert_allclose((Tensor(x) @ Tensor(w)).numpy(), x @ w, rtol=1e-5, atol=1e-5)


def test_a_matrix_product_keeps_its_two_blocks():
    # rows to block beside the columns: 16 x 8, as before
    k, = onegrad.kernels(Tensor(np.ones((64, 32), np.float32)) @ Tensor(np.ones((32, 512), np.float32)))
    assert upcasts(k) == ["SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]
