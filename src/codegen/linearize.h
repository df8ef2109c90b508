// Linearize (spec: Lowering Pipeline, "Topologically sort the graph and determine execution
// order"): a kernel without REDUCEs becomes one LINEAR node whose sources are its instructions in
// order, with loops as RANGE ... END and gated stores as IF ... ENDIF. docs/codegen.md has the rules.
#pragma once
#include <string>

#include "uop/uop.h"

namespace onegrad {

// One END per range: the ENDs that close the same range (two outputs stored in one loop, say) are
// merged into END(GROUP(bodies...), r), and an END over several ranges is split into one END per
// range, innermost (highest id) first.
UOpRef merge_ends(const UOpRef& sink);

// The instruction order of a kernel (after lower_reduces). Each node is placed in the innermost
// loop its sources need (loop_structure.h); within a loop, nodes and inner loops follow their
// dependencies, ties broken by the kernel's own topological order. Every node of the kernel
// appears once, except a PARAM's shape operand (a type, not an instruction), and SINK comes last.
// In the listing:
//   RANGE r ... END(body, r)        a loop; END's position closes it
//   IF(gate) {arg=n}, STORE(addr, value), ENDIF(IF)   a gated STORE (the n-th in the kernel)
// An instruction's sources are earlier instructions (or a PARAM's shape). Throws InternalError
// when the kernel's loops cannot be ordered (for instance a loop whose result is used inside it).
UOpRef linearize(const UOpRef& sink);

// The LINEAR as a listing, one instruction a line, indented by loop and IF depth:
//   %4 = RANGE index (%3) {id=0, LOOP}
//     %5 = LOAD float32 (%4)
// Names are positions in the LINEAR; a PARAM shows its shape, e.g. `PARAM ptr<float32, GLOBAL> (32) {slot=1}`.
std::string print_linear(const UOpRef& linear);

}  // namespace onegrad
