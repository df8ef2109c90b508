// A set of non-null pointers for graph walks: open addressing with linear probing in one flat
// array. A walk inserts every node once and never erases, so this beats std::unordered_set (one
// heap node per insert) by a wide margin on the walks every realize makes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onegrad {

class PointerSet {
 public:
  explicit PointerSet(size_t expected = 64) {
    size_t cap = 16;
    while (cap < expected * 2) cap *= 2;
    slots_.assign(cap, nullptr);
  }

  // Adds p (non-null); false when it was already there.
  bool insert(const void* p) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    if (!place(slots_, p)) return false;
    size_++;
    return true;
  }

  size_t size() const { return size_; }

 private:
  static size_t slot_of(const void* p, size_t mask) {
    // Fibonacci hashing of the address (low bits are alignment zeros).
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull) >> 20) & mask;
  }
  static bool place(std::vector<const void*>& slots, const void* p) {
    size_t mask = slots.size() - 1;
    for (size_t i = slot_of(p, mask);; i = (i + 1) & mask) {
      if (slots[i] == p) return false;
      if (!slots[i]) {
        slots[i] = p;
        return true;
      }
    }
  }
  void grow() {
    std::vector<const void*> bigger(slots_.size() * 2, nullptr);
    for (const void* p : slots_)
      if (p) place(bigger, p);
    slots_.swap(bigger);
  }

  std::vector<const void*> slots_;
  size_t size_ = 0;
};

}  // namespace onegrad
