// Binary elementwise ops: operands are prepared by broadcast.h (one device, one dtype by explicit
// CASTs, one shape by explicit RESHAPE + EXPAND), then one ALU node. Decomposed ops (SUB, DIV,
// CMPGT...) stay nodes where they read better; IDIV and MOD are the spec's floor ops on ints, and
// floats get floor division built from TRUNC and a WHERE fix-up.
#include "tensor/broadcast.h"
#include "tensor/tensor.h"
#include "tensor/symbolic_dims.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

Tensor binary(const std::string& name, Ops op, const Tensor& a, const Tensor& b) {
  return make_alu(op, elementwise_operands(name, {a, b}));
}

// Throws DTypeError "<op>: not supported for <dtype>" unless `ok`.
void require(bool ok, const std::string& op, DType dt, const std::string& hint = "") {
  if (!ok) throw DTypeError(op + ": not supported for " + dt.name() + hint);
}

// floor(q) for a float tensor: TRUNC rounds toward zero, so negative non-integers step down one.
Tensor floor_float(const Tensor& q) {
  Tensor t = q.trunc();
  return q.lt(t).where(t.sub(ConstValue::from_int(1)), t);
}

// Operands promoted and broadcast, but floats for true division (ints and bool go to float32).
std::vector<Tensor> float_operands(const std::string& name, const Tensor& a, const Tensor& b) {
  DType dt = promote_types(a.dtype(), b.dtype());
  return elementwise_operands(name, {a, b}, dt.is_float() ? dt : dtypes::float32);
}

}  // namespace

Tensor Tensor::add(const Tensor& o) const { return binary("add", Ops::ADD, *this, o); }
Tensor Tensor::mul(const Tensor& o) const { return binary("mul", Ops::MUL, *this, o); }

Tensor Tensor::sub(const Tensor& o) const {
  // PyTorch rejects a bool on either side, even when the other operand promotes it away.
  require(!dtype().is_bool() && !o.dtype().is_bool(), "sub", dtypes::bool_, " (use bitwise_xor or logical_not)");
  auto v = elementwise_operands("sub", {*this, o});
  return make_alu(Ops::SUB, v);
}

Tensor Tensor::div(const Tensor& o) const { return make_alu(Ops::DIV, float_operands("div", *this, o)); }

Tensor Tensor::idiv(const Tensor& o) const {
  auto v = elementwise_operands("idiv", {*this, o});
  DType dt = v[0].dtype();
  require(!dt.is_bool(), "idiv", dt);
  if (dt.is_float()) return floor_float(make_alu(Ops::DIV, v));
  return make_alu(Ops::IDIV, v);  // spec: IDIV is floor division
}

// Floor modulo: the result has the divisor's sign. Floats: a - floor(a/b)*b.
Tensor Tensor::mod(const Tensor& o) const {
  auto v = elementwise_operands("mod", {*this, o});
  DType dt = v[0].dtype();
  require(!dt.is_bool(), "mod", dt);
  if (!dt.is_float()) return make_alu(Ops::MOD, v);
  Tensor q = floor_float(make_alu(Ops::DIV, v));
  return make_alu(Ops::SUB, {v[0], make_alu(Ops::MUL, {q, v[1]})});
}

Tensor Tensor::maximum(const Tensor& o) const { return binary("maximum", Ops::MAX, *this, o); }

// min(a, b) reverses the order, takes MAX and reverses back: negation for floats (NaN still
// propagates), bitwise not for ints and bool (~x is an exact order-reversing bijection, where
// negation overflows at the most negative int).
Tensor Tensor::minimum(const Tensor& o) const {
  auto v = elementwise_operands("minimum", {*this, o});
  if (v[0].dtype().is_float()) return make_alu(Ops::MAX, {v[0].neg(), v[1].neg()}).neg();
  return make_alu(Ops::MAX, {v[0].bitwise_not(), v[1].bitwise_not()}).bitwise_not();
}

Tensor Tensor::lt(const Tensor& o) const { return binary("lt", Ops::CMPLT, *this, o); }
// The spec decomposes CMPLE/CMPGE as NOT(CMPLT), which is true when an operand is NaN. PyTorch and
// IEEE say false, so float operands get (a < b) | (a == b), which is false for NaN.
static Tensor ordered_or_equal(const std::string& name, Ops op, const Tensor& a, const Tensor& b) {
  std::vector<Tensor> v = elementwise_operands(name, {a, b});
  if (!v[0].dtype().is_float()) return make_alu(op, v);
  const Tensor& lo = op == Ops::CMPLE ? v[0] : v[1];
  const Tensor& hi = op == Ops::CMPLE ? v[1] : v[0];
  return make_alu(Ops::OR, {make_alu(Ops::CMPLT, {lo, hi}), make_alu(Ops::CMPEQ, {lo, hi})});
}

Tensor Tensor::le(const Tensor& o) const { return ordered_or_equal("le", Ops::CMPLE, *this, o); }
Tensor Tensor::gt(const Tensor& o) const { return binary("gt", Ops::CMPGT, *this, o); }
Tensor Tensor::ge(const Tensor& o) const { return ordered_or_equal("ge", Ops::CMPGE, *this, o); }
Tensor Tensor::eq(const Tensor& o) const { return binary("eq", Ops::CMPEQ, *this, o); }
Tensor Tensor::ne(const Tensor& o) const { return binary("ne", Ops::CMPNE, *this, o); }

namespace {

Tensor bitwise(const std::string& name, Ops op, const Tensor& a, const Tensor& b, bool allow_bool) {
  auto v = elementwise_operands(name, {a, b});
  DType dt = v[0].dtype();
  require(dt.is_int() || (allow_bool && dt.is_bool()), name, dt);
  return make_alu(op, v);
}

}  // namespace

Tensor Tensor::bitwise_and(const Tensor& o) const { return bitwise("bitwise_and", Ops::AND, *this, o, true); }
Tensor Tensor::bitwise_or(const Tensor& o) const { return bitwise("bitwise_or", Ops::OR, *this, o, true); }
Tensor Tensor::bitwise_xor(const Tensor& o) const { return bitwise("bitwise_xor", Ops::XOR, *this, o, true); }
Tensor Tensor::lshift(const Tensor& o) const { return bitwise("lshift", Ops::SHL, *this, o, false); }
Tensor Tensor::rshift(const Tensor& o) const { return bitwise("rshift", Ops::SHR, *this, o, false); }

// The condition is cast to bool; the branches are promoted together; all three broadcast.
Tensor Tensor::where(const Tensor& a, const Tensor& b) const {
  check_same_device("where", {*this, a, b});
  DType dt = promote_types(a.dtype(), b.dtype());
  if (has_symbolic_dim(uop_->shape()) || has_symbolic_dim(a.uop()->shape()) || has_symbolic_dim(b.uop()->shape())) {
    Shape out = broadcast_dims("where", {uop_->shape(), a.uop()->shape(), b.uop()->shape()});
    return make_alu(Ops::WHERE, {cast(dtypes::bool_).expand_symbolic(out), a.cast(dt).expand_symbolic(out),
                                 b.cast(dt).expand_symbolic(out)});
  }
  std::vector<Dims> shapes{shape(), a.shape(), b.shape()};
  Dims out = broadcast_shape("where", shapes);
  return make_alu(Ops::WHERE, {cast(dtypes::bool_).expand(out), a.cast(dt).expand(out), b.cast(dt).expand(out)});
}

// ---- with a scalar: the scalar is weakly typed (broadcast.h scalar_dtype)

Tensor Tensor::add(Scalar s) const { return add(scalar_operand("add", *this, s)); }
Tensor Tensor::sub(Scalar s) const { return sub(scalar_operand("sub", *this, s)); }
Tensor Tensor::rsub(Scalar s) const { return scalar_operand("sub", *this, s).sub(*this); }
Tensor Tensor::mul(Scalar s) const { return mul(scalar_operand("mul", *this, s)); }
Tensor Tensor::div(Scalar s) const { return div(scalar_operand("div", *this, s)); }
Tensor Tensor::rdiv(Scalar s) const { return scalar_operand("rdiv", *this, s).div(*this); }

// ---- operators

Tensor operator+(const Tensor& a, const Tensor& b) { return a.add(b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return a.sub(b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return a.mul(b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return a.div(b); }
Tensor operator-(const Tensor& a) { return a.neg(); }
Tensor operator+(const Tensor& a, Scalar b) { return a.add(b); }
Tensor operator-(const Tensor& a, Scalar b) { return a.sub(b); }
Tensor operator*(const Tensor& a, Scalar b) { return a.mul(b); }
Tensor operator/(const Tensor& a, Scalar b) { return a.div(b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return a.lt(b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return a.gt(b); }

}  // namespace onegrad
