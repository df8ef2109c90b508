#include "codegen/range_sets.h"

#include <algorithm>

namespace onegrad {

RangeSets::RangeSets() {
  sets_.emplace_back();
  ids_.emplace(std::vector<uint32_t>{}, kEmpty);
}

RangeSets::Id RangeSets::of(std::vector<uint32_t> ranges) {
  std::sort(ranges.begin(), ranges.end());
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  auto [it, fresh] = ids_.emplace(ranges, Id(sets_.size()));
  if (fresh) sets_.push_back(std::move(ranges));
  return it->second;
}

RangeSets::Id RangeSets::unite(Id a, Id b) {
  if (a == b || b == kEmpty) return a;
  if (a == kEmpty) return b;
  if (a > b) std::swap(a, b);
  uint64_t key = (uint64_t(a) << 32) | b;
  if (auto it = unions_.find(key); it != unions_.end()) return it->second;
  std::vector<uint32_t> u;
  std::set_union(sets_[a].begin(), sets_[a].end(), sets_[b].begin(), sets_[b].end(), std::back_inserter(u));
  Id id = of(std::move(u));
  unions_.emplace(key, id);
  return id;
}

RangeSets::Id RangeSets::with(Id a, uint32_t r) {
  if (contains(a, r)) return a;
  std::vector<uint32_t> v = sets_[a];
  v.push_back(r);
  return of(std::move(v));
}

RangeSets::Id RangeSets::without(Id a, uint32_t r) {
  if (!contains(a, r)) return a;
  std::vector<uint32_t> v = sets_[a];
  v.erase(std::find(v.begin(), v.end(), r));
  return of(std::move(v));
}

bool RangeSets::contains(Id a, uint32_t r) const {
  return std::binary_search(sets_[a].begin(), sets_[a].end(), r);
}

}  // namespace onegrad
