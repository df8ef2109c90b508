// a ** b. The spec's POW decomposes as EXP2(LOG2(A)*B), which is NaN for a negative base and for
// 0**0; so the tensor layer takes POW of |a| and fixes the sign and the special cases around it,
// giving C pow / numpy values. Ints use exponentiation by squaring over the exponent's bits (exact,
// wrapping like numpy); PyTorch and numpy reject negative int exponents, which cannot be checked
// lazily: here they give 1/a truncated (1 for a = 1, ±1 for a = -1, else 0).
#include <limits>

#include "tensor/broadcast.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

ConstValue i(int64_t v) { return ConstValue::from_int(v); }

Tensor float_pow(const Tensor& a, const Tensor& b) {
  Tensor r = make_alu(Ops::POW, {a.abs(), b});
  Tensor b_whole = b.trunc().eq(b);
  Tensor b_odd = b_whole.bitwise_and(b.mul(ConstValue::from_float(0.5)).trunc().mul(i(2)).ne(b));
  Tensor nan = full_like(r, ConstValue::from_float(std::numeric_limits<double>::quiet_NaN()));
  // A negative base: defined for whole exponents only, negative for odd ones.
  Tensor neg_base = b_whole.where(b_odd.where(r.neg(), r), nan);
  Tensor out = a.lt(full_like(a, i(0))).where(neg_base, r);
  return b.eq(full_like(b, i(0))).where(full_like(r, i(1)), out);  // x**0 is 1, even for 0 and NaN
}

Tensor int_pow(const Tensor& a, const Tensor& b) {
  DType dt = a.dtype();
  int bits = dt.bits() - (dt.is_unsigned() ? 0 : 1);
  Tensor one = full_like(a, i(1)), zero = full_like(a, i(0));
  Tensor result = one, base = a, e = b;
  for (int k = 0; k < bits; k++) {
    result = e.bitwise_and(one).ne(zero).where(result.mul(base), result);
    if (k + 1 < bits) {
      base = base.mul(base);
      e = e.rshift(one);
    }
  }
  if (dt.is_unsigned()) return result;
  Tensor minus_one = full_like(a, i(-1));
  Tensor odd = b.bitwise_and(one).ne(zero);
  Tensor negative = a.eq(one).where(one, a.eq(minus_one).where(odd.where(minus_one, one), zero));
  return b.lt(zero).where(negative, result);
}

}  // namespace

Tensor Tensor::pow(const Tensor& o) const {
  auto v = elementwise_operands("pow", {*this, o});
  DType dt = v[0].dtype();
  if (dt.is_bool()) throw DTypeError("pow: not supported for bool");
  return dt.is_float() ? float_pow(v[0], v[1]) : int_pow(v[0], v[1]);
}

}  // namespace onegrad
