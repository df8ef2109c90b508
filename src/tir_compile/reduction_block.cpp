#include "tir_compile/reduction_block.h"

#include <cmath>
#include <unordered_set>

#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {

bool same_expr(const PrimExpr& a, const PrimExpr& b) {
  if (a.get() == b.get()) return true;
  const IntImmNode *x = as_int_imm(a), *y = as_int_imm(b);
  return x && y && x->value == y->value && x->dtype == y->dtype;
}

bool same_indices(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (!same_expr(a[i], b[i])) return false;
  return true;
}

bool is_zero(const PrimExpr& e) {
  if (const auto* f = e->as<FloatImmNode>()) return f->value == 0.0 && !std::signbit(f->value);
  return is_const_int(e, 0);
}

// What a term may not do inside a REDUCE: read the accumulated buffer, call a PrimFunc (which may
// store), divide by a non-literal (a fault, which stores the status), or use one of `vars`.
class TermCheck : public IRVisitor {
 public:
  TermCheck(const VarNode* data, const std::unordered_set<const VarNode*>& vars) : data_(data), vars_(vars) {}
  bool ok = true;
  void visit_expr(const PrimExpr& e) override {
    if (const auto* l = e->as<BufferLoadNode>(); l && l->buffer->data.get() == data_) ok = false;
    if (const auto* c = e->as<CallNode>(); c && c->calls_global) ok = false;
    if (e->kind == ExprKind::Var && vars_.count(static_cast<const VarNode*>(e.get()))) ok = false;
    if (e->kind >= ExprKind::Div && e->kind <= ExprKind::FloorMod && e->dtype.is_integer() && !as_int_imm(e->as<BinaryNode>()->b)) ok = false;
    IRVisitor::visit_expr(e);
  }

 private:
  const VarNode* data_;
  const std::unordered_set<const VarNode*>& vars_;
};

}  // namespace

std::optional<ReductionBlock> match_reduction(const BlockRealizeNode& br) {
  const BlockNode& b = *br.block;
  if ((br.predicate && !is_const_int(br.predicate, 1)) || !b.alloc_buffers.empty() || !b.match_buffers.empty()) return std::nullopt;
  const auto* init = b.init ? b.init->as<BufferStoreNode>() : nullptr;
  const auto* update = b.body ? b.body->as<BufferStoreNode>() : nullptr;
  if (!init || !update || init->buffer.get() != update->buffer.get() || !same_indices(init->indices, update->indices)) return std::nullopt;
  if (init->predicate || update->predicate) return std::nullopt;  // masked stores keep their lanes: not a sum
  if (!update->value->dtype.is_scalar() || !is_zero(init->value) || update->value->kind != ExprKind::Add) return std::nullopt;
  const auto& sum = *update->value->as<BinaryNode>();
  const auto* acc = sum.a->as<BufferLoadNode>();
  if (!acc || acc->predicate || acc->buffer.get() != update->buffer.get() || !same_indices(acc->indices, update->indices))
    return std::nullopt;
  std::unordered_set<const VarNode*> reduce_vars, none;
  for (const IterVar& iv : b.iter_vars)
    if (iv->iter_type == IterVarType::CommReduce) reduce_vars.insert(iv->var.get());
  TermCheck term(update->buffer->data.get(), none), index(nullptr, reduce_vars);
  term.visit_expr(sum.b);
  for (const PrimExpr& i : update->indices) index.visit_expr(i);
  if (!term.ok || !index.ok) return std::nullopt;
  return ReductionBlock{update, sum.b};
}

}  // namespace onegrad::tir
