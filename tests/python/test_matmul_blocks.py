"""The register blocks the heuristics give matmuls whose rows' bound has no 16, 12 or 6 (40 rows:
16 columns x 8 rows spill 16 accumulator registers): the block trades rows for columns, 40 columns x
2 rows (10 registers) (docs/kernel_opts.md, "Hand-coded heuristics", `unspilled_blocks`); results
against numpy."""

import numpy as np
import pytest

import onegrad
from onegrad import Tensor


def matmul_kernel(m, k, n):
    a, b = np.ones((m, k), np.float32), np.ones((k, n), np.float32)
    ks = [x for x in onegrad.kernels(Tensor(a) @ Tensor(b)) if x.name.startswith("r_")]
    assert len(ks) == 1
    return ks[0]


def blocks(kernel):
    return [str(o) for o in kernel.default_opts() if o.op == "SPLIT" and o.target in ("UPCAST", "UNROLL")]


def test_forty_rows_take_forty_columns_by_two_rows():
    # PaddleOCR rec's classifier: 16 x 8 (16 registers, spilled, its reduce unrolled by 2) before
    k = matmul_kernel(40, 120, 6640)
    assert blocks(k) == ["SPLIT(1, 40, UPCAST)", "SPLIT(0, 2, UPCAST)"]
    # 240 columns: 40 x 2 as well, not 24 columns x 4 rows (12 registers, which ran 10% slower)
    assert blocks(matmul_kernel(40, 120, 240)) == ["SPLIT(1, 40, UPCAST)", "SPLIT(0, 2, UPCAST)"]


def test_columns_without_a_wider_block_keep_theirs():
    # 368 = 16 x 23: no multiple of 8 from 24 to 64 divides it, the spilled 16 x 8 stays (unrolled by 2)
    assert blocks(matmul_kernel(40, 120, 368)) == ["SPLIT(2, 2, UNROLL)", "SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]


@pytest.mark.parametrize("m", [64, 1024])
def test_rows_that_16_divides_keep_sixteen_by_eight(m):
    assert blocks(matmul_kernel(m, 32, 1024)) == ["SPLIT(2, 2, UNROLL)", "SPLIT(1, 16, UPCAST)", "SPLIT(0, 8, UPCAST)"]


@pytest.mark.parametrize("m,k,n", [
    (40, 120, 6640),  # 40 columns x 2 rows
    (40, 120, 240),   # 40 x 2
    (40, 120, 48),    # 16 x 8 kept (no trade within 10 registers)
    (40, 37, 120),    # an odd reduction
    (40, 16, 123),    # odd columns
    (40, 24, 7),
    (20, 64, 200),
    (80, 50, 120),
    (100, 30, 88),
    (100, 33, 1000),
])
def test_matmuls_match_numpy(m, k, n):
    rng = np.random.default_rng(m + k + n)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    c = rng.standard_normal((n,), dtype=np.float32)
    got = (Tensor(a) @ Tensor(b) + Tensor(c)).numpy()
    want = a.astype(np.float64) @ b.astype(np.float64) + c
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
