// Callify (spec: Lowering Pipeline): turn the tensor graph of one realize into a single stateless
// FUNCTION. Each BUFFER becomes a numbered PARAM, so the FUNCTION's body no longer names any
// particular memory: two realizes of the same computation on different data have the same body
// (the same interned node), which is what keys the schedule cache.
#pragma once
#include <span>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

struct Callified {
  UOpRef function;             // FUNCTION(TUPLE(out0, out1, ...), buf0, buf1, ...)
  std::vector<UOpRef> buffers;  // the BUFFER nodes; buffers[k] is PARAM slot k
};

Callified callify(std::span<const UOpRef> outputs);

// The body of a FUNCTION (its TUPLE).
inline const UOpRef& function_body(const UOpRef& fn) { return fn->src[0]; }

}  // namespace onegrad
