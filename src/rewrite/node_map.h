// NodeMap: a flat hash map keyed on node identity (`const UOp*`), for the per-call memo of
// graph_rewrite. A rewrite of a million-node graph does a few million lookups, so this avoids
// std::unordered_map's allocation per entry: open addressing with linear probing over parallel
// key and value arrays, grown at half full. Entries are never erased (a memo only grows).
//
// References returned by find/get are invalidated by the next insertion of a new key.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

template <class V>
class NodeMap {
 public:
  explicit NodeMap(size_t expected = 64) { rehash(capacity_for(expected)); }

  size_t size() const { return size_; }

  V* find(const UOp* key) {
    size_t i = slot_of(key);
    while (keys_[i]) {
      if (keys_[i] == key) return &values_[i];
      i = (i + 1) & mask_;
    }
    return nullptr;
  }

  // The value under `key`, default-constructed when absent.
  V& get(const UOp* key) {
    size_t i = slot_of(key);
    while (keys_[i]) {
      if (keys_[i] == key) return values_[i];
      i = (i + 1) & mask_;
    }
    // Grow only when inserting, so looking up a present key never moves the values.
    if (2 * (size_ + 1) > keys_.size()) {
      rehash(keys_.size() * 2);
      i = slot_of(key);
      while (keys_[i]) i = (i + 1) & mask_;
    }
    keys_[i] = key;
    size_++;
    return values_[i];
  }

 private:
  static size_t capacity_for(size_t n) {
    size_t c = 16;
    while (c < 2 * n) c *= 2;
    return c;
  }
  // Nodes made one after another sit near each other in memory, and a walk meets them in roughly
  // that order: keeping the address order (dropping only the alignment bits) keeps the probes in
  // cache. Nodes are ~100+ bytes apart, so neighbours land several slots apart (no clustering at
  // half load); the bits above the table size are folded in so separate heap regions interleave.
  size_t slot_of(const UOp* key) const {
    uint64_t a = uint64_t(reinterpret_cast<uintptr_t>(key)) >> 4;
    return size_t(a ^ (a >> bits_)) & mask_;
  }
  void rehash(size_t capacity) {
    std::vector<const UOp*> old_keys(capacity, nullptr);
    std::vector<V> old_values(capacity);
    old_keys.swap(keys_);
    old_values.swap(values_);
    mask_ = capacity - 1;
    bits_ = std::countr_zero(capacity);
    for (size_t j = 0; j < old_keys.size(); j++) {
      if (!old_keys[j]) continue;
      size_t i = slot_of(old_keys[j]);
      while (keys_[i]) i = (i + 1) & mask_;
      keys_[i] = old_keys[j];
      values_[i] = std::move(old_values[j]);
    }
  }

  std::vector<const UOp*> keys_;
  std::vector<V> values_;
  size_t mask_ = 0;
  int bits_ = 0;  // log2 of the capacity: higher address bits fold onto the lower ones
  size_t size_ = 0;
};

}  // namespace onegrad
