// The rules of the derived properties, one function per property (spec: Derived Properties).
// Each computes a node's property from its sources' already-computed properties `sp`; the
// iterative driver in properties.cpp calls them in post-order. Internal to src/uop.
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad::props {

struct ShapeResult {
  bool ok = true;
  bool has = true;
  Shape shape;
  std::string error;
};

struct Interval {
  ConstValue lo, hi;
};

using SourceProps = std::vector<const UOpProps*>;

ShapeResult infer_shape(const UOp* u, const SourceProps& sp);
Device infer_device(const UOp* u, const SourceProps& sp);
std::optional<AddrSpace> infer_addrspace(const UOp* u, const SourceProps& sp);
std::optional<int64_t> infer_axis(const UOp* u, const SourceProps& sp, const ShapeResult& shape);
Interval infer_min_max(const UOp* u, const SourceProps& sp);

// A CONST index 1 (not float, not bool).
bool is_one(const UOpRef& d);

}  // namespace onegrad::props
