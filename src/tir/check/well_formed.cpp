#include "tir/check/well_formed.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "tir/check/issues.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {

std::string at(SourceLoc l) { return "line " + std::to_string(l.line) + ", column " + std::to_string(l.column); }

class WellFormed : public IRVisitor {
 public:
  std::vector<TypeIssue> issues;

  void run(const PrimFuncNode& f) {
    for (const Var& p : f.params) define(p, p->loc);
    // Unbound Vars in a parameter buffer's shape, strides and offset are bound by the call, all of
    // them before any field is read: `A = T.match_buffer(a, (m * 2,))` may use the m that a later
    // `B = T.match_buffer(b, (m,))` binds (the call checks A's extent once every array is bound).
    for (const auto& [p, b] : f.buffer_map) {
      if (!in_scope_.count(b->data.get())) define(b->data, b->loc);
      bind_fresh_fields(b);
    }
    for (const auto& [p, b] : f.buffer_map) visit_buffer(b);
    visit_annotations(f.attrs);
    stmt(f.body);
    sort_by_position(issues);
    // a buffer's fields are read at every use of the buffer: one unbound Var, one finding
    issues.erase(std::unique(issues.begin(), issues.end(),
                             [](const TypeIssue& a, const TypeIssue& b) { return a.to_string() == b.to_string(); }),
                 issues.end());
  }

  void visit_expr(const PrimExpr& e) override {
    if (!e) return;
    if (auto* v = e->as<VarNode>()) return use(*v, where_);
    SourceLoc outer = where_;
    where_ = e->loc;
    if (auto* let = e->as<LetNode>()) {
      visit_expr(let->value);
      define(let->var, e->loc);
      visit_expr(let->body);
      undefine(let->var);
    } else {
      IRVisitor::visit_expr(e);
    }
    where_ = outer;
  }

  // A buffer is usable where its data pointer is bound (parameter, allocation, block, realize).
  void visit_buffer(const Buffer& b) override {
    if (!b) return;
    if (!in_scope_.count(b->data.get()))
      issue("Scope", "Invalid use of buffer " + b->name + ": its data " + b->data->name_hint + " is not allocated or bound here", where_);
    IRVisitor::visit_buffer(b);
  }

 private:
  struct Binding {
    SourceLoc loc;
    int block_depth;
    bool is_loop_var;
  };
  std::unordered_map<const VarNode*, Binding> in_scope_;
  std::unordered_map<const VarNode*, SourceLoc> ever_defined_;
  std::unordered_set<const VarNode*> thread_vars_;  // Vars of thread IterVars launched so far
  // Blocks around the current node: depth and whether the innermost has iter vars (non-opaque).
  struct BlockScope {
    std::string name;
    bool opaque;
  };
  std::vector<BlockScope> blocks_;
  // The innermost statement or expression being checked: where a Var use is reported (a Var node
  // is shared by all its uses and only knows where it was made).
  SourceLoc where_;

  void issue(const char* rule, const std::string& msg, SourceLoc l) { issues.push_back({rule, msg, l.line, l.column, ""}); }

  // `site` is where the binding is written (the LetStmt, the loop, the block), v->loc where the Var
  // was made.
  // relaunch: a thread IterVar launched again after an earlier launch of it ended (TVM allows
  // several thread_extent attributes of one env_thread Var in a function).
  void define(const Var& v, SourceLoc site, bool loop_var = false, bool relaunch = false) {
    if (in_scope_.count(v.get())) {
      issue("SSA", "TIR is ill-formed, due to multiple nested definitions of variable " + v->name_hint +
                       " (first defined at " + at(in_scope_[v.get()].loc) + ")",
            site);
    } else if (auto it = ever_defined_.find(v.get()); it != ever_defined_.end() && !relaunch) {
      issue("SSA", "TIR is ill-formed, due to multiple definitions of variable " + v->name_hint +
                       ". It was first defined at " + at(it->second),
            site);
    }
    ever_defined_.emplace(v.get(), site);
    in_scope_[v.get()] = {site, static_cast<int>(blocks_.size()), loop_var};
  }

  void undefine(const Var& v) { in_scope_.erase(v.get()); }

  void use(const VarNode& v, SourceLoc l) {
    auto it = in_scope_.find(&v);
    if (it == in_scope_.end()) {
      auto was = ever_defined_.find(&v);
      if (was != ever_defined_.end())
        issue("Scope", "Invalid use of undefined variable " + v.name_hint + ". While this variable was previously defined at " +
                           at(was->second) + ", this definition is no longer in-scope.",
              l);
      else
        issue("Scope", "Invalid use of undefined variable " + v.name_hint + ": nothing binds it", l);
      return;
    }
    if (it->second.is_loop_var && !blocks_.empty() && !blocks_.back().opaque &&
        it->second.block_depth < static_cast<int>(blocks_.size()))
      issue("BlockVars", "Loop iterator var " + v.name_hint + " is defined outside of any block, but is used inside the non-opaque current block \"" +
                             blocks_.back().name + "\".",
            l);
  }

  // Vars in a buffer's shape, strides and elem_offset that nothing bound yet become bound here.
  std::vector<Var> bind_buffer_fields(const Buffer& b) {
    std::vector<Var> bound = bind_fresh_fields(b);
    visit_buffer(b);
    return bound;
  }

  std::vector<Var> bind_fresh_fields(const Buffer& b) {
    std::vector<Var> bound;
    auto bind_if_fresh = [&](const PrimExpr& e) {
      if (e && e->kind == ExprKind::Var && !in_scope_.count(static_cast<const VarNode*>(e.get()))) {
        Var v = std::static_pointer_cast<const VarNode>(e);
        if (std::find(bound.begin(), bound.end(), v) == bound.end()) {
          in_scope_[v.get()] = {v->loc, static_cast<int>(blocks_.size()), false};
          ever_defined_.emplace(v.get(), v->loc);
          bound.push_back(v);
        }
      }
    };
    for (const PrimExpr& e : b->shape) bind_if_fresh(e);
    for (const PrimExpr& e : b->strides) bind_if_fresh(e);
    bind_if_fresh(b->elem_offset);
    return bound;
  }

  void stmt(const Stmt& s) {
    if (!s) return;
    where_ = s->loc;
    switch (s->kind) {
      case StmtKind::LetStmt: {
        auto* n = s->as<LetStmtNode>();
        visit_expr(n->value);
        define(n->var, n->loc);
        stmt(n->body);
        undefine(n->var);
        return;
      }
      case StmtKind::AttrStmt: {
        auto* n = s->as<AttrStmtNode>();
        visit_expr(n->node_expr);
        visit_expr(n->value);
        if (n->node_iter_var) {
          const Var& tv = n->node_iter_var->var;
          const bool thread = n->node_iter_var->iter_type == IterVarType::ThreadIndex;
          define(tv, n->loc, true, thread && thread_vars_.count(tv.get()));
          if (thread) thread_vars_.insert(tv.get());
          stmt(n->body);
          undefine(n->node_iter_var->var);
        } else {
          stmt(n->body);
        }
        return;
      }
      case StmtKind::For: {
        auto* n = s->as<ForNode>();
        visit_expr(n->min);
        visit_expr(n->extent);
        visit_annotations(n->annotations);
        define(n->loop_var, n->loc, true);
        stmt(n->body);
        undefine(n->loop_var);
        return;
      }
      case StmtKind::Allocate: {
        auto* n = s->as<AllocateNode>();
        for (auto& e : n->extents) visit_expr(e);
        visit_expr(n->condition);
        define(n->buffer_var, n->loc);
        stmt(n->body);
        undefine(n->buffer_var);
        return;
      }
      case StmtKind::BufferRealize: {
        auto* n = s->as<BufferRealizeNode>();
        for (auto& r : n->bounds) visit_range(r);
        visit_expr(n->condition);
        // spec: BufferRealize binds the buffer's data and its fresh shape vars.
        bool data_fresh = !in_scope_.count(n->buffer->data.get());
        if (data_fresh) define(n->buffer->data, n->loc);
        std::vector<Var> fresh = bind_buffer_fields(n->buffer);
        stmt(n->body);
        for (const Var& v : fresh) undefine(v);
        if (data_fresh) undefine(n->buffer->data);
        return;
      }
      case StmtKind::SeqStmt:
        for (const Stmt& x : s->as<SeqStmtNode>()->seq) stmt(x);
        return;
      case StmtKind::AssertStmt: {
        auto* n = s->as<AssertStmtNode>();
        visit_expr(n->condition), visit_expr(n->message);
        stmt(n->body);
        return;
      }
      case StmtKind::IfThenElse: {
        auto* n = s->as<IfThenElseNode>();
        visit_expr(n->condition);
        stmt(n->then_case);
        stmt(n->else_case);
        return;
      }
      case StmtKind::While: {
        auto* n = s->as<WhileNode>();
        visit_expr(n->condition);
        stmt(n->body);
        return;
      }
      case StmtKind::DeclBuffer: {
        auto* n = s->as<DeclBufferNode>();
        visit_buffer(n->buffer);
        stmt(n->body);
        return;
      }
      case StmtKind::BlockRealize: {
        auto* n = s->as<BlockRealizeNode>();
        // The bindings and the predicate live outside the block: they may use loop vars.
        for (auto& v : n->iter_values) visit_expr(v);
        visit_expr(n->predicate);
        block(*n->block);
        return;
      }
      case StmtKind::Block: return block(*s->as<BlockNode>());
      default: IRVisitor::visit_stmt(s); return;  // BufferStore, Evaluate: expressions only
    }
  }

  void block(const BlockNode& b) {
    for (const IterVar& iv : b.iter_vars)
      if (iv->dom) visit_range(*iv->dom);
    blocks_.push_back({b.name_hint, b.iter_vars.empty()});
    for (const IterVar& iv : b.iter_vars) define(iv->var, b.loc);
    std::vector<Var> fresh;
    for (const Buffer& a : b.alloc_buffers) {
      define(a->data, a->loc);
      visit_buffer(a);
    }
    for (const MatchBufferRegion& m : b.match_buffers) {
      visit_region(m.source);
      define(m.buffer->data, m.buffer->loc);
      for (const Var& v : bind_buffer_fields(m.buffer)) fresh.push_back(v);
    }
    for (const BufferRegion& r : b.reads) visit_region(r);
    for (const BufferRegion& r : b.writes) visit_region(r);
    visit_annotations(b.annotations);
    stmt(b.init);
    stmt(b.body);
    for (const Var& v : fresh) undefine(v);
    for (const MatchBufferRegion& m : b.match_buffers) undefine(m.buffer->data);
    for (const Buffer& a : b.alloc_buffers) undefine(a->data);
    for (const IterVar& iv : b.iter_vars) undefine(iv->var);
    blocks_.pop_back();
  }
};

}  // namespace

std::vector<TypeIssue> well_formed_issues(const PrimFuncNode& f) {
  WellFormed w;
  w.run(f);
  return w.issues;
}

std::vector<TypeIssue> well_formed_issues(const IRModule& mod) {
  return issues_of_module(mod, [](const PrimFuncNode& f) { return well_formed_issues(f); });
}

}  // namespace onegrad::tir
