// A schedule for the loop nests of reduction blocks, applied before lowering (docs/tir.md,
// "Compiling: performance"). TVM's block semantics make a block's instances with different
// spatial iter var values independent; the rewrite uses that, and checks it syntactically too.
#pragma once
#include "tir/ast/module.h"

namespace onegrad::tir {

// The inner spatial loop j of a reduction nest split and its inner part moved innermost (a loop
// over up to 256 contiguous elements, or 8 or 4 unrolled: a move on TIR loops that Optimize cannot
// make on the kernel, whose loops have no order to move into), T.init hoisted out of the reduce loops
// where they are the loops inside j, and the outermost spatial loop made parallel: U independent
// accumulations per reduce step instead of one chain, and the cores.
// Returns `f` itself when no nest qualifies, else a PrimFunc with the same params, buffer_map and
// attrs (so Vars bound for the original bind the result) and the rewritten body.
// ONEGRAD_TIR_NO_SCHEDULE=1 turns it off (a benchmarking aid: read at each compile, and the
// compiled-function cache does not key by it, so set it before the process compiles anything).
PrimFunc schedule_blocks(const PrimFunc& f);

// The same schedule, with the unrolled inner parts left as serial loops of the result and named in
// `upcast`: the kernel upcasts each one's RANGE (Opt SPLIT(axis, extent, UPCAST), Expand makes the
// copies), where schedule_blocks itself marks them T.unroll. A nest whose block is a sum that the
// lowering makes a REDUCE (reduction_block.h: reduce loops exactly inside the last spatial loop) is
// left to it: only its outermost loop may become parallel.
struct BlockSchedule {
  PrimFunc func;
  std::vector<const ForNode*> upcast;  // loops of `func`
};
BlockSchedule schedule_blocks_as_opts(const PrimFunc& f);

}  // namespace onegrad::tir
