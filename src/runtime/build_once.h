// A map whose values are built once per key, by whichever thread asks first, outside the lock:
// other threads asking for the same key wait for that build, threads asking for other keys go on.
// Kernels are lowered and compiled this way, so a schedule's new kernels build on all cores at once
// (the C compiler is a separate process) while no kernel is ever built twice.
// A build that throws leaves no entry: every waiter gets the exception and a later call tries again.
#pragma once
#include <functional>
#include <future>
#include <map>
#include <mutex>
#include <utility>

namespace onegrad {

template <class Key, class Value>
class BuildOnce {
 public:
  // The value of `key`, built by `build` if no thread has built it; `built` says whether this call did.
  Value get(const Key& key, const std::function<Value()>& build, bool* built = nullptr) {
    std::promise<Value> promise;
    std::shared_future<Value> pending;
    {
      std::lock_guard lock(mu_);
      if (auto it = done_.find(key); it != done_.end()) {
        if (built) *built = false;
        return it->second;
      }
      if (auto it = building_.find(key); it != building_.end()) {
        pending = it->second;
      } else {
        building_.emplace(key, promise.get_future().share());
      }
    }
    if (pending.valid()) {
      if (built) *built = false;
      return pending.get();  // rethrows the builder's exception
    }
    try {
      Value v = build();
      std::lock_guard lock(mu_);
      done_.emplace(key, v);
      building_.erase(key);
      promise.set_value(v);
      if (built) *built = true;
      return v;
    } catch (...) {
      std::lock_guard lock(mu_);
      building_.erase(key);
      promise.set_exception(std::current_exception());
      throw;
    }
  }

  // The value of `key` if it is built, else nullptr.
  const Value* find(const Key& key) {
    std::lock_guard lock(mu_);
    auto it = done_.find(key);
    return it == done_.end() ? nullptr : &it->second;
  }

 private:
  std::mutex mu_;
  std::map<Key, Value> done_;  // std::map: references to values stay valid as it grows
  std::map<Key, std::shared_future<Value>> building_;
};

}  // namespace onegrad
