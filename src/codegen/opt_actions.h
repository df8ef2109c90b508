// The moves of BEAM search (docs/kernel_opts.md, "BEAM search"): every opt that applies to a kernel
// as it stands. The candidates come from one table of opt kinds and factors, and apply_opt decides
// which are legal, so an opt the backend learns later (a THREAD split, PADTO) joins the search as
// soon as apply_opt accepts it, with no change here beyond its row in the table.
#pragma once
#include <string_view>
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

// Every opt of the table tried on every axis of `sink` (SPLITs by each factor of their row, top
// and not, SWAPs of every pair, PADTOs by each multiple): those apply_opt accepts, in table order,
// without duplicates of the kernel they make. `sink` is a kernel in kernel form.
// `target`: the capabilities apply_opt checks the moves against (LOCAL, GLOBAL and GROUP_REDUCE
// lanes only where it declares launch dims and local memory); null: the C target's loop nests.
std::vector<Opt> opt_actions(const UOpRef& sink, const Capabilities* target = nullptr);

// The opts written by opts_text ("[SPLIT(1, 4, UPCAST), SWAP(0, 2), SPLIT(0, 2, LOOP, top)]"),
// parsed back. Throws OptError naming the text on anything else.
std::vector<Opt> parse_opts(std::string_view text);

}  // namespace onegrad
