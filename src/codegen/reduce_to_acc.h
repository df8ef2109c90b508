// Reduce lowering (docs/codegen.md): every REDUCE becomes an accumulator in a register buffer,
// initialised, updated inside the reduce loops, and read after them.
#pragma once
#include "rewrite/graph_rewrite.h"
#include "uop/reduce_identity.h"  // the accumulators' initial values

namespace onegrad {

// Lower every REDUCE(value, r...) {op} of a kernel to (spec: BUFFER with addrspace REG, AFTER, END):
//
//   acc  = BUFFER ptr<T, REG> {size=1}
//   init = STORE(INDEX(AFTER(acc, ranges the value uses outside r...), 0), identity)
//   upd  = STORE(INDEX(AFTER(acc, init, r...), 0), LOAD(INDEX(AFTER(acc, init, r...), 0)) op value)
//   out  = LOAD(INDEX(AFTER(acc, END(...END(upd, r_inner)..., r_outer)), 0))
//
// so the accumulator is reset once per iteration of the loops its result depends on, and updated
// in the reduce loops. Nested REDUCEs lower inside out. A range reduced by two REDUCEs is given a
// fresh copy for the second, so each reduce loop is its own loop. A REDUCE over no ranges is its value.
UOpRef lower_reduces(const UOpRef& sink, RewriteTrace* trace = nullptr);

}  // namespace onegrad
