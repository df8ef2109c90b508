// A first cut of lower_ops.h, enough for the statement lowering's tests: the arithmetic the
// corpus' loops and accumulations use. The complete set (truncating Div/Mod, bit ops, the math
// builtins, float Min/Max's NaN rules) is the tir-ops branch's lower_ops.cpp, which replaces this
// file as a whole.
#include "tir_compile/lower_ops.h"

#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

DType uop_dtype(DataType t, int line) {
  if (t.is_bool()) return dtypes::bool_;
  switch (t.code) {
    case DataType::Code::Int:
      if (t.bits == 8) return dtypes::int8;
      if (t.bits == 16) return dtypes::int16;
      if (t.bits == 32) return dtypes::int32;
      if (t.bits == 64) return dtypes::int64;
      break;
    case DataType::Code::UInt:
      if (t.bits == 8) return dtypes::uint8;
      if (t.bits == 16) return dtypes::uint16;
      if (t.bits == 32) return dtypes::uint32;
      if (t.bits == 64) return dtypes::uint64;
      break;
    case DataType::Code::Float:
      if (t.bits == 16) return dtypes::float16;
      if (t.bits == 32) return dtypes::float32;
      if (t.bits == 64) return dtypes::float64;
      break;
    case DataType::Code::BFloat:
      if (t.bits == 16) return dtypes::bfloat16;
      break;
    case DataType::Code::Handle: break;
  }
  throw TirNotLowerable("dtype " + t.element().name(), "the UOp dialect has no such type", line);
}

UOpRef lower_int_const(int64_t value, DataType t) { return UOp::const_int(uop_dtype(t), value); }
UOpRef lower_float_const(double value, DataType t) { return UOp::const_float(uop_dtype(t), value); }

UOpRef lower_binary(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType operand, int line) {
  switch (kind) {
    case ExprKind::Add: return UOp::alu(Ops::ADD, {a, b});
    case ExprKind::Sub: return UOp::alu(Ops::SUB, {a, b});
    case ExprKind::Mul: return UOp::alu(Ops::MUL, {a, b});
    case ExprKind::Max: return UOp::alu(Ops::WHERE, {UOp::alu(Ops::CMPLT, {a, b}), b, a});
    case ExprKind::Min: return UOp::alu(Ops::WHERE, {UOp::alu(Ops::CMPLT, {b, a}), b, a});
    case ExprKind::FloorDiv:
      if (!operand.is_float()) return UOp::alu(Ops::IDIV, {a, b});
      break;
    case ExprKind::FloorMod:
      if (!operand.is_float()) return UOp::alu(Ops::MOD, {a, b});
      break;
    case ExprKind::Div:
      if (operand.is_float()) return UOp::alu(Ops::DIV, {a, b});
      break;
    case ExprKind::EQ: return UOp::alu(Ops::CMPEQ, {a, b});
    case ExprKind::NE: return UOp::alu(Ops::CMPNE, {a, b});
    case ExprKind::LT: return UOp::alu(Ops::CMPLT, {a, b});
    case ExprKind::LE: return UOp::alu(Ops::CMPLE, {a, b});
    case ExprKind::GT: return UOp::alu(Ops::CMPGT, {a, b});
    case ExprKind::GE: return UOp::alu(Ops::CMPGE, {a, b});
    case ExprKind::And: return UOp::alu(Ops::AND, {a, b});
    case ExprKind::Or: return UOp::alu(Ops::OR, {a, b});
    default: break;
  }
  throw TirNotLowerable(std::string(expr_kind_name(kind)) + " on " + operand.name(), "no lowering yet", line);
}

UOpRef lower_not(const UOpRef& a) { return UOp::alu(Ops::NOT, {a}); }

UOpRef lower_cast(const UOpRef& v, DataType from, DataType to, int line) {
  DType target = uop_dtype(to, line);
  (void)from;
  return v->dtype == target ? v : UOp::create(Ops::CAST, target, {v});
}

UOpRef lower_select(const UOpRef& c, const UOpRef& t, const UOpRef& f) { return UOp::alu(Ops::WHERE, {c, t, f}); }

UOpRef lower_builtin(const std::string& op, const std::vector<UOpRef>&, const std::vector<DataType>&, DataType, int line) {
  throw TirNotLowerable(op, "no lowering yet", line);
}

}  // namespace onegrad::tir
