// TIR statements to the kernel's side effects (docs/tir.md, "Compiling"). Each statement appends
// its STOREs, or the END of a loop, to the current body; the order between them is carried by the
// memory edges of lower_memory.cpp, not by the list.
#include <algorithm>

#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

// Vectorized and unrolled loops with a constant extent up to this are expanded in place.
constexpr int64_t kMaxExpandedExtent = 64;

// The root data Vars a statement stores to.
void collect_stores(const LowerState& s, const Stmt& st, std::unordered_set<const VarNode*>& out) {
  if (!st) return;
  switch (st->kind) {
    case StmtKind::BufferStore: out.insert(s.root(st->as<BufferStoreNode>()->buffer->data.get())); return;
    case StmtKind::LetStmt: return collect_stores(s, st->as<LetStmtNode>()->body, out);
    case StmtKind::AttrStmt: return collect_stores(s, st->as<AttrStmtNode>()->body, out);
    case StmtKind::AssertStmt: return collect_stores(s, st->as<AssertStmtNode>()->body, out);
    case StmtKind::BufferRealize: return collect_stores(s, st->as<BufferRealizeNode>()->body, out);
    case StmtKind::Allocate: return collect_stores(s, st->as<AllocateNode>()->body, out);
    case StmtKind::DeclBuffer: return collect_stores(s, st->as<DeclBufferNode>()->body, out);
    case StmtKind::SeqStmt:
      for (const Stmt& x : st->as<SeqStmtNode>()->seq) collect_stores(s, x, out);
      return;
    case StmtKind::IfThenElse:
      collect_stores(s, st->as<IfThenElseNode>()->then_case, out);
      return collect_stores(s, st->as<IfThenElseNode>()->else_case, out);
    case StmtKind::For: return collect_stores(s, st->as<ForNode>()->body, out);
    case StmtKind::While: return collect_stores(s, st->as<WhileNode>()->body, out);
    case StmtKind::BlockRealize: {
      const BlockNode& b = *st->as<BlockRealizeNode>()->block;
      collect_stores(s, b.init, out);
      return collect_stores(s, b.body, out);
    }
    case StmtKind::Block: {
      const BlockNode& b = *st->as<BlockNode>();
      collect_stores(s, b.init, out);
      return collect_stores(s, b.body, out);
    }
    case StmtKind::Evaluate: return;
  }
}

bool is_true(const PrimExpr& e) { return !e || is_const_int(e, 1); }

// The loop variable's value, min + r (r: the iteration number), in its own dtype.
UOpRef loop_value(LowerState& s, const ForNode& f, const UOpRef& r) {
  UOpRef v = UOp::alu(Ops::ADD, {lower_index(s, f.min), r});
  return UOp::create(Ops::CAST, uop_dtype(f.loop_var->dtype, f.loc.line), {v});
}

void lower_for(LowerState& s, const ForNode& f) {
  const IntImmNode* extent = as_int_imm(f.extent);
  bool expand = (f.kind == ForKind::Vectorized || f.kind == ForKind::Unrolled) && extent && as_int_imm(f.min) &&
                extent->value <= kMaxExpandedExtent;
  open_loop_control(s, f.body);
  if (expand) {  // Expand's UPCAST/UNROLL done in place: the body once per iteration, the var a constant
    for (int64_t c = 0; c < extent->value; c++) {
      ScopedValue bind(s, f.loop_var.get(), {lower_int_const(as_int_imm(f.min)->value + c, f.loop_var->dtype)});
      start_iteration(s);
      lower_stmt(s, f.body);
    }
    close_loop_control(s);
    return;
  }
  if (&f != s.thread_loop && std::find(s.thread_nests.begin(), s.thread_nests.end(), &f) == s.thread_nests.end() && lower_reduction_nest(s, f)) return;
  auto [stores, fresh] = s.stores_in_loop.try_emplace(&f);
  if (fresh) {
    collect_stores(s, f.body, stores->second);
    // its state is read afresh per iteration
    if (s.status && (can_stop(s, f.body) || (s.report_bounds && s.bounds_loops->count(f.body.get()))))
      stores->second.insert(s.status.get());
    // a called PrimFunc may store to any memory the caller has; a return stops the call's (or
    // function's) work, read afresh per iteration
    if (calls_prim_func(f.body))
      for (const auto& [root, m] : s.memory) stores->second.insert(root);
    if (returns(s, f.body))
      for (const LoopControl& c : s.controls)
        if (c.flags) stores->second.insert(c.flags.get());
  }
  if (const Var& flags = s.controls.back().flags) stores->second.insert(flags.get());
  // The ranges of the loop, outermost first, and the iteration number they make. The THREAD loop
  // is split into s.threads parts of `chunk` iterations each (a serial loop inside each part),
  // the last part gated when they do not divide the extent. A loop sharing the function's THREAD
  // axis (s.thread_nests, whose extents the parts divide) takes the chunk of that axis's index.
  std::vector<UOpRef> ranges;
  UOpRef iteration, tail;
  const bool shares_thread = s.shared_thread && std::find(s.thread_nests.begin(), s.thread_nests.end(), &f) != s.thread_nests.end();
  if (&f == s.thread_loop || shares_thread) {
    const int64_t chunk = (extent->value + s.threads - 1) / s.threads;
    UOpRef thread = shares_thread ? s.shared_thread : UOp::range(UOp::index(s.threads), s.next_range++, AxisType::THREAD);
    if (!shares_thread) ranges.push_back(thread);  // the shared axis is opened and closed around the whole body
    ranges.push_back(UOp::range(UOp::index(chunk), s.next_range++, AxisType::LOOP));
    iteration = UOp::alu(Ops::ADD, {UOp::alu(Ops::MUL, {thread, UOp::index(chunk)}), ranges.back()});
    if (chunk * s.threads != extent->value) tail = UOp::alu(Ops::CMPLT, {iteration, UOp::index(extent->value)});
  } else {
    // a literal bound where the extent is one: the opts read constant bounds
    ranges.push_back(UOp::range(extent ? UOp::index(extent->value) : lower_index(s, f.extent), s.next_range++, AxisType::LOOP));
    iteration = ranges[0];
    if (s.upcast && std::find(s.upcast->begin(), s.upcast->end(), &f) != s.upcast->end()) s.upcast_ranges->push_back(ranges[0]);
  }
  const std::unordered_map<const VarNode*, Effects> before = s.effects;
  std::vector<UOpRef> inner, *outer = s.body;
  s.body = &inner;
  for (const UOpRef& r : ranges) s.loops.push_back(OpenLoop{r, &stores->second, f.body.get()});
  {
    ScopedValue bind(s, f.loop_var.get(), {loop_value(s, f, iteration)});
    ScopedGate in_range(s, tail);
    start_iteration(s);
    lower_stmt(s, f.body);
  }
  s.loops.resize(s.loops.size() - ranges.size());
  s.body = outer;
  close_loop_control(s);
  if (inner.empty()) {  // no side effect: nothing to run
    s.effects = before;
    return;
  }
  UOpRef end = inner.size() == 1 ? inner[0] : UOp::create(Ops::GROUP, dtypes::void_, inner);
  for (size_t k = ranges.size(); k-- > 0;) end = UOp::create(Ops::END, dtypes::void_, {end, ranges[k]});
  s.body->push_back(end);
  s.effects = summarize_loop(before, s.effects, end);
}

// `with T.launch_thread(tag, n) as tx` (a thread_extent or virtual_thread AttrStmt over an
// IterVar) runs its body for tx in [0, n): a loop over the thread's index, in order, as the
// interpreter does. That is a legal schedule of the threads as long as they do not wait for each
// other, and a barrier (tvm_storage_sync) is a builtin the compiler refuses.
const ForNode& launch_loop(LowerState& s, const AttrStmtNode& a) {
  auto& loop = s.launches[&a];
  if (!loop) {
    auto f = std::make_shared<ForNode>(a.loc);
    f->loop_var = a.node_iter_var->var;
    f->min = a.node_iter_var->dom ? a.node_iter_var->dom->min : int_imm(0, f->loop_var->dtype);
    f->extent = a.value;
    // `T.launch_thread(tx, T.int64(32))` of an int32 tx: the loop counts in tx's type
    if (const IntImmNode* n = as_int_imm(a.value); n && a.value->dtype != f->loop_var->dtype)
      f->extent = int_imm(n->value, f->loop_var->dtype, a.value->loc);
    f->body = a.body;
    loop = f;
  }
  return *loop;
}

// T.init() runs where every reduce iter var is at the start of its domain.
UOpRef init_condition(LowerState& s, const BlockNode& b) {
  UOpRef cond;
  for (const IterVar& iv : b.iter_vars) {
    if (iv->iter_type != IterVarType::CommReduce) continue;
    UOpRef v = lower_scalar(s, iv->var);
    UOpRef lo = iv->dom ? lower_scalar(s, iv->dom->min) : lower_int_const(0, iv->var->dtype);
    cond = and_gate(cond, lower_binary(ExprKind::EQ, v, lo, iv->var->dtype, b.loc.line));
  }
  return cond;
}

using Binds = std::vector<std::unique_ptr<ScopedValue>>;

// A Var of a matched buffer's field takes the region's value, unless it is bound already.
void bind_field(LowerState& s, const PrimExpr& field, const UOpRef& value, Binds& binds) {
  if (!field || field->kind != ExprKind::Var || s.values.count(static_cast<const VarNode*>(field.get()))) return;
  UOpRef v = UOp::create(Ops::CAST, uop_dtype(field->dtype, field->loc.line), {value});
  binds.push_back(std::make_unique<ScopedValue>(s, static_cast<const VarNode*>(field.get()), Lanes{v}));
}

// T.match_buffer(region): the matched buffer views the region's memory, starting at its minimum
// corner with the source's strides for the trailing dimensions it keeps (as the interpreter does).
void bind_match_buffer(LowerState& s, const MatchBufferRegion& m, Binds& binds) {
  const BufferNode& src = *m.source.buffer;
  const auto& region = m.source.region;
  Layout from = buffer_layout(s, src), view{from.offset, {}};
  std::vector<UOpRef> extents;
  const size_t kept = m.buffer->shape.size();
  for (size_t k = 0; k < region.size(); k++) {
    view.offset = UOp::alu(Ops::ADD, {view.offset, UOp::alu(Ops::MUL, {lower_index(s, region[k].min), from.strides[k]})});
    if (k + kept < region.size()) continue;
    view.strides.push_back(from.strides[k]);
    extents.push_back(region[k].extent ? lower_index(s, region[k].extent) : UOp::index(1));
  }
  for (size_t k = 0; k < kept; k++) bind_field(s, m.buffer->shape[k], extents[k], binds);
  for (size_t k = 0; k < m.buffer->strides.size() && k < kept; k++) bind_field(s, m.buffer->strides[k], view.strides[k], binds);
  bind_field(s, m.buffer->elem_offset, view.offset, binds);
  s.views[m.buffer.get()] = view;
}

void lower_block_realize(LowerState& s, const BlockRealizeNode& br) {
  const BlockNode& b = *br.block;
  const int line = b.loc.line ? b.loc.line : br.loc.line;
  if (br.iter_values.size() != b.iter_vars.size()) throw InternalError("tir lowering: block \"" + b.name_hint + "\" has unbound iter vars");
  Binds binds;
  std::vector<Lanes> values;
  for (const PrimExpr& v : br.iter_values) values.push_back({lower_scalar(s, v)});
  for (size_t i = 0; i < b.iter_vars.size(); i++)
    binds.push_back(std::make_unique<ScopedValue>(s, b.iter_vars[i]->var.get(), values[i]));
  for (const MatchBufferRegion& m : b.match_buffers) bind_match_buffer(s, m, binds);
  ScopedGate where(s, is_true(br.predicate) ? UOpRef() : lower_scalar(s, br.predicate));
  for (const Buffer& a : b.alloc_buffers) allocate_buffer(s, *a, "T.alloc_buffer", a->loc.line ? a->loc.line : line);
  for (const MatchBufferRegion& m : b.match_buffers) check_match_region(s, m, b.loc.line);
  if (b.init) {
    ScopedGate first(s, init_condition(s, b));
    lower_stmt(s, b.init);
  }
  lower_stmt(s, b.body);
  for (const MatchBufferRegion& m : b.match_buffers) s.views.erase(m.buffer.get());
}

}  // namespace

void lower_stmt(LowerState& s, const Stmt& st) {
  if (!st) return;
  const int line = st->loc.line;
  switch (st->kind) {
    case StmtKind::SeqStmt:
      for (const Stmt& x : st->as<SeqStmtNode>()->seq) lower_stmt(s, x);
      return;
    case StmtKind::LetStmt: {
      const LetStmtNode& l = *st->as<LetStmtNode>();
      ScopedValue bind(s, l.var.get(), lower_expr(s, l.value));
      return lower_stmt(s, l.body);
    }
    case StmtKind::AttrStmt: {
      const AttrStmtNode& a = *st->as<AttrStmtNode>();
      if (a.node_iter_var) return lower_for(s, launch_loop(s, a));
      return lower_stmt(s, a.body);
    }
    case StmtKind::AssertStmt: {  // a false condition is a fault (lower_fault.cpp), which stops the body too
      const AssertStmtNode& a = *st->as<AssertStmtNode>();
      const auto* text = a.message ? a.message->as<StringImmNode>() : nullptr;
      raise_fault(s, lower_not(lower_scalar(s, a.condition)),
                  FaultRecord{FaultRecord::Kind::Assertion, {text ? text->value : "(no message)"}, line}, {});
      return lower_stmt(s, a.body);
    }
    case StmtKind::BufferStore: {
      const BufferStoreNode& b = *st->as<BufferStoreNode>();
      check_view(s, *b.buffer, line);  // first, as the interpreter finds the buffer's memory first
      Lanes value = lower_expr(s, b.value);
      return store_buffer(s, *b.buffer, b.indices, value, b.predicate, line);
    }
    case StmtKind::BufferRealize: {
      const BufferRealizeNode& r = *st->as<BufferRealizeNode>();
      if (!s.memory.count(s.root(r.buffer->data.get()))) allocate_buffer(s, *r.buffer, "BufferRealize", line);
      ScopedGate cond(s, is_true(r.condition) ? UOpRef() : lower_scalar(s, r.condition));
      return lower_stmt(s, r.body);
    }
    case StmtKind::Allocate: {
      const AllocateNode& a = *st->as<AllocateNode>();
      allocate(s, a.buffer_var, a.dtype, a.extents, "Allocate", line);
      return lower_stmt(s, a.body);
    }
    case StmtKind::DeclBuffer: return lower_stmt(s, st->as<DeclBufferNode>()->body);
    case StmtKind::IfThenElse: {
      const IfThenElseNode& i = *st->as<IfThenElseNode>();
      UOpRef c = lower_scalar(s, i.condition);
      {
        ScopedGate then(s, c);
        lower_stmt(s, i.then_case);
      }
      ScopedGate otherwise(s, lower_not(c));
      return lower_stmt(s, i.else_case);
    }
    case StmtKind::Evaluate: {
      const PrimExpr& v = st->as<EvaluateNode>()->value;
      if (auto* c = v->as<CallNode>(); c && !c->calls_global && (c->op == "tir.break" || c->op == "tir.continue"))
        return break_or_continue(s, c->op == "tir.break", line);
      if (auto* c = v->as<CallNode>(); c && !c->calls_global && c->op == "tir.ret") return lower_return(s, *c);
      if (!as_int_imm(v)) lower_expr(s, v);  // no effect of its own; a call that has one throws
      return;
    }
    case StmtKind::For: return lower_for(s, *st->as<ForNode>());
    case StmtKind::While: throw TirNotLowerable("While", "a kernel's loops have bounds known when they start", line);
    case StmtKind::BlockRealize: return lower_block_realize(s, *st->as<BlockRealizeNode>());
    case StmtKind::Block: throw InternalError("tir lowering: a Block outside a BlockRealize");
  }
}

}  // namespace onegrad::tir
