// IndexError, one of the typed exceptions of uop/errors.h (kept in a header of its own so adding it
// did not touch the header every file includes): an index value outside the size it indexes
// (gather, scatter, index_select, x[idx], a loss target, one_hot, embedding), found when the result
// is realized (docs/engine.md "Index faults"): "gather: index 7 is out of bounds for dimension 0
// with size 5". Python: onegrad.errors.IndexError, a builtin IndexError.
#pragma once
#include "uop/errors.h"

namespace onegrad {

struct IndexError : Error {
  using Error::Error;
};

}  // namespace onegrad
