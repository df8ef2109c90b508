// Integer Div/Mod (C's truncation) and FloorDiv/FloorMod from the dialect's IDIV and MOD, which are
// the floor forms and give 0 for a zero divisor (spec README decisions 2, 3). The interpreter raises
// TirDivisionByZero there; the expression walker reports that fault (lower_fault.cpp), the value is 0.
//
// Signed truncation from flooring: where the floor remainder r is non-zero and a and b have
// different signs, the truncated quotient is one more (q + 1) and its remainder r - b. MIN / -1
// wraps to MIN as in the interpreter (the renderer's floor helper wraps it; the remainder is 0).
#include "tir_compile/lower_ops_impl.h"

namespace onegrad::tir::lowering {

UOpRef int_div_mod(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t) {
  const bool div = kind == ExprKind::Div || kind == ExprKind::FloorDiv;
  UOpRef q = alu(Ops::IDIV, {a, b}), r = alu(Ops::MOD, {a, b});
  // unsigned (and bool): truncating and flooring agree
  if (t.code == DataType::Code::UInt || kind == ExprKind::FloorDiv || kind == ExprKind::FloorMod) return div ? q : r;
  UOpRef zero = lit(a, 0);
  UOpRef signs_differ = alu(Ops::CMPNE, {lt(a, zero), lt(b, zero)});
  UOpRef adjust = and_(signs_differ, alu(Ops::CMPNE, {r, zero}));
  return div ? where(adjust, alu(Ops::ADD, {q, lit(a, 1)}), q) : where(adjust, sub(r, b), r);
}

}  // namespace onegrad::tir::lowering
