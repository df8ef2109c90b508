// The registry of live Tensor objects. A lazy Tensor is a value: t * 2 built before t[0] = 5 must
// keep the values it was built from, yet it reads t's buffer, which the assignment writes in
// place. setitem (src/tensor/setitem.cpp) looks here for the lazy tensors that read the
// buffer and points them at a snapshot of it before the write (tinygrad keeps the same list,
// all_tensors, for the same reason). One mutex; the set holds addresses only and owns nothing.
#include <cstdint>
#include <mutex>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

namespace {

// Never destroyed: Tensors in static storage may outlive any registry destroyed at exit.
std::mutex& registry_mutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
// The addresses, in one flat array with linear probing: every intermediate Tensor of an op's
// composition enrolls and withdraws, and a node-based set paid a heap allocation and a free for
// each. Erasing shifts the following run back (no tombstones), so a probe stops at the first
// empty slot.
class LiveSet {
 public:
  void insert(Tensor* t) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    size_t i = home(t);
    while (slots_[i] && slots_[i] != t) i = (i + 1) & mask();
    if (!slots_[i]) size_++;
    slots_[i] = t;
  }
  void erase(Tensor* t) {
    if (slots_.empty()) return;
    size_t i = home(t);
    while (slots_[i] != t) {
      if (!slots_[i]) return;
      i = (i + 1) & mask();
    }
    // Backward-shift deletion: move up each later entry of the run whose home is not in (i, j].
    for (size_t j = (i + 1) & mask(); slots_[j]; j = (j + 1) & mask()) {
      size_t h = home(slots_[j]);
      bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = nullptr;
    size_--;
  }
  std::vector<Tensor*> items() const {
    std::vector<Tensor*> out;
    out.reserve(size_);
    for (Tensor* t : slots_)
      if (t) out.push_back(t);
    return out;
  }

 private:
  size_t mask() const { return slots_.size() - 1; }
  size_t home(const Tensor* t) const {  // Fibonacci hashing of the address
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(t)) * 0x9E3779B97F4A7C15ull) >> 20) & mask();
  }
  void grow() {
    std::vector<Tensor*> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, nullptr);
    size_ = 0;
    for (Tensor* t : old)
      if (t) insert(t);
  }
  std::vector<Tensor*> slots_;
  size_t size_ = 0;
};

LiveSet& registry() {
  static auto* live = new LiveSet;
  return *live;
}

}  // namespace

void Tensor::enroll() noexcept {
  std::lock_guard lock(registry_mutex());
  registry().insert(this);
}

void Tensor::withdraw() noexcept {
  std::lock_guard lock(registry_mutex());
  registry().erase(this);
}

std::vector<Tensor*> Tensor::live_tensors() {
  std::lock_guard lock(registry_mutex());
  return registry().items();
}

}  // namespace onegrad
