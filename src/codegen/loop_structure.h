// The loop structure of a kernel, as Linearize sees it (docs/codegen.md, "placement"): which
// ranges nest in which, and in which loop each node belongs.
//
//   ranges(u)  the ranges u depends on: those of its sources, itself if it is a RANGE, minus the
//              range an END closes; a STORE also depends on every range of the ENDs around it
//              (a side effect happens in exactly the loops its ENDs say, even when its value and
//              address do not use them).
//   nesting    the ranges still open around END(body, r) enclose r: the loop tree.
//   placement  a node goes in the innermost loop of ranges(u) (the kernel body when empty), so a
//              node that does not depend on an inner range is hoisted out of it.
#pragma once
#include <unordered_map>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

struct LoopStructure {
  static constexpr int kBody = -1;  // the kernel body, outside every loop

  // Every node under the SINK once, sources before users. A PARAM's shape operand is a type, not
  // a computation, so it is left out.
  std::vector<const UOp*> nodes;
  std::unordered_map<const UOp*, uint32_t> position;  // node -> index in `nodes`
  // Loops, numbered in the order their RANGEs appear in `nodes`.
  std::vector<const UOp*> range;
  std::vector<const UOp*> end;    // the END that closes each loop
  std::vector<int> parent;        // the enclosing loop, or kBody
  std::vector<int> depth;         // 1 for an outermost loop
  // Per node (by position): the loop it is placed in. A RANGE and its END are the loop itself:
  // their entry is the loop's number.
  std::vector<int> loop_of;

  int loop_number(const UOp* range_node) const;
};

// Analyze a kernel whose loops each have exactly one END (merge_ends makes it so). Throws
// InternalError naming the node when ranges do not nest (a node depends on two loops neither of
// which encloses the other) or a range is never closed.
LoopStructure analyze_loops(const UOpRef& sink);

}  // namespace onegrad
