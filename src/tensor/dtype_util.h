// dtype checks and conversions shared by the op files. PyTorch is the reference for which dtypes
// an op accepts (docs/tensor.md "Promotion vs PyTorch"): math that is only defined on reals
// (sigmoid, exp, mean...) casts ints and bool to float32; activations torch only has for floats
// reject other dtypes; ops torch lacks for bool (abs, floor, relu...) reject bool.
#pragma once
#include <string>

#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

// The tensor as a float: float dtypes stay, ints and bool become float32.
inline Tensor as_float(const Tensor& x) { return x.dtype().is_float() ? x : x.cast(dtypes::float32); }

// A constant of x's dtype and shape holding v (for the float math written as tensor expressions).
inline Tensor float_const(const Tensor& like, double v) { return full_like(like, ConstValue::from_float(v)); }

inline bool is_half(DType dt) { return dt == dtypes::float16 || dt == dtypes::bfloat16; }

// DTypeError unless x is a float: "<op>: expected a floating-point tensor, got int32".
inline const Tensor& require_float(const std::string& op, const Tensor& x) {
  if (!x.dtype().is_float())
    throw DTypeError(op + ": expected a floating-point tensor, got " + x.dtype().name() +
                     " (cast it first, e.g. x.float())");
  return x;
}

// DTypeError for bool: "<op>: not supported for bool".
inline const Tensor& reject_bool(const std::string& op, const Tensor& x) {
  if (x.dtype().is_bool()) throw DTypeError(op + ": not supported for bool");
  return x;
}

}  // namespace onegrad
