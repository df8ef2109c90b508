// A reduction block's inner spatial loop moved inside its reduce loops (docs/tir.md, "Compiling:
// performance"). `for i, j, k: C[vi, vj] += A[vi, vk] * B[vk, vj]` runs one dependent chain of
// additions per (i, j); its speed is the adder's latency. Splitting j into jo * U + ji and moving
// ji innermost gives U independent accumulations per k step: as a loop when j indexes only the
// last dimension of every access (the C compiler vectorizes the row), else unrolled (U scalar
// chains). Every (i, j) still sees its k in the same order, so the result is bit for bit the
// same; instances with different j are independent (TVM's block semantics), and the rewrite only
// applies where the block's accesses show it: every buffer the block writes is read and written at
// one index list, of plain iter vars and constants, that names j's var. The outermost loop, when
// spatial and independent the same way, is made parallel.
#include "tir_compile/schedule_blocks.h"

#include <cstdlib>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "tir/ast/visitor.h"
#include "tir_compile/reduction_block.h"

namespace onegrad::tir {

namespace {

// A loop nest ending in a block: the loops outermost first and the BlockRealize inside them.
struct BlockNest {
  std::vector<const ForNode*> loops;
  const BlockRealizeNode* realize = nullptr;
  std::vector<size_t> iter_of_loop;  // loops[l] binds block iter var iter_of_loop[l]
};

// A loop from 0 to a constant; serial, or parallel when `outermost` (T.parallel(i) over the nest:
// running it serially or in parallel is the program's own promise, which the rewrite keeps).
bool is_plain_loop(const ForNode& f, bool outermost) {
  const IntImmNode* min = as_int_imm(f.min);
  const IntImmNode* extent = as_int_imm(f.extent);
  return (f.kind == ForKind::Serial || (outermost && f.kind == ForKind::Parallel)) && !f.thread_binding &&
         f.annotations.empty() && min && min->value == 0 && extent && extent->value > 0;
}

// The nest starting at `f` when it is perfect (each loop's body is the next loop or the block),
// made of plain loops, whose block binds each iter var to exactly one loop's var over the
// loop's own range and is spatial or reduce, with no predicate, allocations or match_buffers.
std::optional<BlockNest> match_nest(const ForNode& f) {
  BlockNest n;
  const StmtNode* cur = &f;
  while (const ForNode* loop = cur->as<ForNode>()) {
    if (!is_plain_loop(*loop, n.loops.empty())) return std::nullopt;
    n.loops.push_back(loop);
    cur = loop->body.get();
  }
  n.realize = cur->as<BlockRealizeNode>();
  if (!n.realize) return std::nullopt;
  const BlockNode& b = *n.realize->block;
  if ((n.realize->predicate && !is_const_int(n.realize->predicate, 1)) || !b.alloc_buffers.empty() || !b.match_buffers.empty())
    return std::nullopt;
  if (b.iter_vars.size() != n.loops.size() || n.realize->iter_values.size() != n.loops.size()) return std::nullopt;
  n.iter_of_loop.assign(n.loops.size(), SIZE_MAX);
  for (size_t v = 0; v < b.iter_vars.size(); v++) {
    const IterVarNode& iv = *b.iter_vars[v];
    if (iv.iter_type != IterVarType::DataPar && iv.iter_type != IterVarType::CommReduce) return std::nullopt;
    const VarNode* bound = n.realize->iter_values[v]->as<VarNode>();
    size_t l = 0;
    while (l < n.loops.size() && n.loops[l]->loop_var.get() != bound) l++;
    if (l == n.loops.size() || n.iter_of_loop[l] != SIZE_MAX) return std::nullopt;
    const IntImmNode* min = iv.dom ? as_int_imm(iv.dom->min) : nullptr;
    const IntImmNode* extent = iv.dom ? as_int_imm(iv.dom->extent) : nullptr;
    if (!min || min->value != 0 || !extent || extent->value != as_int_imm(n.loops[l]->extent)->value) return std::nullopt;
    n.iter_of_loop[l] = v;
  }
  return n;
}

bool same_index(const PrimExpr& a, const PrimExpr& b) {
  if (a.get() == b.get()) return true;
  const IntImmNode *x = as_int_imm(a), *y = as_int_imm(b);
  return x && y && x->value == y->value && x->dtype == y->dtype;
}

// Whether the block's instances that differ only in `var` touch disjoint elements of every
// buffer the block writes: its statements are stores, ifs, lets and sequences; each written
// memory is written and read through one buffer at one index list, of plain Vars and constants,
// that contains `var`; and no loop var of the nest is used inside the block (only iter vars).
class IndependenceCheck : public IRVisitor {
 public:
  IndependenceCheck(const VarNode* var, const std::unordered_set<const VarNode*>& loop_vars) : var_(var), loop_vars_(loop_vars) {}

  bool holds(const BlockNode& b) {
    if (!collect_writes(b.body) || (b.init && !collect_writes(b.init)) || writes_.empty()) return false;
    for (const auto& [data, w] : writes_) {
      bool names_var = false;
      for (const PrimExpr& i : w.indices) {
        if (!i->as<VarNode>() && !as_int_imm(i)) return false;
        names_var = names_var || i.get() == var_;
      }
      if (!names_var) return false;
    }
    visit_stmt(b.body);
    if (b.init) visit_stmt(b.init);
    return ok_;
  }

  void visit_expr(const PrimExpr& e) override {
    if (const VarNode* v = e->as<VarNode>(); v && loop_vars_.count(v)) ok_ = false;
    if (const BufferLoadNode* l = e->as<BufferLoadNode>()) check_access(l->buffer, l->indices);
    IRVisitor::visit_expr(e);
  }

 private:
  struct Write {
    Buffer buffer;
    std::vector<PrimExpr> indices;
  };

  bool collect_writes(const Stmt& s) {
    switch (s->kind) {
      case StmtKind::SeqStmt:
        for (const Stmt& x : s->as<SeqStmtNode>()->seq)
          if (!collect_writes(x)) return false;
        return true;
      case StmtKind::IfThenElse: {
        const IfThenElseNode& i = *s->as<IfThenElseNode>();
        return collect_writes(i.then_case) && (!i.else_case || collect_writes(i.else_case));
      }
      case StmtKind::LetStmt: return collect_writes(s->as<LetStmtNode>()->body);
      case StmtKind::BufferStore: {
        const BufferStoreNode& st = *s->as<BufferStoreNode>();
        auto [it, fresh] = writes_.try_emplace(st.buffer->data.get(), Write{st.buffer, st.indices});
        return fresh || same_access(it->second, st.buffer, st.indices);
      }
      default: return false;  // loops, allocations, calls as statements (break, continue): not this rewrite's
    }
  }

  static bool same_access(const Write& w, const Buffer& b, const std::vector<PrimExpr>& indices) {
    if (w.buffer != b || w.indices.size() != indices.size()) return false;
    for (size_t k = 0; k < indices.size(); k++)
      if (!same_index(w.indices[k], indices[k])) return false;
    return true;
  }

  void check_access(const Buffer& b, const std::vector<PrimExpr>& indices) {
    auto it = writes_.find(b->data.get());
    if (it != writes_.end() && !same_access(it->second, b, indices)) ok_ = false;
  }

  const VarNode* var_;
  const std::unordered_set<const VarNode*>& loop_vars_;
  std::unordered_map<const VarNode*, Write> writes_;
  bool ok_ = true;
};

// Whether `var` indexes only the last (contiguous) dimension of every access in the block: then
// the inner part of its loop, kept a loop, walks memory with stride 1 and the C compiler
// vectorizes it (the accumulators are the elements of a row, loaded and stored as vectors).
class LastIndexOnly : public IRVisitor {
 public:
  explicit LastIndexOnly(const VarNode* var) : var_(var) {}
  bool holds(const BlockNode& b) {
    visit_stmt(b.body);
    if (b.init) visit_stmt(b.init);
    return ok_;
  }
  void visit_expr(const PrimExpr& e) override {
    if (const BufferLoadNode* l = e->as<BufferLoadNode>()) check(l->indices);
    if (e.get() == var_) found_ = true;
    IRVisitor::visit_expr(e);
  }
  void visit_stmt(const Stmt& s) override {
    if (const BufferStoreNode* st = s->as<BufferStoreNode>()) check(st->indices);
    IRVisitor::visit_stmt(s);
  }

 private:
  void check(const std::vector<PrimExpr>& indices) {
    for (size_t k = 0; k + 1 < indices.size(); k++) {
      found_ = false;
      visit_expr(indices[k]);
      ok_ = ok_ && !found_;
    }
  }
  const VarNode* var_;
  bool found_ = false, ok_ = true;
};

// How j's loop is split: the inner part's extent and whether it stays a loop (contiguous rows:
// the C compiler's vectorizer takes it) or is unrolled (U scalar chains); extent 0: no split.
struct Split {
  int64_t inner = 0;
  bool loop = false;
};

Split choose_split(int64_t extent, bool contiguous) {
  if (contiguous)
    for (int64_t u : {extent, int64_t(256), int64_t(128), int64_t(64), int64_t(32), int64_t(16)})
      if (u <= 256 && u >= 16 && extent % u == 0) return {u, true};
  for (int64_t u : {8, 4})
    if (extent % u == 0 && extent > u) return {u, false};
  return {};
}

Stmt with_body(const ForNode& f, Stmt body) {
  auto n = std::make_shared<ForNode>(f);
  n->body = std::move(body);
  return n;
}

// Whether an expression calls a math builtin (T.exp, T.log, ...): a body costly enough that
// vectorizing it pays more than independent accumulation chains.
class CallsMath : public IRVisitor {
 public:
  bool found = false;
  void visit_expr(const PrimExpr& e) override {
    if (const CallNode* c = e->as<CallNode>(); c && !c->calls_global && c->op != "tir.if_then_else") found = true;
    IRVisitor::visit_expr(e);
  }
};

// `for i: for k: {init at k == 0; update}` as `for i: {init; for k: update}`: the same statements
// in the same order (the init ran just before the first update of its instance), without the
// gated store that keeps the C compiler from vectorizing the reduce loop. For a reduction whose
// update calls a math builtin and whose innermost reduce var walks the last dimension of every
// access (softmax's sum of exp over a row): the compiler vectorizes the builtin's polynomial over
// the row and adds in order, where the jam below would leave U scalar chains of it on strided rows.
Stmt hoist_init_only(const BlockNest& n, size_t s) {
  const BlockNode& b = *n.realize->block;
  CallsMath calls;
  calls.visit_stmt(b.body);
  const VarNode* k = b.iter_vars[n.iter_of_loop.back()]->var.get();
  if (!b.init || !calls.found || !LastIndexOnly(k).holds(b)) return nullptr;
  auto update = std::make_shared<BlockNode>(b);
  update->init = nullptr;
  auto update_realize = std::make_shared<BlockRealizeNode>(*n.realize);
  update_realize->block = update;
  auto init_block = std::make_shared<BlockNode>(b);
  init_block->body = b.init;
  init_block->init = nullptr;
  auto init_realize = std::make_shared<BlockRealizeNode>(*n.realize);
  init_realize->block = init_block;
  for (size_t l = s + 1; l < n.loops.size(); l++) init_realize->iter_values[n.iter_of_loop[l]] = int_imm(0, n.loops[l]->loop_var->dtype);
  Stmt body = update_realize;
  for (size_t l = n.loops.size(); l-- > s + 1;) body = with_body(*n.loops[l], body);
  body = make_seq({init_realize, body}, n.loops[s]->loc);
  for (size_t l = s + 1; l-- > 0;) body = with_body(*n.loops[l], body);
  return body;
}

// The rewritten nest, or null when the nest does not qualify. `outer_spatial`: whether its
// outermost loop still runs over a spatial var (false when j was outermost and moved in whole).
Stmt unroll_and_jam(const BlockNest& n, bool& outer_spatial, std::vector<const ForNode*>* upcast) {
  const BlockNode& b = *n.realize->block;
  auto iter_type = [&](size_t l) { return b.iter_vars[n.iter_of_loop[l]]->iter_type; };
  if (iter_type(n.loops.size() - 1) != IterVarType::CommReduce) return nullptr;  // no chain innermost
  size_t s = n.loops.size();
  for (size_t l = n.loops.size(); l-- > 0;)
    if (iter_type(l) == IterVarType::DataPar) {
      s = l;
      break;
    }
  if (s == n.loops.size()) return nullptr;
  bool reduce_inside_only = true;  // the loops inside s are exactly the reduce loops
  for (size_t l = 0; l < n.loops.size(); l++) reduce_inside_only = reduce_inside_only && (iter_type(l) == IterVarType::CommReduce) == (l > s);
  if (reduce_inside_only)
    if (Stmt hoisted = hoist_init_only(n, s)) return hoisted;
  // For the compiler (`upcast` given: schedule_blocks_as_opts), a sum the lowering makes a REDUCE
  // (lower_reduction.cpp) stays: the shared heuristics block its output axes in registers, which
  // this split would hide in stores inside the reduce loops.
  if (upcast && reduce_inside_only && match_reduction(*n.realize)) return nullptr;
  const ForNode& split = *n.loops[s];
  std::unordered_set<const VarNode*> loop_vars;
  for (const ForNode* l : n.loops) loop_vars.insert(l->loop_var.get());
  const VarNode* var = b.iter_vars[n.iter_of_loop[s]]->var.get();
  if (!IndependenceCheck(var, loop_vars).holds(b)) return nullptr;
  const int64_t extent = as_int_imm(split.extent)->value;
  const Split how = choose_split(extent, LastIndexOnly(var).holds(b));
  const int64_t u = how.inner;
  if (u == 0) return nullptr;
  outer_spatial = s > 0 || extent != u;

  const DataType dt = split.loop_var->dtype;
  Var outer = make_var(split.loop_var->name_hint + "_o", dt, split.loc);
  // `realize` with j's var bound to jo * U + ji (ji when U is j's extent), inside the loop over ji
  auto jammed = [&](std::shared_ptr<BlockRealizeNode> realize) -> Stmt {
    Var inner = make_var(split.loop_var->name_hint + "_i", dt, split.loc);
    realize->iter_values[n.iter_of_loop[s]] =
        extent == u ? PrimExpr(inner) : make_binary(ExprKind::Add, make_binary(ExprKind::Mul, outer, int_imm(u, dt)), inner);
    auto inner_loop = std::make_shared<ForNode>(split);
    inner_loop->loop_var = inner;
    inner_loop->extent = int_imm(u, split.extent->dtype);
    inner_loop->kind = how.loop || upcast ? ForKind::Serial : ForKind::Unrolled;
    inner_loop->body = realize;
    if (!how.loop && upcast) upcast->push_back(inner_loop.get());
    return inner_loop;
  };
  // When the reduce loops are exactly the loops inside j, T.init leaves the reduction: it runs for
  // the U instances before the reduce loops start (with the reduce vars at their minimum, 0, where
  // it ran before), so the reduce loops hold no gated store. Each instance is still initialized
  // once, before its first update, and instances are independent. (A reduce loop outside j would
  // run the hoisted init once per its iteration.)
  bool hoist_init = b.init != nullptr;
  for (size_t l = 0; l < n.loops.size(); l++)
    hoist_init = hoist_init && (iter_type(l) == IterVarType::CommReduce) == (l > s);
  Stmt body = jammed(std::make_shared<BlockRealizeNode>(*n.realize));
  Stmt init;
  if (hoist_init) {
    auto update = std::make_shared<BlockNode>(b);
    update->init = nullptr;
    auto update_realize = std::make_shared<BlockRealizeNode>(*n.realize);
    update_realize->block = update;
    body = jammed(update_realize);
    auto init_block = std::make_shared<BlockNode>(b);
    init_block->body = b.init;
    init_block->init = nullptr;
    auto init_realize = std::make_shared<BlockRealizeNode>(*n.realize);
    init_realize->block = init_block;
    for (size_t l = s + 1; l < n.loops.size(); l++) {
      const Var& v = n.loops[l]->loop_var;
      init_realize->iter_values[n.iter_of_loop[l]] = int_imm(0, v->dtype);
    }
    init = jammed(init_realize);
  }
  for (size_t l = n.loops.size(); l-- > 0;) {
    if (l != s) {
      body = with_body(*n.loops[l], body);
      continue;
    }
    if (extent == u) {  // no outer part left
      body = init ? make_seq({init, body}, split.loc) : body;
      continue;
    }
    auto outer_loop = std::make_shared<ForNode>(split);
    outer_loop->loop_var = outer;
    outer_loop->extent = int_imm(extent / u, split.extent->dtype);
    outer_loop->body = init ? make_seq({init, body}, split.loc) : body;
    body = outer_loop;
  }
  return body;
}

template <class Node>
Stmt with_inner(const StmtNode& s, Stmt body) {
  auto n = std::make_shared<Node>(*s.as<Node>());
  n->body = std::move(body);
  return n;
}

// The outermost loop of a nest made parallel when it binds a spatial iter var whose instances
// are independent: the lowering makes it the kernel's THREAD axis when it is the function's whole
// body (docs/tir.md, "What maps to what"), a serial loop elsewhere. `nest` is the rewritten nest.
Stmt parallel_outer(const BlockNest& n, const Stmt& nest) {
  const BlockNode& b = *n.realize->block;
  const IterVarNode& iv = *b.iter_vars[n.iter_of_loop[0]];
  if (iv.iter_type != IterVarType::DataPar || as_int_imm(n.loops[0]->extent)->value < 2) return nest;
  std::unordered_set<const VarNode*> loop_vars;
  for (const ForNode* l : n.loops) loop_vars.insert(l->loop_var.get());
  if (!IndependenceCheck(iv.var.get(), loop_vars).holds(b)) return nest;
  auto outer = std::make_shared<ForNode>(*nest->as<ForNode>());
  outer->kind = ForKind::Parallel;
  return outer;
}

// The statement with every qualifying nest rewritten; `s` itself when none is.
Stmt schedule(const Stmt& s, std::vector<const ForNode*>* upcast) {
  if (!s) return s;
  auto rebuilt = [&](const Stmt& body, auto make) -> Stmt {
    Stmt b = schedule(body, upcast);
    return b == body ? s : make(b);
  };
  switch (s->kind) {
    case StmtKind::For: {
      const ForNode& f = *s->as<ForNode>();
      if (auto nest = match_nest(f)) {
        bool outer_spatial = true;
        Stmt jammed = unroll_and_jam(*nest, outer_spatial, upcast);
        Stmt r = outer_spatial ? parallel_outer(*nest, jammed ? jammed : s) : jammed;
        if (r != s) return r;
      }
      return rebuilt(f.body, [&](Stmt b) { return with_body(f, b); });
    }
    case StmtKind::SeqStmt: {
      std::vector<Stmt> seq;
      bool changed = false;
      for (const Stmt& x : s->as<SeqStmtNode>()->seq) {
        seq.push_back(schedule(x, upcast));
        changed = changed || seq.back() != x;
      }
      if (!changed) return s;
      auto n = std::make_shared<SeqStmtNode>(*s->as<SeqStmtNode>());
      n->seq = std::move(seq);
      return n;
    }
    case StmtKind::BlockRealize: {  // the root block TVM prints as a comment
      const BlockRealizeNode& r = *s->as<BlockRealizeNode>();
      Stmt body = schedule(r.block->body, upcast);
      if (body == r.block->body) return s;
      auto block = std::make_shared<BlockNode>(*r.block);
      block->body = body;
      auto n = std::make_shared<BlockRealizeNode>(r);
      n->block = block;
      return n;
    }
    case StmtKind::LetStmt: return rebuilt(s->as<LetStmtNode>()->body, [&](Stmt b) { return with_inner<LetStmtNode>(*s, b); });
    case StmtKind::AttrStmt: return rebuilt(s->as<AttrStmtNode>()->body, [&](Stmt b) { return with_inner<AttrStmtNode>(*s, b); });
    case StmtKind::DeclBuffer: return rebuilt(s->as<DeclBufferNode>()->body, [&](Stmt b) { return with_inner<DeclBufferNode>(*s, b); });
    case StmtKind::Allocate: return rebuilt(s->as<AllocateNode>()->body, [&](Stmt b) { return with_inner<AllocateNode>(*s, b); });
    default: return s;
  }
}

}  // namespace

namespace {

BlockSchedule schedule_func(const PrimFunc& f, std::vector<const ForNode*>* upcast) {
  if (const char* off = std::getenv("ONEGRAD_TIR_NO_SCHEDULE"); off && *off && std::string(off) != "0") return {f, {}};
  Stmt body = schedule(f->body, upcast);
  if (body == f->body) return {f, {}};
  auto n = std::make_shared<PrimFuncNode>(*f);
  n->body = body;
  return {n, upcast ? *upcast : std::vector<const ForNode*>{}};
}

}  // namespace

PrimFunc schedule_blocks(const PrimFunc& f) { return schedule_func(f, nullptr).func; }

BlockSchedule schedule_blocks_as_opts(const PrimFunc& f) {
  std::vector<const ForNode*> upcast;
  return schedule_func(f, &upcast);
}

}  // namespace onegrad::tir
