// A kernel order chosen for memory: the schedule's kernels, reordered within what their buffers
// allow, so that large intermediates die sooner and are born later (docs/memory_plan.md, "Kernel
// order"). The memory plan packs lifetimes; this shortens them.
#pragma once
#include <vector>

#include "schedule/schedule.h"

namespace onegrad {

// For each kernel, the kernels that must run before it: every earlier kernel that touches one of
// its buffers where either of the two writes it (read after write, write after read, write after
// write). Slot 0 of a kernel is the buffer it writes; the others it reads.
std::vector<std::vector<int>> kernel_dependencies(const Schedule& s);

// A dependency-respecting order (a permutation of kernel indices) that greedily runs, among the
// kernels whose dependencies have run, the one that adds the fewest intermediate bytes alive
// (bytes it makes alive minus bytes whose last use it is); ties go to the earlier kernel. Returns
// the schedule's own order when that keeps fewer bytes alive at once, so it never makes the bound
// of the memory plan worse.
std::vector<int> memory_order(const Schedule& s);

// `s` with its kernels in `order` (buffers, outputs and numbering unchanged).
Schedule reorder_kernels(const Schedule& s, const std::vector<int>& order);

}  // namespace onegrad
