// PrimExprs to UOps, lane by lane. This file handles the structure (variables, literals, loads,
// lets, selects, vectors); every operation's semantics comes from lower_ops.h. Loads that TIR
// does not evaluate (the untaken arm of if_then_else, the right side of a short-circuit And/Or)
// are gated, so they never read memory the program did not mean to read.
#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_reinterpret.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

UOpRef and_gate(const UOpRef& g, const UOpRef& c) {
  if (!g) return c;
  if (!c) return g;
  return UOp::alu(Ops::AND, {g, c});
}

Lanes broadcast_lanes(Lanes v, int lanes) {
  if (int(v.size()) == lanes) return v;
  if (v.size() != 1) throw InternalError("tir lowering: a " + std::to_string(v.size()) + "-lane value where " +
                                         std::to_string(lanes) + " lanes are expected");
  return Lanes(size_t(lanes), v[0]);
}

namespace {

int line_of(const PrimExpr& e) { return e->loc.line; }

Lanes lower_call(LowerState& s, const CallNode& c);

// if_then_else(c, t, f) (`lazy`: with a scalar condition each arm is lowered under it, its loads
// and faults gated, spec README decision 6) and Select (both arms evaluated, as the interpreter
// does: an out-of-bounds load or a division by zero in the arm not taken is still an error; the
// bounds checks keep its loads inside memory), then the lanes are selected.
Lanes lower_conditional(LowerState& s, const PrimExpr& cond, const PrimExpr& t, const PrimExpr& f, DataType dtype,
                        bool lazy) {
  Lanes c = lower_expr(s, cond);
  Lanes tv, fv;
  if (lazy && c.size() == 1) {
    {
      ScopedGate g(s, c[0]);
      tv = lower_expr(s, t);
    }
    ScopedGate g(s, lower_not(c[0]));
    fv = lower_expr(s, f);
  } else {
    tv = lower_expr(s, t);
    fv = lower_expr(s, f);
  }
  int lanes = dtype.lanes;
  c = broadcast_lanes(c, lanes), tv = broadcast_lanes(tv, lanes), fv = broadcast_lanes(fv, lanes);
  Lanes out;
  for (int i = 0; i < lanes; i++) out.push_back(lower_select(c[i], tv[i], fv[i]));
  return out;
}

Lanes lower_binary_expr(LowerState& s, const BinaryNode& b) {
  Lanes a = lower_expr(s, b.a), c;
  bool logical = b.kind == ExprKind::And || b.kind == ExprKind::Or;
  if (logical && a.size() == 1) {  // short circuit: b is evaluated only where a does not decide
    ScopedGate g(s, b.kind == ExprKind::And ? a[0] : lower_not(a[0]));
    c = lower_expr(s, b.b);
  } else {
    c = lower_expr(s, b.b);
  }
  int lanes = int(std::max(a.size(), c.size()));
  a = broadcast_lanes(a, lanes), c = broadcast_lanes(c, lanes);
  const DataType t = b.a->dtype.element();
  const bool divides = b.kind == ExprKind::Div || b.kind == ExprKind::Mod || b.kind == ExprKind::FloorDiv ||
                       b.kind == ExprKind::FloorMod;
  Lanes out;
  for (int i = 0; i < lanes; i++) {
    if (divides && !t.is_float()) check_divisor(s, b.kind, a[i], c[i], b.a->dtype, b.loc.line);
    out.push_back(lower_binary(b.kind, a[i], c[i], t, b.loc.line));
  }
  return out;
}

Lanes lower_shuffle(LowerState& s, const ShuffleNode& sh) {
  Lanes all;
  for (const PrimExpr& v : sh.vectors) {
    Lanes l = lower_expr(s, v);
    all.insert(all.end(), l.begin(), l.end());
  }
  Lanes out;
  for (const PrimExpr& i : sh.indices) {
    const IntImmNode* k = as_int_imm(i);
    if (!k || k->value < 0 || k->value >= int64_t(all.size()))
      throw TirNotLowerable("Shuffle", "its indices must be literals within the vectors' lanes", sh.loc.line);
    out.push_back(all[size_t(k->value)]);
  }
  return out;
}

}  // namespace

Lanes lower_expr(LowerState& s, const PrimExpr& e) {
  switch (e->kind) {
    case ExprKind::Var: {
      auto it = s.values.find(static_cast<const VarNode*>(e.get()));
      if (it == s.values.end())
        throw TirNotLowerable("Var " + static_cast<const VarNode&>(*e).name_hint,
                              "it is bound by a construct the compiler does not lower", line_of(e));
      return it->second;
    }
    case ExprKind::IntImm: return {lower_int_const(e->as<IntImmNode>()->value, e->dtype.element())};
    case ExprKind::FloatImm: return {lower_float_const(e->as<FloatImmNode>()->value, e->dtype.element())};
    case ExprKind::StringImm: throw TirNotLowerable("StringImm", "strings have no value in a kernel", line_of(e));
    case ExprKind::Cast: {
      const CastNode& c = *e->as<CastNode>();
      Lanes out;
      for (const UOpRef& v : lower_expr(s, c.value))
        out.push_back(lower_cast(v, c.value->dtype.element(), c.dtype.element(), c.loc.line));
      return broadcast_lanes(out, c.dtype.lanes);
    }
    case ExprKind::Select: {
      const SelectNode& sel = *e->as<SelectNode>();
      return lower_conditional(s, sel.condition, sel.true_value, sel.false_value, sel.dtype, /*lazy=*/false);
    }
    case ExprKind::BufferLoad: {
      const BufferLoadNode& l = *e->as<BufferLoadNode>();
      return load_buffer(s, *l.buffer, l.indices, l.predicate, l.loc.line);
    }
    case ExprKind::Ramp: {
      const RampNode& r = *e->as<RampNode>();
      UOpRef base = lower_scalar(s, r.base), stride = lower_scalar(s, r.stride);
      DataType t = r.base->dtype.element();
      Lanes out;
      for (int i = 0; i < r.lanes; i++)
        out.push_back(i == 0 ? base
                             : lower_binary(ExprKind::Add, base,
                                            lower_binary(ExprKind::Mul, stride, lower_int_const(i, t), t, r.loc.line), t,
                                            r.loc.line));
      return out;
    }
    case ExprKind::Broadcast: {
      const BroadcastNode& b = *e->as<BroadcastNode>();
      return broadcast_lanes({lower_scalar(s, b.value)}, b.lanes);
    }
    case ExprKind::Let: {
      const LetNode& l = *e->as<LetNode>();
      ScopedValue bind(s, l.var.get(), lower_expr(s, l.value));
      return lower_expr(s, l.body);
    }
    case ExprKind::Call: return lower_call(s, *e->as<CallNode>());
    case ExprKind::Shuffle: return lower_shuffle(s, *e->as<ShuffleNode>());
    case ExprKind::Not: {
      Lanes out;
      for (const UOpRef& v : lower_expr(s, e->as<NotNode>()->a)) out.push_back(lower_not(v));
      return out;
    }
    default: return lower_binary_expr(s, *e->as<BinaryNode>());
  }
}

UOpRef lower_scalar(LowerState& s, const PrimExpr& e) {
  Lanes v = lower_expr(s, e);
  if (v.size() != 1) throw InternalError("tir lowering: a vector where a scalar is expected (line " + std::to_string(line_of(e)) + ")");
  return v[0];
}

UOpRef lower_index(LowerState& s, const PrimExpr& e) {
  UOpRef v = lower_scalar(s, e);
  return v->dtype == dtypes::index ? v : UOp::create(Ops::CAST, dtypes::index, {v});
}

namespace {

Lanes lower_call(LowerState& s, const CallNode& c) {
  const int line = c.loc.line;
  if (c.calls_global) return lower_prim_func_call(s, c);
  if (c.op == "tir.if_then_else" && c.args.size() == 3) return lower_conditional(s, c.args[0], c.args[1], c.args[2], c.dtype, /*lazy=*/true);
  if (c.op == "tir.ret") throw TirNotLowerable("tir.ret", "it returns from inside an expression (only T.evaluate(T.ret(v)), `return v`, is lowered)", line);
  if (c.op == "tir.break" || c.op == "tir.continue")
    throw TirNotLowerable(c.op, "it is a statement, not a value", line);
  if (c.op == "tir.likely" && c.args.size() == 1) return lower_expr(s, c.args[0]);
  if (c.op == "tir.assume") return {UOp::const_bool(true)};  // a hint, never evaluated (as in TVM)
  if (c.op == "tir.reinterpret" && c.args.size() == 1)
    return lower_reinterpret(lower_expr(s, c.args[0]), c.args[0]->dtype, c.dtype, line);
  if (c.op == "tir.call_extern" || c.op == "tir.call_pure_extern" || c.op == "tir.call_intrin")
    throw TirNotLowerable(c.op, "it calls code outside the module", line);
  for (const PrimExpr& a : c.args)
    if (a->kind == ExprKind::StringImm) throw TirNotLowerable(c.op, "it takes a string argument (no builtin the compiler knows)", line);
  std::vector<Lanes> args;
  std::vector<DataType> types;
  for (const PrimExpr& a : c.args) {
    args.push_back(lower_expr(s, a));
    types.push_back(a->dtype.element());
  }
  const int lanes = c.dtype.lanes;
  Lanes out;
  for (int i = 0; i < lanes; i++) {
    std::vector<UOpRef> lane;
    for (Lanes& a : args) lane.push_back(broadcast_lanes(a, lanes)[size_t(i)]);
    out.push_back(lower_builtin(c.op, lane, types, c.dtype.element(), line));
  }
  return out;
}

}  // namespace

}  // namespace onegrad::tir
