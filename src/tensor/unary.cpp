// Unary elementwise ops. Transcendentals work on floats (ints and bool are cast to float32 first,
// as tinygrad and PyTorch do) and use the spec's decomposed nodes: exp(x) = EXP2(x*log2(e)),
// log(x) = LOG2(x)*ln(2).
#include <numbers>

#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/gradient.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

Tensor unary(Ops op, const Tensor& x) { return make_alu(op, {x}); }

}  // namespace

Tensor Tensor::neg() const {
  if (dtype().is_bool()) throw DTypeError("neg: not supported for bool (use logical_not)");
  return unary(Ops::NEG, *this);
}

Tensor Tensor::recip() const { return unary(Ops::RECIP, as_float(*this)); }

// Ints and bool are already whole numbers.
Tensor Tensor::trunc() const {
  reject_bool("trunc", *this);
  return dtype().is_float() ? unary(Ops::TRUNC, *this) : *this;
}

Tensor Tensor::logical_not() const { return unary(Ops::NOT, cast(dtypes::bool_)); }

// ~x: XOR with all ones for ints (the CONST -1 wraps to the dtype's all-ones value), NOT for bool.
Tensor Tensor::bitwise_not() const {
  if (dtype().is_bool()) return logical_not();
  if (!dtype().is_int()) throw DTypeError("bitwise_not: not supported for " + dtype().name());
  return make_alu(Ops::XOR, {*this, full_like(*this, ConstValue::from_int(-1))});
}

// MAX(x, 0) (NaN and -0.0 pass through, as PyTorch), tagged for PyTorch's gradient: 0 at x = 0,
// where MAX's rule would split the tie (gradient.h, kReluMaxTag). The kernel is MAX's, as fast.
Tensor Tensor::relu() const {
  reject_bool("relu", *this);
  Tensor m = make_alu(Ops::MAX, {*this, full_like(*this, ConstValue::from_int(0))});
  return Tensor(m.uop()->with_tag(kReluMaxTag), device());
}

Tensor Tensor::exp2() const { return unary(Ops::EXP2, as_float(*this)); }
Tensor Tensor::log2() const { return unary(Ops::LOG2, as_float(*this)); }
Tensor Tensor::sqrt() const { return unary(Ops::SQRT, as_float(*this)); }
Tensor Tensor::sin() const { return unary(Ops::SIN, as_float(*this)); }

// float16/bfloat16 go through float32: x*log2(e) rounded to 8 or 11 bits would cost a few percent.
Tensor Tensor::exp() const {
  if (is_half(dtype())) return cast(dtypes::float32).exp().cast(dtype());
  Tensor x = as_float(*this);
  return make_alu(Ops::MUL, {x, full_like(x, ConstValue::from_float(std::numbers::log2e))}).exp2();
}

Tensor Tensor::log() const {
  Tensor l = log2();
  return make_alu(Ops::MUL, {l, full_like(l, ConstValue::from_float(std::numbers::ln2))});
}

// |x| = MAX(x, -x): exact for floats and signed ints (the most negative int stays itself, as in
// numpy); unsigned ints are their own absolute value; bool is rejected, as in PyTorch.
Tensor Tensor::abs() const {
  if (reject_bool("abs", *this).dtype().is_unsigned()) return *this;
  return make_alu(Ops::MAX, {*this, neg()});
}

}  // namespace onegrad
