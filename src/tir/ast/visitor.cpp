#include "tir/ast/visitor.h"

namespace onegrad::tir {

void IRVisitor::visit_expr(const PrimExpr& e) {
  if (!e) return;
  switch (e->kind) {
    case ExprKind::Var:
    case ExprKind::IntImm:
    case ExprKind::FloatImm:
    case ExprKind::StringImm: return;
    case ExprKind::Cast: return visit_expr(e->as<CastNode>()->value);
    case ExprKind::Select: {
      auto* n = e->as<SelectNode>();
      visit_expr(n->condition), visit_expr(n->true_value), visit_expr(n->false_value);
      return;
    }
    case ExprKind::BufferLoad: {
      auto* n = e->as<BufferLoadNode>();
      visit_buffer(n->buffer);
      for (auto& i : n->indices) visit_expr(i);
      if (n->predicate) visit_expr(n->predicate);
      return;
    }
    case ExprKind::Ramp: {
      auto* n = e->as<RampNode>();
      visit_expr(n->base), visit_expr(n->stride);
      return;
    }
    case ExprKind::Broadcast: return visit_expr(e->as<BroadcastNode>()->value);
    case ExprKind::Let: {
      auto* n = e->as<LetNode>();
      visit_expr(n->value);
      visit_var_def(n->var);
      visit_expr(n->body);
      return;
    }
    case ExprKind::Call:
      for (auto& a : e->as<CallNode>()->args) visit_expr(a);
      return;
    case ExprKind::Shuffle: {
      auto* n = e->as<ShuffleNode>();
      for (auto& v : n->vectors) visit_expr(v);
      for (auto& i : n->indices) visit_expr(i);
      return;
    }
    case ExprKind::Not: return visit_expr(e->as<NotNode>()->a);
    default: {
      auto* n = e->as<BinaryNode>();
      visit_expr(n->a), visit_expr(n->b);
      return;
    }
  }
}

void IRVisitor::visit_buffer(const Buffer& b) {
  if (!b) return;
  for (auto& e : b->shape) visit_expr(e);
  for (auto& e : b->strides) visit_expr(e);
  visit_expr(b->elem_offset);
}

void IRVisitor::visit_range(const Range& r) {
  visit_expr(r.min);
  visit_expr(r.extent);
}

void IRVisitor::visit_region(const BufferRegion& r) {
  visit_buffer(r.buffer);
  for (auto& range : r.region) visit_range(range);
}

void IRVisitor::visit_annotations(const Annotations& a) {
  struct Rec {
    IRVisitor* v;
    void operator()(const AttrValue& x) {
      if (x.is_list)
        for (auto& e : x.list) (*this)(e);
      else if (x.buffer)
        v->visit_buffer(x.buffer);
      else
        v->visit_expr(x.expr);
    }
  };
  for (auto& [k, value] : a) Rec{this}(value);
}

void IRVisitor::visit_iter_var(const IterVar& iv) {
  if (!iv) return;
  if (iv->dom) visit_range(*iv->dom);
  visit_var_def(iv->var);
}

void IRVisitor::visit_func(const PrimFuncNode& f) {
  for (auto& p : f.params) visit_var_def(p);
  for (auto& [p, b] : f.buffer_map) visit_buffer(b);
  visit_annotations(f.attrs);
  visit_stmt(f.body);
}

void IRVisitor::visit_stmt(const Stmt& s) {
  if (!s) return;
  switch (s->kind) {
    case StmtKind::LetStmt: {
      auto* n = s->as<LetStmtNode>();
      visit_expr(n->value), visit_var_def(n->var), visit_stmt(n->body);
      return;
    }
    case StmtKind::AttrStmt: {
      auto* n = s->as<AttrStmtNode>();
      visit_expr(n->node_expr), visit_buffer(n->node_buffer), visit_iter_var(n->node_iter_var);
      visit_expr(n->value), visit_stmt(n->body);
      return;
    }
    case StmtKind::AssertStmt: {
      auto* n = s->as<AssertStmtNode>();
      visit_expr(n->condition), visit_expr(n->message), visit_stmt(n->body);
      return;
    }
    case StmtKind::BufferStore: {
      auto* n = s->as<BufferStoreNode>();
      visit_buffer(n->buffer), visit_expr(n->value);
      for (auto& i : n->indices) visit_expr(i);
      if (n->predicate) visit_expr(n->predicate);
      return;
    }
    case StmtKind::BufferRealize: {
      auto* n = s->as<BufferRealizeNode>();
      visit_buffer(n->buffer);
      for (auto& r : n->bounds) visit_range(r);
      visit_expr(n->condition), visit_stmt(n->body);
      return;
    }
    case StmtKind::Allocate: {
      auto* n = s->as<AllocateNode>();
      for (auto& e : n->extents) visit_expr(e);
      visit_expr(n->condition), visit_annotations(n->annotations), visit_var_def(n->buffer_var);
      visit_stmt(n->body);
      return;
    }
    case StmtKind::DeclBuffer: {
      auto* n = s->as<DeclBufferNode>();
      visit_buffer(n->buffer), visit_stmt(n->body);
      return;
    }
    case StmtKind::SeqStmt:
      for (auto& x : s->as<SeqStmtNode>()->seq) visit_stmt(x);
      return;
    case StmtKind::IfThenElse: {
      auto* n = s->as<IfThenElseNode>();
      visit_expr(n->condition), visit_stmt(n->then_case), visit_stmt(n->else_case);
      return;
    }
    case StmtKind::Evaluate: return visit_expr(s->as<EvaluateNode>()->value);
    case StmtKind::For: {
      auto* n = s->as<ForNode>();
      visit_expr(n->min), visit_expr(n->extent), visit_annotations(n->annotations);
      visit_var_def(n->loop_var), visit_stmt(n->body);
      return;
    }
    case StmtKind::While: {
      auto* n = s->as<WhileNode>();
      visit_expr(n->condition), visit_stmt(n->body);
      return;
    }
    case StmtKind::Block: {
      auto* n = s->as<BlockNode>();
      for (auto& iv : n->iter_vars) visit_iter_var(iv);
      for (auto& r : n->reads) visit_region(r);
      for (auto& r : n->writes) visit_region(r);
      for (auto& b : n->alloc_buffers) visit_buffer(b);
      for (auto& m : n->match_buffers) visit_buffer(m.buffer), visit_region(m.source);
      visit_annotations(n->annotations);
      visit_stmt(n->init), visit_stmt(n->body);
      return;
    }
    case StmtKind::BlockRealize: {
      auto* n = s->as<BlockRealizeNode>();
      for (auto& v : n->iter_values) visit_expr(v);
      visit_expr(n->predicate);
      visit_stmt(n->block);
      return;
    }
  }
}

}  // namespace onegrad::tir
