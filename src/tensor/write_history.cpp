// WriteHistory (write_history.h): leaves refuse in-place writes, and a write makes the history of
// the node it lands in a WHERE of the written value and the old history.
#include "tensor/write_history.h"

#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "tensor/grad_slot.h"
#include "tensor/gradient.h"
#include "tensor/view_chain.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The registry: each node by address, with what it takes to find out whether it still lives
// (UOp::create of the same parts returns the live node itself; a node made anew has a later
// serial) and its graph.
struct Entry {
  uint64_t serial;
  Ops op;
  DType dtype;
  std::vector<UOpRef> src;
  Arg arg;
  std::optional<int64_t> tag;
  UOpRef graph;
};

std::mutex& registry_mutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::unordered_map<const UOp*, Entry>& registry() {
  static auto* r = new std::unordered_map<const UOp*, Entry>;
  return *r;
}

}  // namespace

UOpRef WriteHistory::write_node(const UOp* buffer, const UOpRef& target, const UOpRef& value) {
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {target, value});
  return UOp::create(Ops::AFTER, buffer->dtype, {buffer->ref(), store});
}

bool WriteHistory::is_write(const UOp& u) {
  return u.op == Ops::AFTER && u.src.size() == 2 && u.src[1]->op == Ops::STORE;
}

void WriteHistory::record(const UOpRef& node, const UOpRef& graph) {
  std::lock_guard lock(registry_mutex());
  registry().insert_or_assign(node.get(), Entry{node->serial(), node->op, node->dtype, node->src, node->arg,
                                                node->tag, graph});
}

std::unordered_map<const UOp*, UOpRef> WriteHistory::live() {
  std::lock_guard lock(registry_mutex());
  std::unordered_map<const UOp*, UOpRef> out;
  auto& r = registry();
  for (auto it = r.begin(); it != r.end();) {
    const Entry& e = it->second;
    UOpRef probe = UOp::create(e.op, e.dtype, e.src, e.arg, e.tag);
    if (probe.get() == it->first && probe->serial() == e.serial) {
      out.emplace(it->first, e.graph);
      ++it;
    } else {
      it = r.erase(it);
    }
  }
  return out;
}

UOpRef WriteHistory::untracked_view(const UOpRef& like, int64_t tag) {
  std::vector<UOpRef> chain = view_chain(like);
  if (chain.empty()) return like;
  const UOpRef& base = chain.back();
  return substitute(like, {{base.get(), base->with_tag(tag)}});
}

void WriteHistory::check_leaf(const Tensor& w, const std::string& op) {
  if (!grad_enabled()) return;
  std::unordered_set<const UOp*> leaves = Tensor::leaf_nodes(Tensor::live_tensors());
  if (leaves.empty()) return;
  if (leaves.count(w.uop_.get()))
    throw ArgumentError(op + ": a leaf Variable that requires grad is being used in an in-place operation.");
  for (const UOpRef& n : view_chain(w.uop_))
    if (leaves.count(n.get()))
      throw ArgumentError(op + ": a view of a leaf Variable that requires grad is being used in an in-place "
                               "operation.");
}

std::optional<WriteHistory::Pending> WriteHistory::prepare(const Tensor& w, const UOp* buffer, const Tensor& target,
                                                           const Tensor& value) {
  if (!target.dtype().is_float() || target.numel() == 0) return std::nullopt;  // ints carry no gradient
  std::vector<UOpRef> chain = view_chain(target.uop());
  if (chain.empty() || chain.back()->src[0].get() != buffer) return std::nullopt;
  // The node the history is kept for: the lowest one of the chain that has one, else the node
  // directly over the buffer (the realized tensor's own).
  auto found = live();
  Pending p;
  std::optional<UOpRef> had;  // the node's history before the write
  for (auto it = chain.rbegin(); it != chain.rend() && !had; ++it)
    if (auto r = found.find(it->get()); r != found.end()) had = r->second, p.node = *it;
  bool on = grad_enabled();
  if (!had) {
    if (!on || !value.requires_grad()) return std::nullopt;
    p.node = chain.back();
  }
  const std::string& dev = w.device_;
  // the graph is built with gradients on: under no_grad new tensors reading a leaf would be DETACHed
  struct GradOn {
    bool was = grad_enabled();
    GradOn() { set_grad_enabled(true); }
    ~GradOn() { set_grad_enabled(was); }
  } grad_on;
  UOpRef v = Tensor::with_history(value.uop());
  // under no_grad the write is a value (the region passes no gradient), as PyTorch's no_grad writes
  Tensor written(on ? v : UOp::create(Ops::DETACH, {v}), dev);
  Tensor root(target.uop(), dev);
  // The adjoint of the view's movement ops carries the value and a mask of ones back to the node.
  Tensor placed = compute_gradient(root, written, {p.node}).at(p.node.get());
  Tensor ones = Tensor::ones(target.shape(), target.dtype(), dev);
  Tensor mask = compute_gradient(root, ones, {p.node}).at(p.node.get()).cast(dtypes::bool_);
  UOpRef old_value = untracked_view(p.node, kOldValue);
  Tensor old(had ? *had : old_value, dev);
  // The node itself may appear under the value (where(written, picked, target) of a tensor index,
  // a value computed from the buffer): those reads are of elements the write leaves alone.
  p.graph = substitute(mask.where(placed, old).uop(), {{p.node.get(), old_value}});
  return p;
}

void WriteHistory::follow_snapshot(const UOp* buffer, const UOpRef& snapshot) {
  Substitution to_snapshot{{buffer, snapshot}};
  std::vector<std::pair<UOpRef, UOpRef>> moved;
  for (const auto& [node, graph] : live()) {
    UOpRef n = UOpRef::share(node);
    UOpRef there = substitute(n, to_snapshot);
    if (there != n) moved.emplace_back(there, graph);
  }
  for (const auto& [node, graph] : moved) record(node, graph);
}

}  // namespace onegrad
