// Run-time faults and returns in compiled code (docs/tir.md, "Faults", "Returns"; spec README
// decision 7): where the interpreter raises (integer division by zero, a false AssertStmt) the
// kernel writes the fault's number into the hidden status buffer and stops: every later load and
// store is gated by the state word still being 0 (loops_running), so the arguments' memory ends as
// the interpreter leaves it when it raises, and the first fault in program order is the one
// reported. CompiledPrimFunc::run raises the interpreter's typed error after the launch. T.ret
// stops the function the same way, its value in the status buffer.
#include <algorithm>

#include "tir/interpret/interpret_errors.h"
#include "tir/ast/visitor.h"
#include "tir_compile/not_lowerable.h"
#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "uop/errors.h"

namespace onegrad::tir {

namespace {

bool is_int_division(const PrimExprNode& e) {
  const bool div = e.kind == ExprKind::Div || e.kind == ExprKind::Mod || e.kind == ExprKind::FloorDiv ||
                   e.kind == ExprKind::FloorMod;
  if (!div) return false;
  const BinaryNode& b = static_cast<const BinaryNode&>(e);
  if (b.a->dtype.is_float()) return false;
  const IntImmNode* k = as_int_imm(b.b);
  return !k || k->value == 0;
}

const CallNode* as_return(const PrimExprNode& e) {
  auto* c = e.as<CallNode>();
  return c && !c->calls_global && c->op == "tir.ret" ? c : nullptr;
}

UOpRef status_word(StatusWord w) { return UOp::index(w); }

// Where a statement can stop the function: the faults (in it and the PrimFuncs it calls), and its
// own T.ret calls (`callee_returns`: a called function's).
struct StopSites : IRVisitor {
  const IRModule* module = nullptr;
  bool faults = false, callee_returns = false;
  std::vector<const CallNode*> rets;
  std::vector<const PrimFuncNode*> callees;  // being visited (a recursive call is visited once)
  void visit_expr(const PrimExpr& e) override {
    if (!e) return;
    if (is_int_division(*e)) faults = true;
    if (const CallNode* r = as_return(*e)) (callees.empty() ? rets.push_back(r) : void(callee_returns = true));
    const CallNode* c = e->as<CallNode>();
    if (c && c->calls_global && module)
      if (PrimFunc f = module->find(c->op); f && std::find(callees.begin(), callees.end(), f.get()) == callees.end()) {
        callees.push_back(f.get());
        visit_stmt(f->body);
        callees.pop_back();
      }
    IRVisitor::visit_expr(e);
  }
  void visit_stmt(const Stmt& x) override {
    if (x && x->kind == StmtKind::AssertStmt) faults = true;
    IRVisitor::visit_stmt(x);
  }
};

StopSites stop_sites(const LowerState& s, const Stmt& st) {
  StopSites sites;
  sites.module = s.module;
  sites.visit_stmt(st);
  return sites;
}

}  // namespace

bool can_stop(const LowerState& s, const Stmt& st) {
  StopSites sites = stop_sites(s, st);
  return sites.faults || !sites.rets.empty() || sites.callee_returns;
}

bool returns(const LowerState& s, const Stmt& st) {
  StopSites sites = stop_sites(s, st);
  return !sites.rets.empty() || sites.callee_returns;
}

DataType returned_type(const Stmt& body) {
  StopSites own;  // no module: the body's own returns
  own.visit_stmt(body);
  DataType returned = DataType::void_();
  for (const CallNode* r : own.rets) {
    const int line = r->loc.line;
    if (r->args.size() != 1) throw TirNotLowerable("tir.ret", "it takes one value", line);
    DataType t = r->args[0]->dtype;
    if (t.lanes != 1) throw TirNotLowerable("tir.ret", "it returns a vector (" + t.name() + ")", line);
    uop_dtype(t, line);  // a type the kernel has
    if (!returned.is_void() && t != returned)
      throw TirNotLowerable("tir.ret", "the function's returns differ in type (" + returned.name() + ", " + t.name() + ")", line);
    returned = t;
  }
  return returned;
}

DataType open_status(LowerState& s, const Stmt& body, int64_t slot) {
  StopSites sites = stop_sites(s, body);
  const DataType returned = returned_type(body);
  if (!sites.faults && sites.rets.empty() && !s.report_bounds) return returned;  // a callee's return stops only the call
  s.status = make_var("tir_status", Type::pointer(DataType::int_(64), "global"));
  DType dt = dtypes::int64;
  UOpRef param = UOp::create(Ops::PARAM, dt.ptr(), {UOp::shape_operand(std::vector<int64_t>{kStatusWords})},
                             ParamArg{slot, dt.ptr(), Device(), std::nullopt, "", {}, {}});
  s.memory[s.status.get()] = Memory{param, DataType::int_(64)};
  return returned;
}

UOpRef function_running(LowerState& s) {
  if (!s.status) return nullptr;
  UOpRef state = load_element(s, s.status.get(), status_word(kState), nullptr, 0);
  return UOp::alu(Ops::CMPEQ, {state, UOp::const_int(dtypes::int64, 0)});
}

void raise_fault(LowerState& s, const UOpRef& cond, FaultRecord r, const std::vector<UOpRef>& details) {
  if (details.size() + 1 != r.text.size() || details.size() > size_t(kMaxDetails))
    throw InternalError("tir lowering: a fault with " + std::to_string(details.size()) + " details");
  if (!s.status) throw InternalError("tir lowering: a fault at line " + std::to_string(r.line) + " the pre-scan did not see");
  std::vector<FaultRecord>& table = *s.faults;
  size_t k = 0;
  while (k < table.size() && !(table[k] == r)) k++;
  if (k == table.size()) table.push_back(std::move(r));
  const UOpRef gate = and_gate(and_gate(s.gate, loops_running(s)), cond);
  for (size_t k = 0; k < details.size(); k++) store_element(s, s.status.get(), status_word(StatusWord(kDetail + k)), details[k], gate);
  store_element(s, s.status.get(), status_word(kState), UOp::const_int(dtypes::int64, int64_t(k) + 1), gate);
}

void check_divisor(LowerState& s, ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t, int line) {
  if (b->is_const() && b->const_value().truthy()) return;
  UOpRef zero = lower_binary(ExprKind::EQ, b, lower_int_const(0, t.element()), t.element(), line);
  MessageAround m = division_by_zero_message(kind, t);
  FaultRecord r{FaultRecord::Kind::DivisionByZero, {m.before, m.after}, line};
  raise_fault(s, zero, std::move(r), {UOp::create(Ops::CAST, dtypes::int64, {a})});
}

void lower_return(LowerState& s, const CallNode& ret) {
  const PrimExpr& e = ret.args.at(0);
  UOpRef v = lower_scalar(s, e);
  for (size_t k = s.controls.size(); k-- > 0;) {  // inside an inlined call: it returns from that
    if (!s.controls[k].is_call) continue;
    const UOpRef gate = and_gate(s.gate, loops_running(s));
    store_element(s, s.controls[k].value.get(), UOp::index(0), v, gate);
    store_element(s, s.controls[k].flags.get(), UOp::index(0), UOp::const_bool(true), gate);
    return;
  }
  // as encode_variable: an integer as itself, a float as its bits (sign-extended from its width)
  if (e->dtype.is_float())
    v = UOp::create(Ops::BITCAST, uop_dtype(DataType::int_(e->dtype.bits), ret.loc.line), {v});
  v = UOp::create(Ops::CAST, dtypes::int64, {v});
  const UOpRef gate = and_gate(s.gate, loops_running(s));
  store_element(s, s.status.get(), status_word(kReturnValue), v, gate);
  store_element(s, s.status.get(), status_word(kState), UOp::const_int(dtypes::int64, kReturned), gate);
}

}  // namespace onegrad::tir
