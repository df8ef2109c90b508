// What a RANGE is (spec: Kernel Optimizations): its id (kernel form numbers a kernel's loops
// outermost first), its AxisType and its bound, read in one place for every layer; and the one
// test of whether a REDUCE is a scan (docs/kernel-form.md, "Scans").
#pragma once
#include <optional>

#include "uop/uop.h"

namespace onegrad {

int64_t axis_id(const UOp& range);
AxisType axis_type(const UOp& range);
std::optional<int64_t> const_bound(const UOp& range);  // nullopt when the bound is symbolic

inline int64_t axis_id(const UOpRef& range) { return axis_id(*range); }
inline AxisType axis_type(const UOpRef& range) { return axis_type(*range); }
inline std::optional<int64_t> const_bound(const UOpRef& range) { return const_bound(*range); }

// The first RANGE id no range under `sink` uses: where a pass that adds loops numbers them.
int64_t next_range_id(const UOpRef& sink);

// A REDUCE over open LOOP ranges only (never REDUCE ones): at iteration i of those loops its value
// is the reduction over iterations 0..i.
bool is_scan(const UOp& u);

}  // namespace onegrad
