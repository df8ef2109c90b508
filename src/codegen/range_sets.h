// Interned sets of loop ranges, for Linearize's placement analysis: every node of a kernel has the
// set of ranges it depends on, and most nodes share a handful of distinct sets. A set is a small id;
// unions are memoized, so a million-node kernel costs a hash lookup per edge, not a set copy.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace onegrad {

class RangeSets {
 public:
  using Id = uint32_t;
  static constexpr Id kEmpty = 0;

  RangeSets();
  // The set of these range numbers (any order, duplicates allowed).
  Id of(std::vector<uint32_t> ranges);
  Id unite(Id a, Id b);
  Id with(Id a, uint32_t r);
  Id without(Id a, uint32_t r);
  bool contains(Id a, uint32_t r) const;
  bool subset(Id a, Id b) { return unite(a, b) == b; }
  // The members, ascending.
  const std::vector<uint32_t>& members(Id a) const { return sets_[a]; }
  size_t size(Id a) const { return sets_[a].size(); }

 private:
  std::vector<std::vector<uint32_t>> sets_;
  std::map<std::vector<uint32_t>, Id> ids_;
  std::unordered_map<uint64_t, Id> unions_;
};

}  // namespace onegrad
