// compute_gradient: the walk (gradient.h). Nodes are ordered sources-first; the ones on a path to
// a target are differentiated from the root down, each adding its sources' shares.
#include "tensor/gradient.h"

#include <algorithm>
#include <unordered_set>

#include "tensor/shape_util.h"
#include "uop/errors.h"
#include "uop/resolve_function.h"

namespace onegrad {

namespace {

// Ops whose result does not change with their float inputs (or that have none): nothing flows.
bool gradient_is_zero(Ops op) {
  switch (op) {
    case Ops::CMPLT: case Ops::CMPNE: case Ops::CMPGT: case Ops::CMPGE: case Ops::CMPLE: case Ops::CMPEQ:
    case Ops::TRUNC: case Ops::IDIV: case Ops::MOD: case Ops::NOT: case Ops::XOR: case Ops::OR: case Ops::AND:
    case Ops::SHL: case Ops::SHR: case Ops::THREEFRY: case Ops::BITCAST: case Ops::CONST: case Ops::BUFFER:
    case Ops::PARAM: case Ops::STACK: case Ops::DETACH:
      return true;
    default: return false;
  }
}

// Sources-first order of the nodes below root, not looking under DETACH (nothing flows there).
std::vector<UOpRef> topological_order(const UOpRef& root) {
  std::vector<UOpRef> order;
  std::unordered_set<const UOp*> seen{root.get()};
  std::vector<std::pair<UOpRef, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    if (n->op != Ops::DETACH && next < n->src.size()) {
      UOpRef s = n->src[next++];
      if (seen.insert(s.get()).second) stack.emplace_back(std::move(s), 0);
      continue;
    }
    order.push_back(n);
    stack.pop_back();
  }
  return order;
}

// spec: FUNCTION is "Gradient-able". Its gradient is the gradient of the resolved graph (each PARAM
// k substituted by a_k): the per-primitive rules apply unchanged, a FUNCTION with several outputs
// gathers the shares of all its GETTUPLEs, and the schedule resolves FUNCTIONs anyway, so a
// backward FUNCTION would not make fewer kernels (docs/function.md, "Gradient").
std::unordered_map<const UOp*, Tensor> through_functions(const Tensor& root, const Tensor& root_grad,
                                                         const std::vector<UOpRef>& targets) {
  UOpRef body = resolve_functions(root.uop());
  if (body == root.uop())  // else the walk would come back here
    throw InternalError("backward: a FUNCTION that does not resolve (no TUPLE body) under " + root.uop()->brief());
  std::vector<UOpRef> resolved;
  for (const UOpRef& t : targets) resolved.push_back(resolve_functions(t));
  auto found = compute_gradient(Tensor(body, root.device()), root_grad, resolved);
  std::unordered_map<const UOp*, Tensor> out;
  for (size_t i = 0; i < targets.size(); i++)
    if (auto it = found.find(resolved[i].get()); it != found.end()) out.emplace(targets[i].get(), it->second);
  return out;
}

}  // namespace

std::optional<std::vector<Shortcut>> shortcut_gradient(const GradInput& in) {
  if (in.node->tag == kScanTag) return scan_shortcut(in);
  if (in.node->tag == kScatterTag) return scatter_shortcut(in);
  return std::nullopt;
}

std::unordered_map<const UOp*, Tensor> compute_gradient(const Tensor& root, const Tensor& root_grad,
                                                        const std::vector<UOpRef>& targets) {
  std::unordered_set<const UOp*> target_set;
  for (const UOpRef& t : targets) target_set.insert(t.get());
  std::vector<UOpRef> order = topological_order(root.uop());
  if (std::any_of(order.begin(), order.end(), [](const UOpRef& n) { return n->op == Ops::FUNCTION; }))
    return through_functions(root, root_grad, targets);
  // on_path: the node is a target or reaches one (through differentiable float nodes)
  std::unordered_set<const UOp*> on_path;
  for (const UOpRef& n : order) {
    if (target_set.count(n.get())) {
      on_path.insert(n.get());
      continue;
    }
    if (!n->dtype.is_float() || n->op == Ops::DETACH) continue;
    for (const UOpRef& s : n->src)
      if (on_path.count(s.get())) {
        on_path.insert(n.get());
        break;
      }
  }
  std::unordered_map<const UOp*, Tensor> grads;
  if (!on_path.count(root.uop().get())) return grads;
  grads.emplace(root.uop().get(), root_grad);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const UOpRef& n = *it;
    auto g = grads.find(n.get());
    if (g == grads.end() || gradient_is_zero(n->op)) continue;
    bool feeds_path = false;
    for (const UOpRef& s : n->src) feeds_path = feeds_path || on_path.count(s.get());
    if (!feeds_path) continue;
    Tensor grad = g->second;  // a copy: adding shares below may rehash the map
    const std::string device = grad.device();  // the node's: to() moves a gradient to its source's device
    auto add_share = [&](const UOp* s, const Tensor& share_in) {
      if (!on_path.count(s) || !s->dtype.is_float()) return;
      Tensor share = share_in.dtype() == s->dtype ? share_in : share_in.cast(s->dtype);
      auto [slot, fresh] = grads.try_emplace(s, share);
      if (!fresh) slot->second = slot->second.add(share);
    };
    if (auto cut = shortcut_gradient(GradInput{n, grad, device})) {
      for (const Shortcut& share : *cut) add_share(share.to.get(), share.grad);
      continue;
    }
    const GradRule* rule = gradient_rule(n->op);
    if (!rule)
      throw InternalError("backward: no gradient rule for " + std::string(op_name(n->op)) + " (" + n->brief() +
                          "): a gradient would have to pass through it");
    std::vector<std::optional<Tensor>> shares = (*rule)(GradInput{n, grad, device});
    for (size_t i = 0; i < shares.size() && i < n->src.size(); i++)
      if (shares[i]) add_share(n->src[i].get(), *shares[i]);
  }
  std::unordered_map<const UOp*, Tensor> out;
  for (const UOp* t : target_set) {
    auto g = grads.find(t);
    if (g != grads.end()) out.emplace(t, g->second);
  }
  return out;
}

}  // namespace onegrad
