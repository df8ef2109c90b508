// Resolving FUNCTION by substitution (spec: Call Ops, "Substitute each PARAM k in TUPLE body with
// a_k"; The @function Decorator, "At schedule time, the FUNCTION is resolved by substituting each
// PARAM(k) back with its corresponding argument"). Callify resolves every FUNCTION of a realize
// before numbering buffers, and autograd differentiates the resolved graph (docs/function.md).
#pragma once
#include "uop/uop.h"

namespace onegrad {

// A placeholder PARAM: a FUNCTION body's slot k (named PARAMs are symbolic variables, not slots).
bool is_placeholder(const UOp* u);

// `root` with each GETTUPLE(FUNCTION(TUPLE(v0, v1, ...), a0, a1, ...), i) replaced by v_i with
// every placeholder PARAM k substituted by a_k. Nested FUNCTIONs are resolved innermost first, so a
// substitution never reaches into a body whose PARAMs belong to another FUNCTION. Returns root
// itself when it holds no FUNCTION. Iterative: deep graphs are fine.
UOpRef resolve_functions(const UOpRef& root);

}  // namespace onegrad
