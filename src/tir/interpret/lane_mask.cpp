#include "tir/interpret/lane_mask.h"

#include <string>

#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

std::vector<char> lane_mask(const RuntimeValue& mask, int lanes, int line) {
  if (mask.lanes() != lanes)
    throw TirRuntimeError("a predicate of " + std::to_string(mask.lanes()) + " lanes masks an access of " +
                              std::to_string(lanes) + " lanes", line);
  std::vector<char> on;
  for (int i = 0; i < lanes; ++i) on.push_back(mask.truthy(i));
  return on;
}

bool any_lane_on(const std::vector<char>& mask, int first, int count) {
  if (mask.empty()) return true;
  for (int i = first; i < first + count; ++i)
    if (mask[size_t(i)]) return true;
  return false;
}

bool all_lanes_on(const std::vector<char>& mask, int first, int count) {
  if (mask.empty()) return true;
  for (int i = first; i < first + count; ++i)
    if (!mask[size_t(i)]) return false;
  return true;
}

RuntimeValue keep_lanes_on(RuntimeValue v, const RuntimeValue& otherwise, const std::vector<char>& mask, int first) {
  for (int k = 0; k < v.lanes(); ++k) {
    if (mask.empty() || mask[size_t(first + k)]) continue;
    if (v.dtype.is_float()) v.floats[size_t(k)] = otherwise.floats[size_t(k)];
    else v.ints[size_t(k)] = otherwise.ints[size_t(k)];
  }
  return v;
}

}  // namespace onegrad::tir
