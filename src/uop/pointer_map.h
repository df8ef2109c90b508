// A map from non-null pointers to small integers for graph walks (a node's place in a toposort):
// open addressing with linear probing in one flat array, as PointerSet, since a walk inserts every
// node once and never erases.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onegrad {

class PointerMap {
 public:
  explicit PointerMap(size_t expected = 64) {
    size_t cap = 16;
    while (cap < expected * 2) cap *= 2;
    slots_.assign(cap, Slot{nullptr, 0});
  }

  // Sets p's value (p non-null, not there yet: a toposort lists each node once).
  void set(const void* p, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(slots_, p, value);
    size_++;
  }

  // p's value; `missing` when p was never set.
  uint32_t get(const void* p, uint32_t missing) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = slot_of(p, mask);; i = (i + 1) & mask) {
      if (slots_[i].key == p) return slots_[i].value;
      if (!slots_[i].key) return missing;
    }
  }

 private:
  struct Slot {
    const void* key;
    uint32_t value;
  };
  static size_t slot_of(const void* p, size_t mask) {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull) >> 20) & mask;
  }
  static void place(std::vector<Slot>& slots, const void* p, uint32_t value) {
    size_t mask = slots.size() - 1;
    size_t i = slot_of(p, mask);
    while (slots[i].key && slots[i].key != p) i = (i + 1) & mask;
    slots[i] = Slot{p, value};
  }
  void grow() {
    std::vector<Slot> bigger(slots_.size() * 2, Slot{nullptr, 0});
    for (const Slot& s : slots_)
      if (s.key) place(bigger, s.key, s.value);
    slots_.swap(bigger);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace onegrad
