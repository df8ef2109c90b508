// break and continue (docs/tir.md, "Compiling"). A loop whose body breaks or continues keeps two
// flags in a register buffer: [0] "broken", set by a break and never reset, [1] "continued", set by
// a continue and reset at each iteration's start. Every load and store in the loop is gated by both
// being clear (loops_running), read afresh at that point: the memory edges of lower_memory.cpp
// order those reads after the flag stores before them. The loop itself runs all its iterations.
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

enum Flag : int64_t { kBroken = 0, kContinued = 1 };

void set_flag(LowerState& s, const VarNode* flags, Flag f, bool value, const UOpRef& gate) {
  store_element(s, flags, UOp::index(f), UOp::const_bool(value), gate);
}

}  // namespace

UOpRef loops_running(LowerState& s) {
  UOpRef running;
  for (const LoopControl& c : s.controls) {
    if (!c.flags) continue;
    for (Flag f : {kBroken, kContinued})
      running = and_gate(running, UOp::alu(Ops::NOT, {load_element(s, c.flags.get(), UOp::index(f), nullptr, 0)}));
  }
  return and_gate(running, function_running(s));
}

void open_loop_control(LowerState& s, const Stmt& body) {
  LoopControl c;
  if (has_loop_control(body)) {
    c.flags = make_var("loop_flags", Type::pointer(DataType::bool_(), "local"));
    allocate(s, c.flags, DataType::bool_(), {int_imm(2, DataType::int_(32))}, "loop flags", 0);
    for (OpenLoop& l : s.loops) l.stores->insert(c.flags.get());
    set_flag(s, c.flags.get(), kBroken, false, and_gate(s.gate, loops_running(s)));
  }
  s.controls.push_back(c);
}

void start_iteration(LowerState& s) {
  if (const Var& flags = s.controls.back().flags) set_flag(s, flags.get(), kContinued, false, s.gate);
}

void close_loop_control(LowerState& s) { s.controls.pop_back(); }

void break_or_continue(LowerState& s, bool is_break, int line) {
  if (s.controls.empty() || !s.controls.back().flags || s.controls.back().is_call)
    throw TirNotLowerable(is_break ? "tir.break" : "tir.continue", "it is outside a loop", line);
  set_flag(s, s.controls.back().flags.get(), is_break ? kBroken : kContinued, true, and_gate(s.gate, loops_running(s)));
}

bool has_loop_control(const Stmt& st) {
  if (!st) return false;
  switch (st->kind) {
    case StmtKind::Evaluate: {
      auto* c = st->as<EvaluateNode>()->value->as<CallNode>();
      return c && !c->calls_global && (c->op == "tir.break" || c->op == "tir.continue");
    }
    case StmtKind::LetStmt: return has_loop_control(st->as<LetStmtNode>()->body);
    case StmtKind::AttrStmt: {
      const AttrStmtNode& a = *st->as<AttrStmtNode>();
      return !a.node_iter_var && has_loop_control(a.body);  // T.launch_thread is a loop of its own
    }
    case StmtKind::AssertStmt: return has_loop_control(st->as<AssertStmtNode>()->body);
    case StmtKind::BufferRealize: return has_loop_control(st->as<BufferRealizeNode>()->body);
    case StmtKind::Allocate: return has_loop_control(st->as<AllocateNode>()->body);
    case StmtKind::DeclBuffer: return has_loop_control(st->as<DeclBufferNode>()->body);
    case StmtKind::SeqStmt:
      for (const Stmt& x : st->as<SeqStmtNode>()->seq)
        if (has_loop_control(x)) return true;
      return false;
    case StmtKind::IfThenElse:
      return has_loop_control(st->as<IfThenElseNode>()->then_case) || has_loop_control(st->as<IfThenElseNode>()->else_case);
    case StmtKind::BlockRealize: {
      const BlockNode& b = *st->as<BlockRealizeNode>()->block;
      return has_loop_control(b.init) || has_loop_control(b.body);
    }
    case StmtKind::Block: return has_loop_control(st->as<BlockNode>()->body);
    case StmtKind::BufferStore: case StmtKind::For: case StmtKind::While: return false;
  }
  return false;
}

}  // namespace onegrad::tir
