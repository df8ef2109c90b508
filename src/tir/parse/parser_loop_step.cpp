// Loops with a step (`range(a, b, s)`, `T.serial(a, b, step=s)`, as TVM v0.23 writes them) in the
// spec's For, which has none: the For counts k over [0, ceil((b - a) / s)) and a LetStmt binds the
// user's Var to a + k * s around the body. TVM's loop `for (v = a; v < b; v += s)` visits exactly
// these values, so the interpreter, the checks and compiled code need nothing new; the printer
// prints the counting loop and its LetStmt.
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

PrimExpr Parser::step_count(const PrimExpr& extent, int64_t step, SourceLoc l) {
  DataType t = extent->dtype;
  if (auto* e = extent->as<IntImmNode>()) {
    // An extent of zero or less runs no iteration, as TVM's loop condition is false from the start.
    int64_t n = e->value <= 0 ? 0 : e->value / step + (e->value % step != 0);
    return int_imm(n, t, l);
  }
  return make_binary(ExprKind::FloorDiv, make_binary(ExprKind::Add, extent, int_imm(step - 1, t, l), l),
                     int_imm(step, t, l), l);
}

Stmt Parser::stepped_loop_binding(const Var& var, const Var& counter, const PrimExpr& start, int64_t step, Stmt body,
                                  SourceLoc l) {
  auto n = std::make_shared<LetStmtNode>(l);
  n->var = var;
  n->value = make_binary(ExprKind::Add, start, make_binary(ExprKind::Mul, counter, int_imm(step, start->dtype, l), l), l);
  n->body = std::move(body);
  return n;
}

}  // namespace onegrad::tir
