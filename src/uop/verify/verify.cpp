// The verifier's driver: walks the graph sources-first without recursion and runs the rule groups
// of the stage on each node (verify_structure/dtype/shape/call.cpp).
#include "uop/verify/verify.h"

#include <unordered_map>

#include "uop/errors.h"
#include "uop/verify/verify_rules.h"

namespace onegrad {

namespace vr = verify_rules;

std::string_view stage_name(Stage s) {
  switch (s) {
    case Stage::Tensor: return "tensor";
    case Stage::Kernel: return "kernel";
    case Stage::Linear: return "linear";
  }
  return "?";
}

bool stage_allows(Stage stage, Ops op) {
  switch (stage) {
    case Stage::Tensor: return !vr::tensor_op_excluded(op).has_value();
    case Stage::Kernel: return !vr::kernel_op_excluded(op).has_value();
    case Stage::Linear: return !vr::linear_op_excluded(op).has_value();
  }
  return false;
}

namespace {

vr::Finding check_tensor_node(const UOp* u) {
  // Structure first: the later groups read sources and args by position and kind.
  for (auto rule : {vr::tensor_op_set, vr::tensor_arity, vr::tensor_arg, vr::tensor_dtypes, vr::tensor_calls,
                    vr::tensor_shapes})
    if (vr::Finding f = rule(u)) return f;
  // Whatever shape inference still rejects (its message names the op and the rule).
  bool tuple_like = u->op == Ops::FUNCTION || u->op == Ops::CALL || u->op == Ops::TUPLE;
  if (!tuple_like && !u->has_shape()) {
    const std::string& why = u->props().shape_error;
    return why.empty() ? vr::fail(u, "shape inference", "the node has no shape") : why;
  }
  return std::nullopt;
}

vr::Finding check_codegen_node(const UOp* u, Stage stage) {
  if (vr::Finding f = stage == Stage::Kernel ? vr::kernel_op_set(u) : vr::linear_op_set(u)) return f;
  return vr::kernel_structure(u);
}

// The sources the verifier walks into: a CALL's body is opaque (a compiled kernel or a custom
// function) unless it is a TUPLE of tensor-level values.
bool walks_into(const UOp* u, size_t i) { return !(u->op == Ops::CALL && i == 0 && u->src[0]->op != Ops::TUPLE); }

}  // namespace

std::vector<std::string> check(const UOpRef& root, Stage stage) {
  std::vector<std::string> found;
  if (!root) return {"verify: the root is null"};
  enum : uint8_t { kVisiting, kGood, kBad };
  std::unordered_map<const UOp*, uint8_t> state;
  std::vector<std::pair<const UOp*, size_t>> stack{{root.get(), 0}};
  state[root.get()] = kVisiting;
  while (!stack.empty()) {
    auto& [u, next] = stack.back();
    if (next < u->src.size()) {
      size_t i = next++;
      const UOp* s = u->src[i].get();
      if (walks_into(u, i) && state.try_emplace(s, kVisiting).second) stack.push_back({s, 0});
      continue;
    }
    const UOp* node = u;
    stack.pop_back();
    bool sources_good = true;
    for (size_t i = 0; i < node->src.size(); i++)
      if (walks_into(node, i) && state.at(node->src[i].get()) == kBad) sources_good = false;
    if (!sources_good) {
      state[node] = kBad;  // already reported below it
      continue;
    }
    vr::Finding f;
    switch (stage) {
      case Stage::Tensor: f = check_tensor_node(node); break;
      case Stage::Kernel: case Stage::Linear: f = check_codegen_node(node, stage); break;
    }
    state[node] = f ? kBad : kGood;
    if (f) found.push_back(std::move(*f));
  }
  // The root's own form, once its nodes are sound: a kernel is a SINK, a LINEAR is in order.
  if (found.empty() && stage != Stage::Tensor) {
    vr::Finding f = stage == Stage::Kernel ? vr::kernel_root(root.get()) : vr::linear_order(root.get());
    if (f) found.push_back(std::move(*f));
  }
  return found;
}

void verify(const UOpRef& root, Stage stage) {
  std::vector<std::string> found = check(root, stage);
  if (!found.empty()) throw VerifyError(found.front());
}

}  // namespace onegrad
