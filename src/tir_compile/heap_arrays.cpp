#include "tir_compile/heap_arrays.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "tir/interpret/interpret.h"
#include "tir/interpret/interpret_arith.h"
#include "tir/interpret/interpret_memory.h"

namespace onegrad::tir {

namespace {

std::atomic<uint64_t> heap_arrays_allocated{0};

RuntimeValue evaluate(const SizeExpr& e, const std::vector<const VarNode*>& slots, const std::vector<int64_t>& vars, int line) {
  switch (e.kind) {
    case ExprKind::IntImm: return RuntimeValue::of_int(e.dtype, e.value);
    case ExprKind::Var: return RuntimeValue::of_int(slots.at(size_t(e.value))->dtype, vars.at(size_t(e.value)));
    case ExprKind::Cast: return cast_value(evaluate(e.operands[0], slots, vars, line), e.dtype);
    default:
      return apply_binary(e.kind, evaluate(e.operands[0], slots, vars, line), evaluate(e.operands[1], slots, vars, line), line);
  }
}

}  // namespace

std::optional<SizeExpr> size_expr(const PrimExpr& e, const std::vector<const VarNode*>& slots) {
  SizeExpr out{e->kind, e->dtype, 0, {}};
  if (!e->dtype.is_integer() || e->dtype.lanes != 1) return std::nullopt;
  if (const auto* k = e->as<IntImmNode>()) {
    out.value = k->value;
    return out;
  }
  if (e->kind == ExprKind::Var) {
    auto it = std::find(slots.begin(), slots.end(), static_cast<const VarNode*>(e.get()));
    if (it == slots.end()) return std::nullopt;
    out.value = it - slots.begin();
    return out;
  }
  std::vector<PrimExpr> operands;
  if (const auto* c = e->as<CastNode>()) operands = {c->value};
  else if (const auto* b = e->as<BinaryNode>(); b && e->kind >= ExprKind::Add && e->kind <= ExprKind::Max) operands = {b->a, b->b};
  else return std::nullopt;
  for (const PrimExpr& o : operands) {
    std::optional<SizeExpr> s = size_expr(o, slots);
    if (!s) return std::nullopt;
    out.operands.push_back(std::move(*s));
  }
  return out;
}

HeapFrame::HeapFrame(const std::vector<HeapArray>& arrays, const std::vector<const VarNode*>& slots, const std::vector<int64_t>& vars) {
  // the interpreter's checks (Interpreter::allocate), in its words
  const int64_t max_bytes = InterpretLimits{}.max_allocation_bytes;
  for (const HeapArray& a : arrays) {
    int64_t n = 1;
    for (const SizeExpr& x : a.extents) {
      const int64_t e = evaluate(x, slots, vars, a.line).int_at(0);
      if (e < 0 || (e > 0 && n > max_bytes / e))
        throw TirHeapSizeError("allocation of " + a.elem.name() + " with extent " + std::to_string(e) +
                                   " is negative or larger than the interpreter allows", a.line);
      n *= e;
    }
    const int64_t bytes = element_bytes(a.elem);
    if (n > max_bytes / bytes)
      throw TirHeapSizeError("allocation of " + std::to_string(n) + " " + a.elem.name() + " elements is larger than the interpreter allows", a.line);
    void* p = std::calloc(size_t(std::max<int64_t>(n, 1)), size_t(bytes));
    if (!p) throw TirHeapSizeError("allocation of " + std::to_string(n) + " " + a.elem.name() + " elements failed: out of memory", a.line);
    owned_.emplace_back(p, &std::free);
    pointers_.push_back(p);
    heap_arrays_allocated++;
  }
}

uint64_t heap_arrays_allocated_count() { return heap_arrays_allocated.load(); }

}  // namespace onegrad::tir
