// A short name for a kernel from its structure, as tinygrad names them: `r_4_8` (a reduction over
// loops of 4 and 8), `E_32` (elementwise over 32). Not unique: the program cache keys by source.
#pragma once
#include <string>

#include "uop/uop.h"

namespace onegrad {

// "r" when the kernel reduces (a REDUCE, or a REDUCE range), else "E"; then each loop's bound in
// range-id order, a symbolic bound by its variable's name. Always a C identifier.
std::string kernel_name(const UOpRef& sink);

}  // namespace onegrad
