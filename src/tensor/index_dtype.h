// The dtype of positions and counts that ops make (arange, nonzero, sort's indices, a scatter's flat
// index): int32 while every value below `n` fits, int64 from 2^31 on. int32 halves the bytes the
// index kernels move; one rule, so ops that pass positions to each other agree on it.
#pragma once
#include <cstdint>

#include "uop/dtype.h"

namespace onegrad {

inline DType index_dtype(int64_t n) { return n < (int64_t(1) << 31) ? dtypes::int32 : dtypes::int64; }

}  // namespace onegrad
