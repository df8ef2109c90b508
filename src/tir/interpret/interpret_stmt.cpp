// Statement execution (spec: "Semantics of Statements", spec/README decisions 4 and 5).
#include "tir/interpret/interpret_impl.h"

namespace onegrad::tir {

namespace {

// Binds var to v for the lifetime of the guard (a scope of the spec).
struct ScopedVar {
  ScopedVar(Frame& f, const Var& var, RuntimeValue v) : frame(f), key(var.get()) { frame.vars[key] = std::move(v); }
  ~ScopedVar() { frame.vars.erase(key); }
  Frame& frame;
  const VarNode* key;
};

}  // namespace

void Interpreter::exec(const Stmt& s) {
  stack_.check(s->loc.line);
  if (limits_.max_statements > 0 && ++statements_ > limits_.max_statements)
    throw TirRuntimeError("the run exceeded its limit of " + std::to_string(limits_.max_statements) + " statements",
                          s->loc.line);
  Frame& frame = frames_.back();
  switch (s->kind) {
    case StmtKind::LetStmt: {
      const auto* l = s->as<LetStmtNode>();
      ScopedVar bound(frame, l->var, eval(l->value));
      exec(l->body);
      return;
    }
    case StmtKind::AttrStmt: {
      const auto* a = s->as<AttrStmtNode>();
      // thread_extent/virtual_thread over an IterVar run the body once per thread index, in order.
      if ((a->attr_key == "thread_extent" || a->attr_key == "virtual_thread") && a->node_iter_var) {
        int64_t n = eval_int(a->value);
        for (int64_t i = 0; i < n; ++i) {
          ScopedVar bound(frame, a->node_iter_var->var, RuntimeValue::of_int(a->node_iter_var->var->dtype, i));
          exec(a->body);
        }
        return;
      }
      exec(a->body);
      return;
    }
    case StmtKind::AssertStmt: {
      const auto* a = s->as<AssertStmtNode>();
      if (!eval(a->condition).truthy()) {
        const auto* text = a->message ? a->message->as<StringImmNode>() : nullptr;
        throw TirAssertionError(text ? text->value : "(no message)", s->loc.line);
      }
      if (a->body) exec(a->body);
      return;
    }
    case StmtKind::BufferStore: exec_store(*s->as<BufferStoreNode>()); return;
    case StmtKind::BufferRealize: {
      const auto* r = s->as<BufferRealizeNode>();
      // spec/README decision 10: on a buffer already bound (a parameter's) it is an annotation
      if (frame.buffers.count(r->buffer.get()) || frame.vars.count(r->buffer->data.get())) {
        exec(r->body);
        return;
      }
      ArrayRef a = allocate_buffer(r->buffer, s->loc.line);
      frame.buffers[r->buffer.get()] = a;
      frame.vars[r->buffer->data.get()] =
          RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.data)));
      exec(r->body);
      frame.buffers.erase(r->buffer.get());
      frame.vars.erase(r->buffer->data.get());
      release(a);
      return;
    }
    case StmtKind::Allocate: exec_allocate(*s->as<AllocateNode>()); return;
    case StmtKind::DeclBuffer: exec(s->as<DeclBufferNode>()->body); return;
    case StmtKind::SeqStmt:
      for (const Stmt& c : s->as<SeqStmtNode>()->seq) exec(c);
      return;
    case StmtKind::IfThenElse: {
      const auto* i = s->as<IfThenElseNode>();
      if (eval(i->condition).truthy()) exec(i->then_case);
      else if (i->else_case) exec(i->else_case);
      return;
    }
    case StmtKind::Evaluate: eval(s->as<EvaluateNode>()->value); return;
    case StmtKind::For: exec_for(*s->as<ForNode>()); return;
    case StmtKind::While: {
      const auto* w = s->as<WhileNode>();
      while (eval(w->condition).truthy()) {
        try {
          exec(w->body);
        } catch (const BreakSignal&) {
          break;
        } catch (const ContinueSignal&) {
        }
      }
      return;
    }
    case StmtKind::Block: exec_block(*s->as<BlockNode>(), true); return;
    case StmtKind::BlockRealize: exec_block_realize(*s->as<BlockRealizeNode>()); return;
  }
}

// Every kind runs its iterations in order: a serial execution is one the spec allows for
// Parallel, Vectorized and ThreadBinding loops too.
void Interpreter::exec_for(const ForNode& f) {
  const DataType t = f.loop_var->dtype;
  const int64_t min = wrap_int(eval_int(f.min), t);
  const int64_t end = wrap_int(min + eval_int(f.extent), t);
  for (int64_t i = min; i < end; ++i) {
    ScopedVar bound(frames_.back(), f.loop_var, RuntimeValue::of_int(t, i));
    try {
      exec(f.body);
    } catch (const BreakSignal&) {
      break;
    } catch (const ContinueSignal&) {
    }
  }
}

void Interpreter::exec_allocate(const AllocateNode& a) {
  if (a.condition && !eval(a.condition).truthy()) return;
  std::vector<int64_t> shape;
  for (const PrimExpr& e : a.extents) shape.push_back(eval_int(e));
  ArrayRef mem = allocate(a.dtype, shape, a.loc.line);
  {
    ScopedVar bound(frames_.back(), a.buffer_var,
                    RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(mem.data))));
    exec(a.body);
  }
  release(mem);
}

void Interpreter::exec_block_realize(const BlockRealizeNode& r) {
  const BlockNode& b = *r.block;
  if (r.iter_values.size() != b.iter_vars.size())
    throw TirRuntimeError("block " + b.name_hint + " binds " + std::to_string(r.iter_values.size()) + " values to " +
                              std::to_string(b.iter_vars.size()) + " iter vars", r.loc.line);
  std::vector<RuntimeValue> values;
  for (const PrimExpr& v : r.iter_values) values.push_back(eval(v));
  std::vector<std::unique_ptr<ScopedVar>> bound;
  // Decision 4: init runs when every reduction iter var is at the minimum of its domain.
  bool has_reduce = false, all_at_min = true;
  for (size_t i = 0; i < values.size(); ++i) {
    const IterVar& iv = b.iter_vars[i];
    bound.push_back(std::make_unique<ScopedVar>(frames_.back(), iv->var, cast_value(values[i], iv->var->dtype)));
    if (iv->iter_type != IterVarType::CommReduce) continue;
    has_reduce = true;
    int64_t dom_min = iv->dom && iv->dom->min ? eval_int(iv->dom->min) : 0;
    if (values[i].int_at(0) != dom_min) all_at_min = false;
  }
  // Decision 5: the predicate (T.where) guards the block.
  if (r.predicate && !eval(r.predicate).truthy()) return;
  exec_block(b, !has_reduce || all_at_min);
}

void Interpreter::exec_block(const BlockNode& b, bool run_init) {
  Frame& frame = frames_.back();
  std::vector<ArrayRef> allocated;
  for (const Buffer& buf : b.alloc_buffers) {
    allocated.push_back(allocate_buffer(buf, b.loc.line));
    frame.buffers[buf.get()] = allocated.back();
    // its data pointer too: a view (T.Buffer(data=L.data)) of it is declared over the pointer
    frame.vars[buf->data.get()] =
        RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(allocated.back().data)));
  }
  for (const MatchBufferRegion& m : b.match_buffers) bind_match_buffer(m, b.loc.line);
  if (b.init && run_init) exec(b.init);
  exec(b.body);
  for (const MatchBufferRegion& m : b.match_buffers) frames_.back().buffers.erase(m.buffer.get());
  for (size_t i = 0; i < allocated.size(); ++i) {
    frames_.back().buffers.erase(b.alloc_buffers[i].get());
    frames_.back().vars.erase(b.alloc_buffers[i]->data.get());
    release(allocated[i]);
  }
}

// The matched buffer is a view of the source region: its data starts at the region's minimum
// corner, with the source's strides for the trailing dimensions it keeps.
void Interpreter::bind_match_buffer(const MatchBufferRegion& m, int line) {
  ArrayRef src = array_of(m.source.buffer, line);
  const auto& region = m.source.region;
  std::vector<int64_t> strides = src.strides.empty() ? compact_strides(src.shape) : src.strides;
  ArrayRef view = src;
  view.shape.clear();
  view.strides.clear();
  for (size_t k = 0; k < region.size(); ++k) {
    int64_t lo = eval_int(region[k].min);
    int64_t extent = region[k].extent ? eval_int(region[k].extent) : 1;
    if (lo < 0 || extent < 0 || lo + extent > src.shape.at(k))
      throw TirIndexError("match_buffer " + m.buffer->name + ": region [" + std::to_string(lo) + ", " +
                              std::to_string(lo + extent) + ") of dimension " + std::to_string(k) + " is outside buffer " +
                              m.source.buffer->name, m.source.buffer->name, line);
    view.elem_offset += lo * strides[k];
    if (k + m.buffer->shape.size() >= region.size()) {
      view.shape.push_back(extent);
      view.strides.push_back(strides[k]);
    }
  }
  match_buffer(m.buffer, view, line);
  frames_.back().buffers[m.buffer.get()] = view;
}

}  // namespace onegrad::tir
