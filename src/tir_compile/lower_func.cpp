#include "tir_compile/lower_func.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "codegen/heuristics.h"
#include "codegen/iteration_rows.h"
#include "runtime/thread_pool.h"
#include "tir/ast/visitor.h"
#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

// The Vars an expression reads, in order of first use.
struct VarCollector : IRVisitor {
  std::vector<const VarNode*> vars;
  std::unordered_set<const VarNode*> seen;
  void visit_expr(const PrimExpr& e) override {
    if (e && e->kind == ExprKind::Var && seen.insert(static_cast<const VarNode*>(e.get())).second)
      vars.push_back(static_cast<const VarNode*>(e.get()));
    IRVisitor::visit_expr(e);
  }
};

// The C-friendly, kernel-unique name of a variable slot (the renderer writes `var_NAME`).
std::string slot_name(const VarNode& v, std::unordered_set<std::string>& used) {
  std::string n;
  for (char c : v.name_hint) n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0]))) n = "v" + n;
  std::string unique = n;
  for (int k = 1; !used.insert(unique).second; k++) unique = n + "_" + std::to_string(k);
  return unique;
}

// The range of values the slot of a variable of type t holds (its bits, for a float).
std::pair<int64_t, int64_t> slot_bounds(DataType t) {
  if (t.is_bool()) return {0, 1};
  if (t.is_float() || t.bits >= 64) return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  if (t.is_int()) return {-(int64_t(1) << (t.bits - 1)), (int64_t(1) << (t.bits - 1)) - 1};
  return {0, (int64_t(1) << t.bits) - 1};
}

// The integer type of a float's width: its bits travel in the slot.
DataType bits_type(DataType t) { return DataType::int_(t.bits); }

// A variable's value in the kernel, from the `index` its slot holds.
UOpRef variable_value(const UOpRef& slot, const VarNode& v, int line) {
  DataType t = v.dtype;
  if (t.is_handle() || t.is_void() || t.lanes != 1)
    throw TirNotLowerable("parameter " + v.name_hint + " of type " + t.name(), "the kernel takes scalar numbers and buffers", line);
  if (!t.is_float()) return UOp::create(Ops::CAST, uop_dtype(t, line), {slot});
  UOpRef bits = UOp::create(Ops::CAST, uop_dtype(bits_type(t), line), {slot});
  return UOp::create(Ops::BITCAST, uop_dtype(t, line), {bits});
}

bool is_plain_root(const BlockRealizeNode& br) {
  const BlockNode& b = *br.block;
  return b.iter_vars.empty() && b.alloc_buffers.empty() && b.match_buffers.empty() && !b.init &&
         (!br.predicate || is_const_int(br.predicate, 1));
}

// The parallel For that can be the kernel's one THREAD axis: the whole body (past attributes,
// buffer declarations and a plain root block) is that loop, with constant bounds. Everything a
// THREAD kernel computes outside the axis runs once per thread, so nothing with effects may be there.
// A loop that returns (or calls a PrimFunc that does) runs serially: the first return must win.
// The loop is split into cpu_threads() parts (runtime/thread_pool.h), at most one per iteration.
const ForNode* thread_loop(const LowerState& state, const Stmt& body) {
  Stmt s = body;
  while (s) {
    if (auto* a = s->as<AttrStmtNode>(); a && !a->node_iter_var) s = a->body;
    else if (auto* d = s->as<DeclBufferNode>()) s = d->body;
    else if (auto* br = s->as<BlockRealizeNode>(); br && is_plain_root(*br)) s = br->block->body;
    else break;
  }
  const ForNode* f = s ? s->as<ForNode>() : nullptr;
  if (!f || f->kind != ForKind::Parallel || has_loop_control(f->body) || returns(state, f->body)) return nullptr;
  const IntImmNode* extent = as_int_imm(f->extent);
  return extent && extent->value >= 1 && as_int_imm(f->min) ? f : nullptr;
}

// How many times the innermost statements of `st` run, counting loops with constant extents (a
// loop with another extent counts once): the work a THREAD axis would share.
int64_t static_iterations(const Stmt& st) {
  if (!st) return 0;
  if (auto* f = st->as<ForNode>()) {
    const IntImmNode* e = as_int_imm(f->extent);
    return std::max<int64_t>(e ? e->value : 1, 1) * std::max<int64_t>(static_iterations(f->body), 1);
  }
  if (auto* q = st->as<SeqStmtNode>()) {
    int64_t n = 0;
    for (const Stmt& x : q->seq) n += static_iterations(x);
    return n;
  }
  if (auto* br = st->as<BlockRealizeNode>()) return static_iterations(br->block->body);
  if (auto* l = st->as<LetStmtNode>()) return static_iterations(l->body);
  if (auto* i = st->as<IfThenElseNode>()) return std::max(static_iterations(i->then_case), static_iterations(i->else_case));
  return 1;
}

// The loops that can share one THREAD axis when no parallel loop is the kernel's: the body (past
// attributes, buffer declarations and a root block, which may allocate) is a sequence of loops
// with constant bounds, without break, continue or return, in a function that cannot fault (the
// status buffer would be every thread's). Thread t runs the t-th chunk of each loop's iterations,
// the loops one after the other: the serial result when every iteration touches only its own rows
// of what the kernel stores and reads back, which lower_prim_func checks on the lowered kernel
// (codegen/iteration_rows.h), lowering again without the axis when it does not hold. Below
// kMinThreadIterations innermost iterations the launch would cost more than it saves.
std::vector<const ForNode*> thread_nests(const LowerState& state, const Stmt& body) {
  if (state.status) return {};
  Stmt s = body;
  while (s) {
    if (auto* a = s->as<AttrStmtNode>(); a && !a->node_iter_var) s = a->body;
    else if (auto* d = s->as<DeclBufferNode>()) s = d->body;
    else if (auto* br = s->as<BlockRealizeNode>(); br && br->block->iter_vars.empty() && br->block->match_buffers.empty() &&
                                                     !br->block->init && (!br->predicate || is_const_int(br->predicate, 1)))
      s = br->block->body;
    else break;
  }
  if (!s || static_iterations(s) < kMinThreadIterations) return {};
  std::vector<Stmt> seq = s->as<SeqStmtNode>() ? s->as<SeqStmtNode>()->seq : std::vector<Stmt>{s};
  std::vector<const ForNode*> out;
  for (const Stmt& x : seq) {
    const ForNode* f = x->as<ForNode>();
    const IntImmNode* extent = f ? as_int_imm(f->extent) : nullptr;
    if (!f || !extent || extent->value < 2 || !as_int_imm(f->min) || has_loop_control(f->body) || returns(state, f->body))
      return {};
    out.push_back(f);
  }
  return out;
}

}  // namespace

// match_buffer data -> its source's data, for every block of the body (a loop's stores through a
// matched buffer are stores to the source's memory: lower_stmt.cpp needs that before the block).
void collect_aliases(const Stmt& body, LowerState& s) {
  struct Aliases : IRVisitor {
    LowerState& s;
    explicit Aliases(LowerState& st) : s(st) {}
    void visit_stmt(const Stmt& st) override {
      if (auto* br = st ? st->as<BlockRealizeNode>() : nullptr)
        for (const MatchBufferRegion& m : br->block->match_buffers) s.alias[m.buffer->data.get()] = m.source.buffer->data.get();
      IRVisitor::visit_stmt(st);
    }
  } aliases(s);
  aliases.visit_stmt(body);
}

std::vector<const VarNode*> variable_slots(const PrimFuncNode& f) {
  VarCollector vars;
  std::unordered_set<const VarNode*> data;
  for (const Var& p : f.params) {
    Buffer b = f.buffer_of(p);
    if (!b) {
      vars.visit_expr(p);
      continue;
    }
    data.insert(b->data.get());
    for (const PrimExpr& e : b->shape) vars.visit_expr(e);
    for (const PrimExpr& e : b->strides) vars.visit_expr(e);
    if (b->elem_offset) vars.visit_expr(b->elem_offset);
  }
  std::vector<const VarNode*> out;
  for (const VarNode* v : vars.vars)
    if (!data.count(v)) out.push_back(v);
  return out;
}

namespace {

LoweredPrimFunc lower(const PrimFuncNode& f, const std::string& name, const IRModule* module, bool report_bounds,
                      const std::vector<const ForNode*>& upcast, const std::unordered_set<const StmtNode*>& bounds_loops,
                      bool share_thread) {
  LoweredPrimFunc out;
  LowerState s;
  // the first lowering collects the loops, the second reads them (report_bounds never adds any)
  s.bounds_loops = &out.bounds_loops;
  if (report_bounds) out.bounds_loops = bounds_loops;
  s.upcast = &upcast;
  s.upcast_ranges = &out.upcast_ranges;
  s.module = module;
  s.inlining.push_back(&f);
  std::vector<UOpRef> effects;
  s.body = &effects;
  // buffer slots, in parameter order
  for (size_t p = 0; p < f.params.size(); p++) {
    Buffer b = f.buffer_of(f.params[p]);
    if (!b) continue;
    // `T.match_buffer(b, ..., data=A.data)`: B is another view of A's array (bind_arguments checks that
    // its array starts there), addressed through A's slot with its own shape and strides
    if (s.memory.count(b->data.get())) {
      s.bound_buffers.insert(b.get());
      continue;
    }
    int64_t size = b->dtype.lanes;
    for (const PrimExpr& d : b->shape) size = as_int_imm(d) ? size * std::max<int64_t>(as_int_imm(d)->value, 0) : 1;
    DType dt = uop_dtype(b->dtype.element(), b->loc.line);
    int64_t slot = int64_t(out.buffer_params.size());
    UOpRef param = UOp::create(Ops::PARAM, dt.ptr(), {UOp::shape_operand(std::vector<int64_t>{std::max<int64_t>(size, 1)})},
                               ParamArg{slot, dt.ptr(), Device(), std::nullopt, "", {}, {}});
    s.memory[b->data.get()] = Memory{param, b->dtype.element()};
    s.bound_buffers.insert(b.get());
    out.buffer_params.push_back(p);
  }
  std::unordered_set<std::string> names;
  for (const VarNode* v : variable_slots(f)) {
    auto [lo, hi] = slot_bounds(v->dtype);
    int64_t slot = int64_t(out.var_slots.size());
    UOpRef p = UOp::create(Ops::PARAM, dtypes::index, {},
                           ParamArg{slot, dtypes::index, Device(), std::nullopt, slot_name(*v, names),
                                    ConstValue::from_int(lo), ConstValue::from_int(hi)});
    s.values[v] = {variable_value(p, *v, v->loc.line)};
    out.var_slots.push_back(v);
  }
  // the arrays the buffer parameters are, for the calls that pass them on
  for (size_t p = 0; p < f.params.size(); p++) {
    Buffer b = f.buffer_of(f.params[p]);
    if (!b || s.arrays.count(b->data.get())) continue;  // a second view of one data (above) keeps the first's array
    ArrayShape a{{}, buffer_layout(s, *b), b->strides.empty()};
    for (const PrimExpr& d : b->shape) a.shape.push_back(lower_index(s, d));
    s.memory.at(b->data.get()).capacity = array_capacity(a, b->dtype.lanes);
    s.arrays[b->data.get()] = std::move(a);
  }
  s.report_bounds = report_bounds;
  out.status.returns = open_status(s, f.body, int64_t(out.buffer_params.size()));
  out.status.used = bool(s.status);
  s.faults = &out.status.faults;
  s.heap = &out.heap;
  s.first_heap_slot = int64_t(out.buffer_params.size()) + (out.status.used ? 1 : 0);
  s.var_slots = &out.var_slots;
  s.thread_loop = thread_loop(s, f.body);
  if (s.thread_loop) s.threads = out.threads = std::min<int64_t>(as_int_imm(s.thread_loop->extent)->value, cpu_threads());
  if (!s.thread_loop && share_thread) s.thread_nests = thread_nests(s, f.body);
  if (!s.thread_nests.empty()) {
    // Thread t must run the same rows in every nest (a jammed nest runs its rows 8 at a time): the
    // most parts up to cpu_threads() that divide every extent. A gated last chunk would index past
    // the buffer where the compiler cannot see the gate, and its bounds check needs the status
    // buffer, which every thread would share.
    int64_t parts = 1;
    for (int64_t p = cpu_threads(); p >= 2 && parts == 1; p--)
      if (std::all_of(s.thread_nests.begin(), s.thread_nests.end(), [&](const ForNode* l) { return as_int_imm(l->extent)->value % p == 0; }))
        parts = p;
    if (parts >= 2) {
      s.threads = out.threads = parts;
      s.shared_thread = UOp::range(UOp::index(parts), s.next_range++, AxisType::THREAD);
    }
  }
  collect_aliases(f.body, s);
  lower_stmt(s, f.body);
  if (s.shared_thread && !effects.empty()) {
    UOpRef all = effects.size() == 1 ? effects[0] : UOp::create(Ops::GROUP, dtypes::void_, effects);
    effects = {UOp::create(Ops::END, dtypes::void_, {all, s.shared_thread})};
  }
  out.sink = UOp::create(Ops::SINK, dtypes::void_, effects);
  out.unreported_bounds = s.unreported_bounds;
  if (s.shared_thread && !iteration_rows_conflict(out.sink, s.shared_thread.get()).empty())
    return lower(f, name, module, report_bounds, upcast, bounds_loops, /*share_thread=*/false);
  return out;
}

}  // namespace

LoweredPrimFunc lower_prim_func(const PrimFuncNode& f, const std::string& name, const IRModule* module,
                                bool report_bounds, const std::vector<const ForNode*>& upcast,
                                const std::unordered_set<const StmtNode*>& bounds_loops) {
  return lower(f, name, module, report_bounds, upcast, bounds_loops, /*share_thread=*/true);
}

int64_t encode_variable(const RuntimeValue& v) {
  DataType t = v.dtype;
  if (!t.is_float()) return v.ints.at(0);
  double x = v.floats.at(0);
  if (t.bits == 64) {
    int64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits;
  }
  if (t.bits == 32) {
    float f32 = float(x);
    int32_t bits;
    std::memcpy(&bits, &f32, 4);
    return bits;
  }
  uint16_t h = t.code == DataType::Code::BFloat ? float_to_bfloat16_bits(float(x)) : float_to_half_bits(float(x));
  return int16_t(h);
}

RuntimeValue decode_variable(int64_t bits, DataType t) {
  if (!t.is_float()) return RuntimeValue::of_int(t, bits);
  if (t.bits == 64) {
    double x;
    std::memcpy(&x, &bits, 8);
    return RuntimeValue::of_float(t, x);
  }
  if (t.bits == 32) {
    int32_t b32 = int32_t(bits);
    float x;
    std::memcpy(&x, &b32, 4);
    return RuntimeValue::of_float(t, x);
  }
  uint16_t h = uint16_t(bits);
  return RuntimeValue::of_float(t, t.code == DataType::Code::BFloat ? bfloat16_bits_to_float(h) : half_bits_to_float(h));
}

}  // namespace onegrad::tir
