// A perfect nest of reduce loops around a reduction block (reduction_block.h) as a UOp REDUCE:
// `for k: C[i, j] = C[i, j] + A[i, k] * B[k, j]` (with `T.init(): C[i, j] = 0`) becomes
// STORE(C[i, j], REDUCE(A[i, k] * B[k, j], k){ADD}), the form a Tensor sum has. The REDUCE's
// accumulator starts at 0 and adds the terms in k's order, as the interpreter does: the same sum.
#include <algorithm>
#include <memory>

#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/reduction_block.h"
#include "tir/ast/visitor.h"
#include "uop/arg.h"

namespace onegrad::tir {

namespace {

bool plain_loop(const ForNode& f) {
  const IntImmNode* min = as_int_imm(f.min);
  const IntImmNode* extent = as_int_imm(f.extent);
  return f.kind == ForKind::Serial && !f.thread_binding && f.annotations.empty() && min && min->value == 0 && extent &&
         extent->value > 0;
}

// Whether an expression uses a Var, or loads from memory whose root is `root`.
class Uses : public IRVisitor {
 public:
  Uses(const LowerState& s, const VarNode* var, const VarNode* root) : s_(s), var_(var), root_(root) {}
  bool found = false;
  void visit_expr(const PrimExpr& e) override {
    if (var_ && e.get() == var_) found = true;
    if (const auto* l = e->as<BufferLoadNode>(); root_ && l && s_.root(l->buffer->data.get()) == root_) found = true;
    IRVisitor::visit_expr(e);
  }

 private:
  const LowerState& s_;
  const VarNode *var_, *root_;
};

bool uses(const LowerState& s, const PrimExpr& e, const VarNode* var, const VarNode* root) {
  Uses u(s, var, root);
  u.visit_expr(e);
  return u.found;
}

}  // namespace

bool lower_reduction_nest(LowerState& s, const ForNode& f) {
  if (s.report_bounds && s.bounds_loops->count(f.body.get())) return false;  // a check inside: loops
  std::vector<const ForNode*> loops;
  const StmtNode* cur = &f;
  while (const ForNode* loop = cur->as<ForNode>()) {
    if (!plain_loop(*loop)) return false;
    loops.push_back(loop);
    cur = loop->body.get();
  }
  const auto* br = cur->as<BlockRealizeNode>();
  if (!br || br->iter_values.size() != br->block->iter_vars.size()) return false;
  std::optional<ReductionBlock> red = match_reduction(*br);
  if (!red) return false;
  // Each loop binds one reduce iter var over the loop's own range, and every reduce iter var is
  // bound so; the spatial iter vars' values do not change inside the nest.
  const BlockNode& b = *br->block;
  size_t bound = 0;
  for (size_t v = 0; v < b.iter_vars.size(); v++) {
    const IterVarNode& iv = *b.iter_vars[v];
    const auto* var = br->iter_values[v]->as<VarNode>();
    auto it = std::find_if(loops.begin(), loops.end(), [&](const ForNode* l) { return l->loop_var.get() == var; });
    if (iv.iter_type != IterVarType::CommReduce) {
      bool uses_loop = false;
      for (const ForNode* l : loops) uses_loop |= uses(s, br->iter_values[v], l->loop_var.get(), nullptr);
      if (uses_loop || iv.iter_type != IterVarType::DataPar) return false;
      continue;
    }
    const IntImmNode* min = iv.dom ? as_int_imm(iv.dom->min) : nullptr;
    const IntImmNode* extent = iv.dom ? as_int_imm(iv.dom->extent) : nullptr;
    if (it == loops.end() || !min || min->value != 0 || !extent || extent->value != as_int_imm((*it)->extent)->value) return false;
    bound++;
  }
  if (bound != loops.size()) return false;
  const VarNode* root = s.root(red->update->buffer->data.get());
  if (uses(s, red->value, nullptr, root)) return false;  // through another buffer viewing C's memory
  std::vector<std::unique_ptr<ScopedValue>> binds;
  struct Nest {  // what a bounds check records (LowerState::reduction_nest)
    LowerState& s;
    const StmtNode* saved;
    ~Nest() { s.reduction_nest = saved; }
  } nest{s, s.reduction_nest};
  s.reduction_nest = f.body.get();
  std::vector<UOpRef> src{nullptr};
  for (const ForNode* l : loops) {
    src.push_back(UOp::range(UOp::index(as_int_imm(l->extent)->value), s.next_range++, AxisType::REDUCE));
    UOpRef v = UOp::create(Ops::CAST, uop_dtype(l->loop_var->dtype, l->loc.line), {src.back()});
    binds.push_back(std::make_unique<ScopedValue>(s, l->loop_var.get(), Lanes{v}));
  }
  for (size_t v = 0; v < b.iter_vars.size(); v++)
    binds.push_back(std::make_unique<ScopedValue>(s, b.iter_vars[v]->var.get(), Lanes{lower_scalar(s, br->iter_values[v])}));
  src[0] = lower_scalar(s, red->value);
  const DType dt = src[0]->dtype;
  UOpRef sum = UOp::create(Ops::REDUCE, dt, std::move(src), ReduceArg{Ops::ADD, {}});
  store_buffer(s, *red->update->buffer, red->update->indices, {sum}, nullptr, red->update->loc.line ? red->update->loc.line : b.loc.line);
  return true;
}

}  // namespace onegrad::tir
