// WriteHistory (write_history.h): leaves refuse in-place writes, and a write makes the history of
// the node it lands in a WHERE of the written value and the old history.
#include "tensor/write_history.h"

#include <unordered_map>
#include <unordered_set>

#include "tensor/grad_slot.h"
#include "tensor/gradient.h"
#include "tensor/view_chain.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The nodes of u's movement chain from u down to the node directly over the BUFFER (last), or
// nothing when u is not a view of a buffer.
std::vector<UOpRef> view_chain(const UOpRef& u) {
  std::vector<UOpRef> chain;
  UOpRef n = u;
  while (is_view_op(n->op)) {
    chain.push_back(n);
    n = n->src[0];
  }
  if (n->op != Ops::BUFFER) return {};
  return chain;
}

}  // namespace

std::unordered_map<const UOp*, std::shared_ptr<History>> WriteHistory::records() {
  std::unordered_map<const UOp*, std::shared_ptr<History>> out;
  for (Tensor* t : Tensor::live_tensors())
    if (t->slot_)
      for (const auto& h : t->slot_->histories) out.emplace(h->node.get(), h);
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
  auto found = records();
  Pending p;
  for (auto it = chain.rbegin(); it != chain.rend() && !p.record; ++it)
    if (auto r = found.find(it->get()); r != found.end()) p.record = r->second, p.node = *it;
  bool on = grad_enabled();
  if (!p.record) {
    if (!on || !value.requires_grad()) return std::nullopt;
    p.node = chain.back();
  }
  const std::string& dev = w.device_;
  UOpRef v = Tensor::with_history(value.uop());
  // under no_grad the write is a value (the region passes no gradient), as PyTorch's no_grad writes
  Tensor written(on ? v : UOp::create(Ops::DETACH, {v}), dev);
  Tensor root(target.uop(), dev);
  // The adjoint of the view's movement ops carries the value and a mask of ones back to the node.
  Tensor placed = compute_gradient(root, written, {p.node}).at(p.node.get());
  Tensor ones = Tensor::ones(target.shape(), target.dtype(), dev);
  Tensor mask = compute_gradient(root, ones, {p.node}).at(p.node.get()).cast(dtypes::bool_);
  UOpRef old_value = untracked_view(p.node, kOldValue);
  Tensor old(p.record ? p.record->graph : old_value, dev);
  // The node itself may appear under the value (where(written, picked, target) of a tensor index,
  // a value computed from the buffer): those reads are of elements the write leaves alone.
  p.graph = substitute(mask.where(placed, old).uop(), {{p.node.get(), old_value}});
  return p;
}

void WriteHistory::commit(Tensor& w, const Pending& p) {
  if (p.record) {
    p.record->graph = p.graph;
    return;
  }
  auto record = std::make_shared<History>(History{p.node, p.graph});
  auto keep = [&](Tensor* t) {
    if (!t->slot_) t->slot_ = std::make_shared<GradSlot>();
    for (const auto& h : t->slot_->histories)
      if (h == record) return;
    t->slot_->histories.push_back(record);
  };
  keep(&w);
  for (Tensor* t : Tensor::live_tensors())
    if (t != &w && t->uop_ == p.node) keep(t);
}

void WriteHistory::follow_snapshot(const std::vector<Tensor*>& readers, const UOp* buffer, const UOpRef& snapshot) {
  std::vector<std::shared_ptr<History>> moved;
  Substitution to_snapshot{{buffer, snapshot}};
  for (const auto& [node, h] : records()) {
    UOpRef there = substitute(h->node, to_snapshot);
    if (there != h->node) moved.push_back(std::make_shared<History>(History{there, h->graph}));
  }
  if (moved.empty()) return;
  for (Tensor* t : readers) {
    if (!t->slot_) t->slot_ = std::make_shared<GradSlot>();
    t->slot_->histories.insert(t->slot_->histories.end(), moved.begin(), moved.end());
  }
}

}  // namespace onegrad
