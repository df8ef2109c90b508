// Packed panels on a CPU (spec: Lowering Pipeline, Optimize "Insert local buffers"; the buffer is
// in addrspace LOCAL, the spec's DEFINE_LOCAL: on a CPU a THREAD part is its own workgroup, and
// the C renderer declares it as an aligned array on the kernel's stack).
//
// A GEMM-like kernel re-reads the same slice of an input in every iteration of a loop that its
// address does not depend on: rec's 1x1 conv reads, for a block of 16 pixels, 240 input channels x
// 16 pixels (15 KB) once per block of 6 output channels (40 times). In the input those 240 rows
// lie 3840 bytes apart, which map to 16 of the 64 sets of a 32 KiB L1, so the slice does not stay
// in L1 although it would fit. Like MLAS's packed B, the slice is copied once, before the loop,
// into a contiguous LOCAL buffer (the panel), and the loads read the panel:
//
//   LOAD(INDEX(p, base(O, I) + c_j))        c_j constant, k_j lanes, I the REDUCE ranges it uses,
//                                           O the other ranges it uses (all outside the loop L)
//     ->  fill = END(STORE(INDEX(pan, row(F) * W + c - c0), LOAD(INDEX(p, base(O, F) + c))), F)
//                                           over fresh LOOP ranges F of I's bounds, one STORE per
//                                           distinct segment (c, k) the loads read
//         LOAD(INDEX(AFTER(pan, fill), row(I) * W + c_j - c0))
//
// row() numbers I's iterations (the outermost slowest) and W = max(c_j + k_j) - c0 is the row's
// width. The panel holds exactly the elements the loads read for every iteration of I, so each
// load reads the same values as before: results are identical, bit for bit. The fill depends only
// on O, so Linearize places it in the innermost loop of O, before the loop holding the REDUCE.
//
// A global LOAD's panel is made when (all checked per group of loads of one buffer whose addresses
// differ by constants, inside one outermost REDUCE):
//   - the REDUCE that closes its I is re-run by loops its address does not depend on, nested
//     inside every range of O (ids above them), whose trip counts multiply to >= kMinReuse (8);
//   - I's bounds are constants, the panel has at least kMinPanelBytes (2 KiB) and fits the
//     target's Capabilities::panel_bytes (all the kernel's panels together);
//   - its rows are not already consecutive in memory (then the slice is as dense as a panel), and
//     the loads read at least half of each row's width (a block of rows of a row-major matrix read
//     a column at a time would make rows of mostly unread elements);
//   - its dtype is float32 or float64, and the kernel stores nothing to its buffer.
// Runs after vectorize, so a vector load's panel row and fill are vector accesses of its lanes.
// PACK_PANELS=0 turns it off.
#pragma once
#include "codegen/capabilities.h"
#include "uop/uop.h"

namespace onegrad {

UOpRef pack_panels(const UOpRef& sink, const Capabilities& target);

}  // namespace onegrad
