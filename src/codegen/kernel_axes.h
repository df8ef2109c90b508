// A kernel's axes (spec: Kernel Optimizations): its RANGEs in loop-nest order (by id), each with an
// AxisType, and the kernel's shape written with the spec's letters, e.g. "L64 L16 R128".
#pragma once
#include <string>
#include <vector>

#include "uop/range_axis.h"
#include "uop/uop.h"

namespace onegrad {

// Every RANGE of the kernel, sorted by id (kernel form numbers ranges in loop-nest order).
std::vector<UOpRef> kernel_axes(const UOpRef& sink);

// axis_id, axis_type and const_bound: uop/range_axis.h.

// "L64 L16 R128": one letter and bound per axis, in order; a symbolic bound prints as "n".
std::string kernel_shape(const UOpRef& sink);

// Kernel form closes each STORE with one END per loop, innermost (highest id) first. After ids
// change (an opt renumbers them) the chains are rebuilt in that order.
UOpRef sort_end_chains(const UOpRef& sink);

// A SINK source peeled: the body under its ENDs and the ranges they close, outermost first.
struct EndChain {
  UOpRef body;
  std::vector<UOpRef> ranges;
};
EndChain peel_end_chain(const UOpRef& closed);
UOpRef close_in_order(UOpRef body, std::vector<UOpRef> ranges);  // sorts ranges by id

// The memory an INDEX addresses: its PARAM or BUFFER, past the AFTERs that only order accesses.
const UOp* indexed_memory(const UOp& index);

}  // namespace onegrad
