// Loops with a step (`range(a, b, s)`, `T.serial(a, b, step=s)`, as TVM v0.23 writes them) in the
// spec's For, which has none. TVM's For with a step runs `for (v = a; v < b; v += s)` (its C and
// LLVM code generators), so a step of zero or less runs no iteration when b <= a and never ends
// otherwise. Here the For counts k over [0, count) and a LetStmt binds the user's Var to a + k * s
// around the body, which visits exactly TVM's values:
//   - a positive literal step: count = ceil((b - a) / s), a literal when b - a is one;
//   - a literal step of zero or less: count = 0;
//   - a step that is an expression: count = (b - a + s - 1) // T.max(s, 1), zero or less when s <= 0
//     and b <= a (T.max keeps a zero step from dividing).
// A loop that would never end has an AssertStmt before it, false exactly then (`0 < s or b - a <= 0`),
// so the interpreter and compiled code raise the same TirAssertionError at the loop's line instead
// of hanging. The interpreter, the checks and the compiler see only For, LetStmt and AssertStmt;
// the printer prints them.
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

PrimExpr Parser::step_of(const LoopSpec& spec, DataType t, SourceLoc l) {
  return spec.step_expr ? spec.step_expr : int_imm(spec.step, t, l);
}

PrimExpr Parser::step_count(const PrimExpr& extent, const LoopSpec& spec, SourceLoc l) {
  DataType t = extent->dtype;
  if (const PrimExpr& s = spec.step_expr)
    return make_binary(ExprKind::FloorDiv,
                       make_binary(ExprKind::Sub, make_binary(ExprKind::Add, extent, s, l), int_imm(1, t, l), l),
                       make_binary(ExprKind::Max, s, int_imm(1, t, l), l), l);
  const int64_t step = spec.step;
  if (step <= 0) return int_imm(0, t, l);
  if (auto* e = extent->as<IntImmNode>()) {
    // An extent of zero or less runs no iteration, as TVM's loop condition is false from the start.
    int64_t n = e->value <= 0 ? 0 : e->value / step + (e->value % step != 0);
    return int_imm(n, t, l);
  }
  return make_binary(ExprKind::FloorDiv, make_binary(ExprKind::Add, extent, int_imm(step - 1, t, l), l),
                     int_imm(step, t, l), l);
}

Stmt Parser::stepped_loop_binding(const Var& var, const Var& counter, const PrimExpr& start, const PrimExpr& step,
                                  Stmt body, SourceLoc l) {
  auto n = std::make_shared<LetStmtNode>(l);
  n->var = var;
  n->value = make_binary(ExprKind::Add, start, make_binary(ExprKind::Mul, counter, step, l), l);
  n->body = std::move(body);
  return n;
}

Stmt Parser::guard_stepped_loop(Stmt loop, const PrimExpr& extent, const LoopSpec& spec, const std::string& name,
                                SourceLoc l) {
  if (!spec.step_expr && spec.step > 0) return loop;
  DataType t = extent->dtype;
  PrimExpr empty = make_binary(ExprKind::LE, extent, int_imm(0, t, l), l);
  PrimExpr ends;
  if (spec.step_expr) {
    ends = make_binary(ExprKind::Or, make_binary(ExprKind::LT, int_imm(0, t, l), spec.step_expr, l), empty, l);
  } else if (const IntImmNode* e = as_int_imm(extent)) {
    if (e->value <= 0) return loop;  // runs no iteration
    ends = bool_imm(false, l);
  } else {
    ends = empty;
  }
  auto n = std::make_shared<AssertStmtNode>(l);
  n->condition = ends;
  n->message = string_imm("the loop over " + name +
                              " never ends: its step is not positive while its start is below its stop "
                              "(a TIR loop runs " + name + " = start, start + step, ... while " + name + " < stop)",
                          l);
  n->body = std::move(loop);
  return n;
}

}  // namespace onegrad::tir
