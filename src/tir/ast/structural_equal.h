// Structural equality of TIR up to renaming: two functions are equal when they have the same
// nodes with the same fields, Vars and Buffers matched by position (the first place each is seen
// fixes the pairing, names are ignored). Used to check that parse -> print -> parse gives the
// same IR, not just the same text.
#pragma once
#include <string>

#include "tir/ast/module.h"

namespace onegrad::tir {

// Empty when equal, else a description of the first difference.
std::string structural_difference(const PrimFunc& a, const PrimFunc& b);
std::string structural_difference(const IRModule& a, const IRModule& b);

}  // namespace onegrad::tir
