// Replace nodes inside a graph (every occurrence of each key by its value), rebuilding the users.
#pragma once
#include <unordered_map>

#include "uop/uop.h"

namespace onegrad::symbolic {

using Substitution = std::unordered_map<const UOp*, UOpRef>;

UOpRef substitute(const UOpRef& e, const Substitution& subst);

}  // namespace onegrad::symbolic
