// The constructs a set of programs uses (expression and statement kinds, For kinds, block axis
// kinds, casts, builtin calls), and the check that they cover the grammar: the corpus and the
// suite each promise to use every construct.
#pragma once
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tir/ast/visitor.h"

namespace onegrad::tir::testing {

struct ConstructKinds : IRVisitor {
  std::set<ExprKind> exprs;
  std::set<StmtKind> stmts;
  std::set<ForKind> loops;
  std::set<IterVarType> axes;
  std::set<std::string> cast_to, cast_from, calls;

  void visit_expr(const PrimExpr& e) override {
    if (!e) return;
    exprs.insert(e->kind);
    if (auto* c = e->as<CastNode>()) {
      cast_to.insert(c->dtype.element().name());
      cast_from.insert(c->value->dtype.element().name());
    }
    if (auto* c = e->as<CallNode>()) calls.insert(c->op);
    IRVisitor::visit_expr(e);
  }
  void visit_stmt(const Stmt& s) override {
    if (!s) return;
    stmts.insert(s->kind);
    if (auto* f = s->as<ForNode>()) loops.insert(f->kind);
    if (auto* b = s->as<BlockNode>())
      for (auto& iv : b->iter_vars) axes.insert(iv->iter_type);
    IRVisitor::visit_stmt(s);
  }

  // Every ExprKind, StmtKind, ForKind and block axis kind was seen.
  void expect_every_node_kind() const {
    for (int k = 0; k <= static_cast<int>(ExprKind::Not); ++k)
      EXPECT_TRUE(exprs.count(static_cast<ExprKind>(k))) << expr_kind_name(static_cast<ExprKind>(k));
    for (int k = 0; k <= static_cast<int>(StmtKind::BlockRealize); ++k)
      EXPECT_TRUE(stmts.count(static_cast<StmtKind>(k))) << stmt_kind_name(static_cast<StmtKind>(k));
    for (int k = 0; k <= static_cast<int>(ForKind::ThreadBinding); ++k)
      EXPECT_TRUE(loops.count(static_cast<ForKind>(k))) << k;
    for (IterVarType t : {IterVarType::DataPar, IterVarType::CommReduce, IterVarType::Ordered, IterVarType::Opaque})
      EXPECT_TRUE(axes.count(t)) << static_cast<int>(t);
  }
};

}  // namespace onegrad::tir::testing
