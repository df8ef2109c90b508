// Whether the iterations of one loop axis of a kernel may run at once (a THREAD axis), when the
// kernel may carry values from one statement to a later one through memory (a TIR kernel: a loop
// nest stores a row maximum that a second nest reads back; docs/codegen.md, "Iterations that own
// their rows").
//
// The rule, per memory (a PARAM or a register BUFFER) the kernel stores to:
//   - stored and never loaded: every store's address depends on the axis (each iteration writes
//     elements of its own; the Tensor kernels' rule);
//   - stored and loaded back: every access, store or load, addresses `axis * S + e`, with one
//     constant S >= 1 for all of that memory's accesses and e independent of the axis with
//     0 <= e < S. Then iteration i touches only the block [i*S, (i+1)*S) of that memory: no
//     iteration reads what another wrote or writes what another reads, so running them in parallel
//     (a register buffer: one copy per thread) gives the serial result.
// A rule the check cannot prove (a symbolic stride, an index through a division, a narrow integer
// that may wrap) refuses.
#pragma once
#include <optional>
#include <string>

#include "uop/uop.h"

namespace onegrad {

// An address as a linear function of one range: address = range * stride + rest, where `rest` does
// not depend on the range. Found through ADD, SUB, MUL by a constant and integer CASTs that cannot
// wrap (their operand's value range fits the target type); nullopt otherwise.
struct RowForm {
  int64_t stride = 0;
  UOpRef rest;  // index dtype
};
std::optional<RowForm> row_form(const UOpRef& address, const UOp* range);

// Empty when the iterations of `axis` (a RANGE of `sink`, a kernel in kernel form) touch only
// their own rows of every memory the kernel stores to, by the rule above; otherwise why not, naming
// the memory and `axis_name` ("the store to buffer 0 does not depend on axis 1: ...").
std::string iteration_rows_conflict(const UOpRef& sink, const UOp* axis, const std::string& axis_name = "the axis");

}  // namespace onegrad
