// The registry of live Tensor objects. A lazy Tensor is a value: t * 2 built before t[0] = 5 must
// keep the values it was built from, yet it reads t's buffer, which the assignment writes in
// place. setitem (src/tensor/setitem.cpp) looks here for the lazy tensors that read the
// buffer and points them at a snapshot of it before the write (tinygrad keeps the same list,
// all_tensors, for the same reason). One mutex; the list holds addresses only and owns nothing.
#include <mutex>
#include <unordered_set>

#include "tensor/tensor.h"

namespace onegrad {

namespace {

// Never destroyed: Tensors in static storage may outlive any registry destroyed at exit.
std::mutex& registry_mutex() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::unordered_set<Tensor*>& registry() {
  static auto* live = new std::unordered_set<Tensor*>;
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
  return {registry().begin(), registry().end()};
}

}  // namespace onegrad
