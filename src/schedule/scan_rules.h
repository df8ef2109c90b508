// Scans from windows (DESIGN decision 10): the spec's prefix_sum reduces, for every output element
// i, a window of the n inputs ending at i. Built as written that is n^2 work; this pass finds the
// window reduce in a kernel and rewrites it into a scan, a REDUCE over the open loop i
// (docs/kernel-form.md, "Scans"), which Codegen lowers to one accumulator carried across the
// loop: n work. docs/schedule.md, "Scans" has the rule and its proof.
#pragma once
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// The kernel with every window reduce that is a prefix reduction turned into a scan.
UOpRef scans_from_windows(const UOpRef& sink, RewriteTrace* trace = nullptr);

// One REDUCE as a scan when it is a prefix window (the rules at that node only, not its sources):
// the kernel builder offers each REDUCE as it makes it, sources first. The windows inside a window
// that became a scan are offered again (they read its loop now, no longer its window's range).
UOpRef scan_from_window(const UOpRef& reduce, RewriteTrace* trace = nullptr);

// A kernel's STORE (its loops still open) with each loop that a window left in it is a prefix
// window of when run backwards (a cumsum read flipped) reversed, and that window a scan.
UOpRef scans_from_reversed_windows(const UOpRef& store, RewriteTrace* trace = nullptr);

}  // namespace onegrad
