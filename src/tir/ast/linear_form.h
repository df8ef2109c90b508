// A small proof tool: an integer expression as a sum of coefficient * term plus a constant, where
// terms are Vars (by identity) and other subexpressions (by their printed text). Enough to see that
// `i * 4 + 4 - i * 4` is 4 (slice lengths in the parser, region extents in the type checker).
#pragma once
#include <cstdint>
#include <optional>

#include "tir/ast/expr.h"

namespace onegrad::tir {

// a - b when it is a constant, else nullopt.
std::optional<int64_t> constant_difference(const PrimExpr& a, const PrimExpr& b);
// e when it folds to a constant, else nullopt.
std::optional<int64_t> constant_value(const PrimExpr& e);

}  // namespace onegrad::tir
