#include "tir/interpret/reinterpret_bits.h"

#include "tir/interpret/interpret_errors.h"
#include "tir/interpret/interpret_memory.h"

namespace onegrad::tir {

RuntimeValue reinterpret_bits(const RuntimeValue& v, DataType to, int line) {
  DataType from = v.dtype;
  auto has_bits = [](DataType t) { return !t.is_bool() && t.code != DataType::Code::Handle; };
  if (!has_bits(from) || !has_bits(to) || int64_t{from.bits} * from.lanes != int64_t{to.bits} * to.lanes)
    throw TirRuntimeError("tir.reinterpret of " + from.name() + " as " + to.name() + ": the sizes differ or have no bits", line);
  // Through memory, as the bitcast is defined: the lanes stored in order, read back as `to`.
  std::vector<unsigned char> bytes(static_cast<size_t>(from.bits / 8 * from.lanes));
  ArrayRef src{bytes.data(), from.element(), {from.lanes}, {}, 0};
  for (int i = 0; i < from.lanes; ++i) store_element(src, {i}, v.lane(i), "reinterpret", line);
  ArrayRef dst{bytes.data(), to.element(), {to.lanes}, {}, 0};
  std::vector<RuntimeValue> lanes;
  for (int i = 0; i < to.lanes; ++i) lanes.push_back(load_element(dst, {i}, "reinterpret", line));
  return to.lanes == 1 ? lanes[0] : concat_lanes(lanes);
}

}  // namespace onegrad::tir
