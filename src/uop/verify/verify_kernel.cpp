// Kernel and Linear stages: the op sets between Rangeify and Render (docs/kernel-form.md; the
// codegen pipeline, codegen/pipeline.h) and the structure the passes and the renderer rely on:
// loops are RANGE/END over ranges, memory is reached through pointer-typed INDEX, and in a LINEAR
// every instruction comes after its sources with loops and IFs properly nested.
#include <unordered_set>

#include "uop/verify/verify_rules.h"

namespace onegrad::verify_rules {

std::optional<std::string> kernel_op_excluded(Ops op) {
  switch (op) {
    // Addresses, vector values and shape operands, and a same-size reinterpretation.
    case Ops::INDEX: case Ops::STACK: case Ops::BITCAST: return std::nullopt;
    case Ops::LINEAR: return std::string("LINEAR is the output of Linearize");
    case Ops::COPY: case Ops::BINARY: return std::string("data enters a kernel through its buffer PARAMs");
    default: break;
  }
  switch (op_group(op)) {
    case OpGroup::Movement: return std::string("movement ops became index math in Rangeify");
    case OpGroup::Call: return std::string("calls were resolved or became kernels of their own in Rangeify");
    case OpGroup::Marker: return std::string("markers are gone after Rangeify");
    case OpGroup::Codegen: return std::string("IF and ENDIF come from Linearize; the other codegen ops from no pass yet");
    default: return std::nullopt;
  }
}

std::optional<std::string> linear_op_excluded(Ops op) {
  if (op == Ops::REDUCE) return std::string("the memory plan stage made every REDUCE a register accumulator");
  if (op == Ops::IF || op == Ops::ENDIF || op == Ops::LINEAR) return std::nullopt;
  return kernel_op_excluded(op);
}

Finding kernel_op_set(const UOp* u) {
  if (auto why = kernel_op_excluded(u->op)) return fail(u, "not in the kernel stage's op set", *why);
  return std::nullopt;
}

Finding linear_op_set(const UOp* u) {
  if (auto why = linear_op_excluded(u->op)) return fail(u, "not in the linear stage's op set", *why);
  return std::nullopt;
}

namespace {

Finding sources_are_ranges(const UOp* u, size_t from) {
  for (size_t i = from; i < u->src.size(); i++)
    if (u->src[i]->op != Ops::RANGE) return fail(u, "ranges", src_name(u, i) + " is not a RANGE");
  return std::nullopt;
}

Finding count_in(const UOp* u, size_t lo, size_t hi, const char* form) {
  if (u->src.size() >= lo && u->src.size() <= hi) return std::nullopt;
  return fail(u, "arity", "takes " + std::string(form) + ", got " + std::to_string(u->src.size()) + " sources");
}

Finding address_source(const UOp* u) {
  if (u->src.empty() || !u->src[0]->dtype.is_ptr)
    return fail(u, "address", (u->src.empty() ? std::string("no source") : src_name(u, 0) + " of dtype " + u->src[0]->dtype.name()) +
                                  " is not a pointer");
  return std::nullopt;
}

}  // namespace

Finding kernel_structure(const UOp* u) {
  switch (u->op) {
    case Ops::RANGE:
      if (Finding f = count_in(u, 1, 1, "(bound,)")) return f;
      if (!u->src[0]->dtype.is_int()) return fail(u, "bound", "the bound's dtype " + u->src[0]->dtype.name() + " is not an integer");
      return std::nullopt;
    case Ops::END:
      if (Finding f = count_in(u, 2, SIZE_MAX, "(body, r0, r1, ...)")) return f;
      return sources_are_ranges(u, 1);
    case Ops::REDUCE:
      if (Finding f = count_in(u, 1, SIZE_MAX, "(value, r0, r1, ...)")) return f;
      return sources_are_ranges(u, 1);
    case Ops::INDEX:
      if (Finding f = count_in(u, 2, SIZE_MAX, "(buf, i)")) return f;
      return address_source(u);
    case Ops::LOAD:
      if (Finding f = count_in(u, 1, 3, "(addr) or (addr, alt, gate)")) return f;
      if (u->src.size() == 2) return fail(u, "arity", "a gated LOAD takes (addr, alt, gate), got 2 sources");
      return address_source(u);
    case Ops::STORE:
      if (Finding f = count_in(u, 2, 3, "(addr, value) or (addr, value, gate)")) return f;
      if (!u->dtype.is_void()) return fail(u, "dtype", "a STORE is void, got " + u->dtype.name());
      return address_source(u);
    case Ops::SINK:
      if (!u->dtype.is_void()) return fail(u, "dtype", "a SINK is void, got " + u->dtype.name());
      return std::nullopt;
    case Ops::IF: return count_in(u, 1, 1, "(gate,)");
    case Ops::ENDIF:
      if (Finding f = count_in(u, 1, 1, "(if,)")) return f;
      if (u->src[0]->op != Ops::IF) return fail(u, "ENDIF closes an IF", src_name(u, 0) + " is not an IF");
      return std::nullopt;
    default: break;
  }
  if (is_alu(u->op) && u->src.size() != size_t(alu_arity(u->op)))
    return fail(u, "arity", "takes " + std::to_string(alu_arity(u->op)) + " sources, got " + std::to_string(u->src.size()));
  return std::nullopt;
}

Finding kernel_root(const UOp* root) {
  if (root->op == Ops::SINK) return std::nullopt;
  return fail(root, "kernel root", "a kernel is a SINK of its stores");
}

Finding linear_order(const UOp* root) {
  if (root->op != Ops::LINEAR) return fail(root, "linear root", "the linear stage's graph is one LINEAR");
  std::unordered_set<const UOp*> placed;
  std::vector<const UOp*> open;  // the RANGEs and IFs open at this point, innermost last
  for (size_t i = 0; i < root->src.size(); i++) {
    const UOp* u = root->src[i].get();
    std::string at = "instruction " + std::to_string(i) + " (" + std::string(op_name(u->op)) + ")";
    // A PARAM's shape operand is its type, not an instruction.
    for (size_t s = 0; s < u->src.size() && u->op != Ops::PARAM; s++)
      if (!placed.count(u->src[s].get()))
        return fail(root, "instruction order", at + ": its " + src_name(u, s) + " is not an earlier instruction");
    if (u->op == Ops::END || u->op == Ops::ENDIF) {
      const UOp* closes = u->op == Ops::END ? u->src[1].get() : u->src[0].get();
      if (open.empty() || open.back() != closes)
        return fail(root, "nesting", at + " closes a " + std::string(op_name(closes->op)) +
                                         " that is not the innermost one open");
      open.pop_back();
    }
    if (u->op == Ops::RANGE || u->op == Ops::IF) open.push_back(u);
    placed.insert(u);
  }
  if (!open.empty())
    return fail(root, "nesting", std::to_string(open.size()) + " RANGE or IF still open at the end (innermost: " +
                                     std::string(op_name(open.back()->op)) + ")");
  if (root->src.empty() || root->src.back()->op != Ops::SINK)
    return fail(root, "linear root", "the last instruction is the kernel's SINK");
  return std::nullopt;
}

}  // namespace onegrad::verify_rules
