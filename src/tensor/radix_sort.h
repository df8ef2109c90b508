// The radix sort under sort.h's ops (docs/tensor.md, "Sorting"), for the tensor ops built on it
// (sort, unique along a dim): order keys, and a stable least-significant-bit-first sort of rows.
#pragma once
#include <utility>

#include "tensor/tensor.h"

namespace onegrad {

// The bits of a dtype's order key: 1 for bool, else the itemsize's.
int key_bits(DType dt);

// The unsigned key of each value: a < b in PyTorch's order iff key(a) < key(b) (-0.0 ties with
// +0.0; every NaN is one key, above +inf).
Tensor order_key(const Tensor& x);

// The rows of unsigned keys (m, n), each sorted stably on its `bits` low bits, with the positions
// the keys came from (int64, (m, n)).
std::pair<Tensor, Tensor> radix_sort_rows(Tensor keys, int bits);

}  // namespace onegrad
