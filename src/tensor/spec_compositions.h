// The spec's "Common Ops as Compositions", written as the spec writes them (docs/tensor.md,
// "Compositions"): gemm, prefix_sum, gather and scatter_add. The Tensor methods build on these:
// matmul is gemm (batched), arange is prefix_sum of ones, and the torch-style gather/scatter
// family generalizes the one-hot mask of gather/scatter_add to any axis.
//
// One deliberate change for floats: the spec selects with `T * mask`, which turns an unselected
// NaN or inf into NaN (inf * 0) and poisons the sum. For float dtypes the selection is
// WHERE(mask, T, 0) instead (masked_values below); ints and bool keep the spec's MUL.
#pragma once
#include "tensor/tensor.h"

namespace onegrad::spec {

// C[M,N] = (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1) for 2-D A (M,K) and B (K,N). The operands
// are promoted; the sum accumulates like Tensor::sum (int64 for ints) and is cast back to the
// promoted dtype, as torch.mm returns it. ShapeError names both shapes when they do not fit.
Tensor gemm(const Tensor& A, const Tensor& B);

// Inclusive prefix sum along the last axis (the spec's 1-D composition; leading axes are batch):
// pad n-1 zeros in front, tile n+1 times, trim to 2n*n, view as (n, 2n) windows, keep (n, n) and
// sum each row. The sum runs in T's own dtype (no widening): callers cast first when they want
// torch's cumsum dtypes. 0-d input is a ShapeError; an empty last axis returns T.
Tensor prefix_sum(const Tensor& T);

// arange(n): prefix_sum of n ones (int32; int64 from 2^31) minus 1.
Tensor arange(int64_t n, const std::string& device = default_device());

// out[i] = T[idx[i]] for 1-D T (K,) and 1-D int idx (D,): a (K, D) one-hot mask `pos == idx`,
// the masked T summed over K. The result has T's dtype. An idx outside [0, K) selects nothing and
// gives 0 (the graph cannot check data; docs/tensor.md).
Tensor gather(const Tensor& T, const Tensor& idx);

// T[idx[i]] += val[i] for 1-D T (K,), int idx (D,) and val (D,) of T's dtype: T plus the (K, D)
// masked val summed over D. Duplicate indices add up; an idx outside [0, K) adds nothing.
Tensor scatter_add(const Tensor& T, const Tensor& idx, const Tensor& val);

// ---- the pieces the one-hot compositions share (gather_scatter.cpp, linalg.cpp)

// The spec's `T * mask.cast(T.dtype)` for ints and bool; WHERE(mask, T, fill) for floats (so an
// unselected NaN/inf stays out). `fill` is the value unselected places take (0 for sums); T and
// mask broadcast.
Tensor masked_values(const Tensor& T, const Tensor& mask, ConstValue fill = ConstValue::from_int(0));

// Positions 0..K-1 as a (K,) int tensor and idx cast to the same int dtype (int32 when idx fits,
// else int64), so `pos == idx` compares exactly. DTypeError "<op>: index must be an integer tensor,
// got float32" unless idx is an int dtype.
std::pair<Tensor, Tensor> index_positions(const std::string& op, int64_t K, const Tensor& idx);

}  // namespace onegrad::spec
