// A TIR reduction block in the form the Tensor path gives a reduction (docs/tir.md, "Reductions as
// REDUCE"): `with T.init(): C[idx] = 0` and `C[idx] = C[idx] + value`. Lowered as a STORE of a UOp
// REDUCE over the reduce loops, the kernel's reduction is visible to the shared heuristics
// (register blocking of the output axes), where stores inside loops are not.
#pragma once
#include <optional>

#include "tir/ast/module.h"

namespace onegrad::tir {

struct ReductionBlock {
  const BufferStoreNode* update;  // C[idx] = C[idx] + value
  PrimExpr value;                 // the term each reduce iteration adds
};

// The block's sum when: it has no predicate, allocations or match_buffers; its init is one store
// of 0 (the identity of +, so the sum starts where the interpreter's does: bit for bit the same
// additions in the same order) to C[idx]; its body is one store C[idx] = C[idx] + value at the
// same indices, of a scalar type; `value` does not read C's data, calls no PrimFunc and divides
// only by literals (nothing in it can fault or write); `idx` uses no reduce iter var.
std::optional<ReductionBlock> match_reduction(const BlockRealizeNode& br);

}  // namespace onegrad::tir
