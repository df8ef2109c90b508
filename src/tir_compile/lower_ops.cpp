// TIR's scalar operators as UOps (lower_ops.h): literals, the arithmetic and comparison operators,
// And/Or/Not and Select. The C renderer already wraps signed +, -, * (computes them unsigned), so
// those map to ADD/SUB/MUL as they are; what differs from the UOp ops is written out here:
// truncating division (lower_int_div.cpp), fmin/fmax's NaN rule, C's <= and >= on NaN (the
// dialect's CMPLE is !(b < a), true for NaN).
#include "tir_compile/lower_ops.h"

#include "tir/interpret/interpret_value.h"
#include "tir_compile/lower_ops_impl.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

using namespace lowering;

namespace {

// The constant of TIR type t holding the interpreter's value v (one lane).
UOpRef const_of(const RuntimeValue& v, DataType t) {
  DType dt = uop_dtype(t);
  if (t.is_float()) return UOp::const_float(dt, v.floats.at(0));
  i128 x = t.code == DataType::Code::UInt ? i128(static_cast<uint64_t>(v.ints.at(0))) : i128(v.ints.at(0));
  return UOp::const_int(dt, x);
}

// a <= b as C has it: false when either is NaN (the dialect's CMPLE is !(b < a)).
UOpRef less_equal(const UOpRef& a, const UOpRef& b, DataType t) {
  if (!t.is_float()) return alu(Ops::CMPLE, {a, b});
  return or_(lt(a, b), eq_(a, b));
}

UOpRef compare(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t) {
  switch (kind) {
    case ExprKind::EQ: return eq_(a, b);
    case ExprKind::NE: return alu(Ops::CMPNE, {a, b});
    case ExprKind::LT: return lt(a, b);
    case ExprKind::GT: return lt(b, a);
    case ExprKind::LE: return less_equal(a, b, t);
    default: return less_equal(b, a, t);  // GE
  }
}

UOpRef float_binary(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t) {
  switch (kind) {
    case ExprKind::Add: return alu(Ops::ADD, {a, b});
    case ExprKind::Sub: return sub(a, b);
    case ExprKind::Mul: return alu(Ops::MUL, {a, b});
    case ExprKind::Div: return div_(a, b);
    // C's fmod: the sign of a, the magnitude of fmod(|a|, |b|), which the dialect's (Python) MOD gives exactly
    case ExprKind::Mod: return copysign_(alu(Ops::MOD, {fabs_(a), fabs_(b)}), a);
    // floor(a / b) with the quotient taken in double, as the interpreter and the renderer's IDIV both do
    case ExprKind::FloorDiv: return alu(Ops::IDIV, {a, b});
    case ExprKind::FloorMod: {  // a - floor(a / b) * b, each step in double as the interpreter computes it
      UOpRef x = to_f64(a), y = to_f64(b);
      return from_f64(sub(x, alu(Ops::MUL, {alu(Ops::IDIV, {x, y}), y})), uop_dtype(t));
    }
    case ExprKind::Min: return float_min_max(false, a, b);
    default: return float_min_max(true, a, b);  // Max
  }
}

UOpRef int_binary(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t) {
  switch (kind) {
    case ExprKind::Add: return alu(Ops::ADD, {a, b});
    case ExprKind::Sub: return sub(a, b);
    case ExprKind::Mul: return alu(Ops::MUL, {a, b});
    case ExprKind::Min: return where(lt(b, a), b, a);
    case ExprKind::Max: return alu(Ops::MAX, {a, b});
    default: return int_div_mod(kind, a, b, t);
  }
}

}  // namespace

DType uop_dtype(DataType t, int line) {
  auto fail = [&]() -> DType {
    throw TirNotLowerable(t.element().name(), "the compiled code has no " + t.element().name() + " type", line);
  };
  switch (t.code) {
    case DataType::Code::Int:
      switch (t.bits) {
        case 8: return dtypes::int8;
        case 16: return dtypes::int16;
        case 32: return dtypes::int32;
        case 64: return dtypes::int64;
        default: return fail();
      }
    case DataType::Code::UInt:
      switch (t.bits) {
        case 1: return dtypes::bool_;
        case 8: return dtypes::uint8;
        case 16: return dtypes::uint16;
        case 32: return dtypes::uint32;
        case 64: return dtypes::uint64;
        default: return fail();
      }
    case DataType::Code::Float:
      switch (t.bits) {
        case 16: return dtypes::float16;
        case 32: return dtypes::float32;
        case 64: return dtypes::float64;
        default: return fail();
      }
    case DataType::Code::BFloat:
      if (t.bits == 16) return dtypes::bfloat16;
      return fail();
    default: return fail();
  }
}

UOpRef lower_int_const(int64_t value, DataType t) { return const_of(RuntimeValue::of_int(t.element(), value), t.element()); }
UOpRef lower_float_const(double value, DataType t) {
  return const_of(RuntimeValue::of_float(t.element(), value), t.element());
}

UOpRef lower_binary(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType operand, int line) {
  const DataType t = operand.element();
  uop_dtype(t, line);
  if (kind == ExprKind::And || kind == ExprKind::Or) {
    if (!t.is_bool()) throw TirNotLowerable(expr_kind_name(kind), "operands of " + t.name() + ", not bool", line);
    return alu(kind == ExprKind::And ? Ops::AND : Ops::OR, {a, b});
  }
  if (is_cmp_op(kind)) return compare(kind, a, b, t);
  if (!is_binary_op(kind)) throw TirNotLowerable(expr_kind_name(kind), "not a binary operator", line);
  return t.is_float() ? float_binary(kind, a, b, t) : int_binary(kind, a, b, t);
}

UOpRef lower_not(const UOpRef& a) { return a->dtype.is_bool() ? not_(a) : eq_(a, lit(a, 0)); }

UOpRef lower_select(const UOpRef& c, const UOpRef& t, const UOpRef& f) {
  return where(c->dtype.is_bool() ? c : alu(Ops::CMPNE, {c, lit(c, 0)}), t, f);
}

}  // namespace onegrad::tir
