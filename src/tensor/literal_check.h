// Numbers a user writes into a tensor (a fill value, a setitem value, an arange bound, a number
// next to an int tensor in a comparison) against the dtype they must take. A literal that does not
// fit is a ValueRangeError, never a silent wrap: `full({2}, 2^40, int32)` used to give [0, 0], and
// arange's default int32 refuses 2^31 (Python's onegrad.Tensor.arange picks int64 there instead).
// Where an int literal meets a bool tensor it takes int64 when it does not fit int32, as torch
// (whose ints are int64) would give.
#pragma once
#include <string>

#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

// A number that does not fit the dtype it must take (a fill value of 2^40 for int32, a setitem of
// 1000 into int8): refused instead of wrapped. Python: ValueRangeError, a DTypeError and an
// OverflowError.
struct ValueRangeError : DTypeError {
  using DTypeError::DTypeError;
};

// Whether storing v in dt keeps its value: an int within dt's range (an unsigned dtype takes no
// negatives); a float whose truncation is within an int dtype's range (NaN and inf fit no int
// dtype); a finite float or any int that does not round to inf in a float dtype (inf and NaN fit
// every float dtype); any number for bool.
bool literal_fits(const Scalar& v, DType dt);

// ValueRangeError "<op>: the value 1000 does not fit int8" unless literal_fits(v, dt).
void check_literal(const std::string& op, const Scalar& v, DType dt);

// v as a 0-d tensor of dt on `device` (a canonical name), checked once under the user's op: the
// number a write or fill stores (setitem, masked_fill, scatter). Tensor::scalar is this under "scalar".
Tensor literal_scalar(const std::string& op, const Scalar& v, DType dt, const std::string& device);

// The dtype of an int literal given without one: int32 (tinygrad's default_int) when it fits,
// else int64; ValueRangeError "<op>: ..." past int64 (torch refuses those too).
DType int_literal_dtype(const std::string& op, const Scalar& v);

}  // namespace onegrad
