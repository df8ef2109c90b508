// Callify (spec: Lowering Pipeline): turn the tensor graph of one realize into a single stateless
// FUNCTION. Each BUFFER becomes a numbered PARAM, so the FUNCTION's body no longer names any
// particular memory: two realizes of the same computation on different data have the same body
// (the same interned node), which is what keys the schedule cache. Bound variables become their
// variables, their values kept beside the FUNCTION.
#pragma once
#include <span>
#include <vector>

#include "uop/uop.h"
#include "uop/variable.h"

namespace onegrad {

struct Callified {
  UOpRef function;             // FUNCTION(TUPLE(out0, out1, ...), buf0, buf1, ...)
  std::vector<UOpRef> buffers;  // the BUFFER nodes; buffers[k] is PARAM slot k
  // The values of the bound variables (uop/variable.h): the body holds the variables themselves,
  // so the kernels of every value are the same.
  VarVals var_vals;
};

Callified callify(std::span<const UOpRef> outputs);

// The body of a FUNCTION (its TUPLE).
inline const UOpRef& function_body(const UOpRef& fn) { return fn->src[0]; }

}  // namespace onegrad
