// Replace nodes inside a graph: every occurrence of each key by its value, rebuilding the users.
#pragma once
#include <unordered_map>

#include "uop/uop.h"

namespace onegrad {

using Substitution = std::unordered_map<const UOp*, UOpRef>;

// A replacement is taken as it is (its own sources are not searched), so x -> x' and x' -> x can
// sit in one substitution. Iterative: deep graphs are fine.
UOpRef substitute(const UOpRef& root, const Substitution& subst);
// The same, given root's toposort (a caller that walked it already spares the second walk).
UOpRef substitute(const UOpRef& root, const Substitution& subst, const std::vector<const UOp*>& order);

}  // namespace onegrad
