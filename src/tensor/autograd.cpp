// The autograd API of Tensor (tensor.h "autograd"; docs/autograd.md). Leaves are the live Tensors
// marked requires_grad: backward() finds those its graph reaches through the live-tensor registry
// (live_tensors.cpp), as tinygrad finds them through all_tensors, differentiates the graph
// (gradient.cpp) and adds the results into their .grad, realized, so that .grad stays a buffer
// however many steps accumulate into it.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "tensor/broadcast.h"
#include "tensor/grad_slot.h"
#include "tensor/gradient.h"
#include "tensor/shape_util.h"
#include "tensor/write_history.h"
#include "uop/buffer_storage.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

std::atomic<int64_t> live_leaves{0};    // slots with requires_grad set: none means nothing to detach
std::atomic<uint64_t> leaves_version{0};  // bumped whenever a flag changes
thread_local bool grad_on = true;

// Under NoGradGuard: which nodes reach a leaf, remembered for the guard's lifetime (the refs keep
// the nodes alive so that their addresses are not reused while remembered).
struct NoGradMemo {
  uint64_t version = ~uint64_t(0);
  std::unordered_set<const UOp*> leaves;
  std::unordered_map<const UOp*, bool> reaches;
  std::vector<UOpRef> keep;
};
thread_local NoGradMemo no_grad_memo;
thread_local const std::vector<Tensor*>* no_history = nullptr;  // backward's gradients: no history

// Whether the graph under u contains one of `leaves`, not looking under DETACH.
bool reaches_leaf(const UOpRef& u, const std::unordered_set<const UOp*>& leaves,
                  std::unordered_map<const UOp*, bool>& memo, std::vector<UOpRef>* keep) {
  std::vector<std::pair<UOpRef, size_t>> stack{{u, 0}};
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    if (memo.count(n.get())) {
      stack.pop_back();
      continue;
    }
    if (leaves.count(n.get())) {
      memo[n.get()] = true;
      if (keep) keep->push_back(n);
      stack.pop_back();
      continue;
    }
    if (n->op != Ops::DETACH && next < n->src.size()) {
      UOpRef s = n->src[next++];
      if (!memo.count(s.get())) stack.emplace_back(std::move(s), 0);
      continue;
    }
    bool any = false;
    if (n->op != Ops::DETACH)
      for (const UOpRef& s : n->src) any = any || memo[s.get()];
    memo[n.get()] = any;
    if (keep) keep->push_back(n);
    stack.pop_back();
  }
  return memo[u.get()];
}

// Each realized node that stands for a graph (WriteHistory::live), mapped to that graph.
Substitution history_substitution() {
  Substitution subst;
  for (const auto& [node, graph] : WriteHistory::live())
    if (node != graph.get()) subst.emplace(node, graph);
  return subst;
}

// u with the realized nodes it reads swapped back for their graphs (Tensor::with_history).
UOpRef substitute_histories(const UOpRef& u, const Substitution& subst) {
  if (subst.empty()) return u;
  // a history may read other realized values with histories: substitute until none is left
  UOpRef out = u;
  for (size_t round = 0; round <= subst.size(); round++) {
    UOpRef next = substitute(out, subst);
    if (next == out) break;
    out = next;
  }
  return out;
}

std::string shape_of(const Tensor& t) { return shape_text(t.shape()); }

}  // namespace

GradSlot::~GradSlot() {
  if (requires_grad) live_leaves--;
}

bool grad_enabled() { return grad_on; }

void set_grad_enabled(bool on) {
  grad_on = on;
  if (on) no_grad_memo = NoGradMemo{};
}

// ---- the live leaves

// Every node a live leaf is: its current graph and its aliases.
std::unordered_set<const UOp*> Tensor::leaf_nodes(const std::vector<Tensor*>& live) {
  std::unordered_set<const UOp*> out;
  for (Tensor* t : live) {
    if (!t->slot_ || !t->slot_->requires_grad || !t->uop_) continue;
    out.insert(t->uop_.get());
    for (const UOpRef& a : t->slot_->aliases) out.insert(a.get());
  }
  return out;
}

void Tensor::detach_if_no_grad() {
  if (grad_on || live_leaves.load() == 0 || uop_->op == Ops::DETACH) return;
  NoGradMemo& m = no_grad_memo;
  if (m.version != leaves_version.load()) {
    m = NoGradMemo{};
    m.version = leaves_version.load();
    m.leaves = leaf_nodes(live_tensors());
  }
  if (m.leaves.count(uop_.get())) return;  // a leaf itself (a copy of a parameter) stays one
  if (!reaches_leaf(uop_, m.leaves, m.reaches, &m.keep)) return;
  // a view stays a view of the buffer (writes go through, as PyTorch's views made under no_grad),
  // without the leaf's node
  UOpRef view = WriteHistory::untracked_view(uop_, WriteHistory::kData);
  uop_ = view != uop_ ? view : UOp::create(Ops::DETACH, {uop_});
}

void Tensor::note_realized(const std::vector<std::pair<Tensor*, UOpRef>>& realized) {
  // Read once for the whole realize: the live tensors, the leaves and the histories. The realized
  // nodes are new buffers, which no graph built before reads, so what this loop records or
  // redirects changes none of the answers for the tensors after.
  std::vector<Tensor*> live = live_tensors();
  std::optional<std::unordered_set<const UOp*>> leaves;
  std::optional<Substitution> histories;
  std::unordered_map<const UOp*, bool> memo;  // shared by the walks: keyed by node address, so
  std::vector<UOpRef> keep;                   // the graphs walked stay alive until the end
  for (const auto& [t, node] : realized) {
    UOpRef old = t->uop_;
    t->uop_ = node;
    if (old == node) continue;
    if (t->slot_ && t->slot_->requires_grad) {
      t->slot_->aliases.push_back(old);
    } else if (live_leaves.load() > 0 &&
               !WriteHistory::is_write(*old) &&  // a write records its own history
               !(no_history && std::find(no_history->begin(), no_history->end(), t) != no_history->end())) {
      if (!leaves) leaves = leaf_nodes(live);
      if (!histories) histories = history_substitution();
      keep.push_back(substitute_histories(old, *histories));
      if (reaches_leaf(keep.back(), *leaves, memo, nullptr)) WriteHistory::record(t->uop_, old);
    }
    // copies holding the very same graph become the buffer too (they are the same value), with
    // its history; a tensor built apart to an equal graph shares the buffer until one of them is
    // written
    for (Tensor* other : live) {
      if (other == t || other->uop_ != old) continue;
      other->uop_ = t->uop_;
      if (!other->slot_) other->slot_ = t->slot_;
      if (other->slot_ == t->slot_ || !t->slot_) continue;
      other->slot_->shared_value = t->slot_->shared_value = t->uop_;
    }
  }
}

UOpRef Tensor::with_history(const UOpRef& u) { return substitute_histories(u, history_substitution()); }

void Tensor::note_written() {
  if (slot_) slot_->aliases.clear();
}

bool Tensor::requires_grad() const {
  if (slot_ && slot_->requires_grad) return true;
  if (live_leaves.load() == 0) return false;
  std::unordered_map<const UOp*, bool> memo;
  return reaches_leaf(with_history(uop_), leaf_nodes(live_tensors()), memo, nullptr);
}

Tensor& Tensor::requires_grad_(bool on) {
  if (on && !dtype().is_float())
    throw DTypeError("requires_grad_: only floating-point tensors can require gradients, got " + dtype().name());
  bool leaf_flag = slot_ && slot_->requires_grad;
  if (!on && !leaf_flag && requires_grad())
    throw ArgumentError(
        "requires_grad_: only leaves can stop requiring gradients; this tensor is computed from one "
        "(use detach())");
  // A leaf is a buffer of its own: a lazy value (a constant, zeros()) could be the very node of an
  // unrelated tensor, since equal graphs are one node.
  if (on) realize();
  if (!slot_) slot_ = std::make_shared<GradSlot>();
  if (on != leaf_flag) {
    live_leaves += on ? 1 : -1;
    leaves_version++;
  }
  slot_->requires_grad = on;
  if (!on) slot_->aliases.clear();
  return *this;
}

std::optional<Tensor> Tensor::grad() const {
  if (!slot_) return std::nullopt;
  return slot_->grad;
}

void Tensor::set_grad(std::optional<Tensor> g) {
  if (g && g->shape() != shape())
    throw ShapeError("set_grad: a gradient of shape " + shape_of(*g) + " for a tensor of shape " + shape_of(*this));
  if (g && g->device() != device())
    throw DeviceError("set_grad: a gradient on " + g->device() + " for a tensor on " + device());
  if (!slot_) slot_ = std::make_shared<GradSlot>();
  if (g && g->dtype() != dtype()) g = g->cast(dtype());
  slot_->grad = std::move(g);
}

Tensor Tensor::detach() const { return Tensor(UOp::create(Ops::DETACH, {uop_}), device_); }

// ---- .data, set_data, detach_ (the nodes they hand out are tagged views: write_history.h)

Tensor Tensor::data() const {
  UOpRef u = WriteHistory::untracked_view(uop_, WriteHistory::kData);
  if (u == uop_) {  // not a view of a buffer: a buffer first, as PyTorch's tensors always have
    realize_all({const_cast<Tensor*>(this)});  // only uop_ (mutable) changes
    u = WriteHistory::untracked_view(uop_, WriteHistory::kData);
  }
  return Tensor(u, device_);
}

void Tensor::set_data(const Tensor& other) {
  Tensor o = other;
  // a tag of its own: this tensor's node must be neither other's nor other.data's (a leaf is its node)
  int64_t tag = WriteHistory::kData - next_buffer_id();
  UOpRef u = WriteHistory::untracked_view(o.uop_, tag);
  if (u == o.uop_) u = WriteHistory::untracked_view(o.realize().uop_, tag);
  uop_ = u;
  device_ = o.device_;
  if (slot_) slot_->aliases.clear();
  leaves_version++;
}

Tensor& Tensor::detach_() {
  if (slot_ && slot_->requires_grad) return requires_grad_(false);
  if (!requires_grad()) return *this;
  UOpRef u = WriteHistory::untracked_view(uop_, WriteHistory::kData);
  if (u == uop_) {
    uop_ = UOp::create(Ops::DETACH, {uop_});
    return *this;
  }
  if (uop_->src[0]->op != Ops::BUFFER)  // a view of another tensor's buffer, as y[0] of y
    throw ArgumentError("detach_: Can't detach views in-place. Use detach() instead.");
  uop_ = u;
  return *this;
}

Tensor Tensor::contiguous_backward() const {
  return Tensor(UOp::create(Ops::CONTIGUOUSBACKWARD, {uop_}), device_);
}

// ---- gradients

std::vector<Tensor> gradients(const Tensor& y, const std::vector<Tensor>& xs, std::optional<Tensor> dy) {
  if (!y.dtype().is_float())
    throw DTypeError("gradients: the differentiated tensor must be floating-point, got " + y.dtype().name());
  if (!dy) {
    if (y.numel() != 1)
      throw ShapeError("gradients: a gradient can be implied only for a scalar output; got shape " + shape_of(y) +
                       " (pass dy)");
    dy = Tensor::ones(y.shape(), y.dtype(), y.device());
  }
  if (dy->shape() != y.shape())
    throw ShapeError("gradients: dy of shape " + shape_of(*dy) + " for an output of shape " + shape_of(y));
  return Tensor::gradients_at(Tensor(Tensor::with_history(y.uop()), y.device()), xs, dy->cast(y.dtype()));
}

// d(root)/d(x) for root already carrying the histories of realized values (with_history).
std::vector<Tensor> Tensor::gradients_at(const Tensor& root, const std::vector<Tensor>& xs, const Tensor& dy) {
  std::vector<UOpRef> targets;
  for (const Tensor& x : xs) {
    targets.push_back(x.uop());
    if (x.slot_)
      for (const UOpRef& a : x.slot_->aliases) targets.push_back(a);
  }
  auto found = compute_gradient(root, dy, targets);
  std::vector<Tensor> out;
  for (const Tensor& x : xs) {
    std::optional<Tensor> g;
    auto add = [&](const UOp* u) {
      auto it = found.find(u);
      if (it == found.end()) return;
      g = g ? g->add(it->second) : it->second;
    };
    add(x.uop().get());
    if (x.slot_)
      for (const UOpRef& a : x.slot_->aliases)
        if (a != x.uop()) add(a.get());
    out.push_back(g ? (g->dtype() == x.dtype() ? *g : g->cast(x.dtype()))
                    : Tensor::zeros(x.shape(), x.dtype(), x.device()));
  }
  return out;
}

void Tensor::backward(std::optional<Tensor> gradient, const std::vector<Tensor*>& realize_with) const {
  if (!dtype().is_float())
    throw DTypeError("backward: only floating-point tensors have gradients, got " + dtype().name());
  if (!gradient && numel() != 1)
    throw ShapeError("backward: a gradient can be implied only for a scalar output; got shape " + shape_of(*this) +
                     " (pass gradient=)");
  if (gradient && gradient->shape() != shape())
    throw ShapeError("backward: gradient of shape " + shape_of(*gradient) + " for a tensor of shape " +
                     shape_of(*this));
  // the leaves this graph reaches, one per slot (copies share it)
  std::vector<Tensor*> live = live_tensors();
  std::unordered_set<const UOp*> leaves = leaf_nodes(live);
  std::unordered_map<const UOp*, bool> memo;
  std::vector<Tensor> xs;
  std::unordered_set<GradSlot*> taken;
  Tensor root(with_history(uop_), device_);  // substituted once, for the search and the walk
  if (!reaches_leaf(root.uop(), leaves, memo, nullptr))
    throw ArgumentError("backward: the tensor does not require grad (no tensor it is computed from has "
                        "requires_grad set)");
  for (Tensor* t : live) {
    if (!t->slot_ || !t->slot_->requires_grad || taken.count(t->slot_.get())) continue;
    bool reached = memo.count(t->uop_.get()) && memo[t->uop_.get()];
    for (const UOpRef& a : t->slot_->aliases) reached = reached || (memo.count(a.get()) && memo[a.get()]);
    if (!reached) continue;
    taken.insert(t->slot_.get());
    xs.push_back(*t);
  }
  // The registry lists tensors by address, which changes from run to run; the gradients are
  // realized in the order of their leaves in the graph instead, so one program schedules (and
  // fuses) the same way every time.
  std::unordered_map<const UOp*, size_t> place;
  for (const UOp* u : root.uop()->toposort()) place.emplace(u, place.size());
  auto first_place = [&](const Tensor& x) {
    size_t at = SIZE_MAX;
    if (auto it = place.find(x.uop_.get()); it != place.end()) at = it->second;
    for (const UOpRef& a : x.slot_->aliases)
      if (auto it = place.find(a.get()); it != place.end()) at = std::min(at, it->second);
    return at;
  };
  std::vector<std::pair<size_t, Tensor>> placed;
  for (const Tensor& x : xs) placed.emplace_back(first_place(x), x);
  std::stable_sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  xs.clear();
  for (auto& [at, x] : placed) xs.push_back(std::move(x));
  Tensor dy = gradient ? gradient->cast(dtype()) : Tensor::ones(shape(), dtype(), device_);
  std::vector<Tensor> gs = gradients_at(root, xs, dy);
  std::vector<Tensor> news;
  for (size_t i = 0; i < xs.size(); i++) {
    GradSlot& slot = *xs[i].slot_;
    news.push_back(slot.grad ? slot.grad->add(gs[i]) : gs[i]);
  }
  // The output is realized with the gradients: one schedule, so the forward work they share (a
  // conv feeding both the loss and the relu mask) runs once, and reading the loss costs nothing.
  std::vector<Tensor*> ptrs{const_cast<Tensor*>(this)};  // only uop_ (mutable) changes
  std::vector<Tensor*> grads;
  for (Tensor& n : news) grads.push_back(&n);
  ptrs.insert(ptrs.end(), grads.begin(), grads.end());
  ptrs.insert(ptrs.end(), realize_with.begin(), realize_with.end());
  no_history = &grads;  // .grad is a value, not a graph to differentiate again (use gradients())
  try {
    Tensor::realize_all(ptrs);
  } catch (...) {
    no_history = nullptr;
    throw;
  }
  no_history = nullptr;
  for (size_t i = 0; i < xs.size(); i++) xs[i].slot_->grad = news[i];
}

}  // namespace onegrad
