// The lane mask of a predicated BufferLoad/BufferStore (TVM's `predicate`) on run-time values:
// which lanes an access reads or writes. A lane that is off is never touched: its load gives 0 and
// cannot fault, its store does not happen.
#pragma once
#include <vector>

#include "tir/interpret/interpret_value.h"

namespace onegrad::tir {

// One flag per lane of the mask's value (an empty mask: no predicate, every lane on). TirRuntimeError
// when the mask does not have `lanes` lanes (the checker refuses that program).
std::vector<char> lane_mask(const RuntimeValue& mask, int lanes, int line);
// Whether some / every one of the `count` lanes from `first` is on.
bool any_lane_on(const std::vector<char>& mask, int first, int count);
bool all_lanes_on(const std::vector<char>& mask, int first, int count);
// v with each lane k whose mask lane first + k is off replaced by `otherwise`'s lane k.
RuntimeValue keep_lanes_on(RuntimeValue v, const RuntimeValue& otherwise, const std::vector<char>& mask, int first);

}  // namespace onegrad::tir
