// Index math as infix text, for messages, tests and the CLI: "x*4 + y", "(x + 3)//4",
// "max(x, 0)", "where(x < 4, x, 0)". A sum shows `a + b*-1` as `a - b`; other ops print as
// "OP(src, ...)". Nodes are printed as trees (a shared subexpression appears at every use).
#pragma once
#include <string>

#include "uop/uop.h"

namespace onegrad::symbolic {

std::string render(const UOpRef& e);

}  // namespace onegrad::symbolic
