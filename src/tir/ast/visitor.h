// A read-only walk over TIR: every expression, statement, buffer reference and binding site, in
// source order. Analyses (the printer's name collection, the type checker) override the hooks they
// need and call the base to keep recursing.
#pragma once
#include "tir/ast/module.h"

namespace onegrad::tir {

class IRVisitor {
 public:
  virtual ~IRVisitor() = default;
  virtual void visit_expr(const PrimExpr& e);
  virtual void visit_stmt(const Stmt& s);
  // A buffer mentioned by a node: its shape, strides and elem_offset (not its data Var).
  virtual void visit_buffer(const Buffer& b);
  // A binding site (param, loop var, LetStmt/Let var, block iter var, Allocate var, thread var).
  virtual void visit_var_def(const Var&) {}
  void visit_func(const PrimFuncNode& f);
  void visit_range(const Range& r);
  void visit_region(const BufferRegion& r);
  void visit_annotations(const Annotations& a);
  void visit_iter_var(const IterVar& iv);
};

}  // namespace onegrad::tir
