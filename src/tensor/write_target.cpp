// Where an in-place write lands (Tensor::write, setitem.cpp). PyTorch's tensors always have
// storage; a lazy one gets it here, when it is first written:
// - a view (movement ops) of a lazy tensor writes into that tensor: the tensor is realized and every
//   view of its old graph becomes a view of the new buffer (y = x * 2; y[0].add_(1) changes y);
// - equal graphs are one node, so two tensors built apart to equal values (zeros(3) twice) can
//   hold one node, and realize() gives both its buffer. A write through one must not reach the
//   other: a lazy tensor written is realized for itself alone, and when the buffer is shared that
//   way already, the others get a copy of it first (the setitem snapshot).
#include <unordered_set>

#include "tensor/grad_slot.h"
#include "tensor/tensor.h"
#include "tensor/view_chain.h"
#include "uop/substitute.h"

namespace onegrad {

void Tensor::realize_privately() {
  UOpRef old = uop_;
  std::vector<Tensor*> apart;
  for (Tensor* t : live_tensors())
    if (t != this && t->uop_ == old && t->slot_ != slot_) apart.push_back(t);
  realize();
  for (Tensor* t : apart) {
    t->uop_ = old;
    if (t->slot_) t->slot_->shared_value = nullptr;
  }
  if (slot_ && !apart.empty()) slot_->shared_value = nullptr;
}

void Tensor::make_writable() {
  if (viewed_buffer(uop_.get())) return;
  // The nodes under this view's movement ops (not under an EXPAND: its view is not writable); the
  // deepest one another tensor holds is the tensor this is a view of.
  std::vector<UOpRef> below;
  for (UOpRef n = uop_; is_view_op(n->op) && n->op != Ops::EXPAND; n = n->src[0]) below.push_back(n->src[0]);
  std::vector<Tensor*> live = live_tensors();
  for (auto it = below.rbegin(); it != below.rend(); ++it) {
    const UOpRef old = *it;
    Tensor* base = nullptr;
    std::unordered_set<const GradSlot*> slots;
    for (Tensor* t : live)
      if (t != this && t->uop_ == old) {
        base = t;
        slots.insert(t->slot_.get());
      }
    if (!base) continue;
    if (slots.size() > 1) break;  // equal values built apart: which one this is a view of is unknown
    base->realize_privately();
    Substitution to_buffer{{old.get(), base->uop_}};
    for (Tensor* t : live) {
      if (t == base || t->uop_ == base->uop_) continue;
      for (const UOp* n = t->uop_.get();; n = n->src[0].get()) {
        if (n == old.get()) {
          t->uop_ = substitute(t->uop_, to_buffer);
          break;
        }
        if (!is_view_op(n->op)) break;
      }
    }
    break;
  }
  if (!viewed_buffer(uop_.get())) realize_privately();
}

bool Tensor::is_value_copy_of(const Tensor& w) const {
  return slot_ && w.slot_ && slot_ != w.slot_ && uop_ == w.uop_ && slot_->shared_value == uop_ &&
         w.slot_->shared_value == w.uop_;
}

void Tensor::release_value_copies() {
  if (!slot_ || !slot_->shared_value) return;
  UOpRef shared = slot_->shared_value;
  slot_->shared_value = nullptr;
  // the others moved onto one snapshot together: they still share it, apart from this tensor
  std::vector<Tensor*> others;
  for (Tensor* t : live_tensors())
    if (t->slot_ && t->slot_ != slot_ && t->slot_->shared_value == shared) others.push_back(t);
  for (Tensor* t : others) {
    bool still = false;
    for (Tensor* o : others) still = still || (o->slot_ != t->slot_ && o->uop_ == t->uop_);
    t->slot_->shared_value = still ? t->uop_ : nullptr;
  }
}

}  // namespace onegrad
