// Memory planning (DESIGN "Mem. plan"): the buffers a schedule makes for itself and drops when it
// ends (intermediates) share storage when their lifetimes don't overlap. The plan places each such
// buffer in a slot of one arena; buffers in the same slot never live at the same time.
//
// A buffer's lifetime is the span of kernels, first to last, that take it as an argument (both
// ends inclusive: a kernel that reads A and writes B needs both at once). Never planned: the
// schedule's inputs (the user's buffers), its outputs (they outlive the schedule), empty buffers,
// and buffers no kernel uses. docs/memory_plan.md describes the assignment and what bounds the gain.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "schedule/schedule.h"

namespace onegrad {

// Kernels [first, last] of a schedule, inclusive; first = -1 when no kernel uses the buffer.
struct Lifetime {
  int first = -1;
  int last = -1;
  bool empty() const { return first < 0; }
  bool overlaps(const Lifetime& o) const { return !empty() && !o.empty() && first <= o.last && o.first <= last; }
};

// One buffer as the planner sees it.
struct PlanRequest {
  size_t nbytes = 0;
  Lifetime life;
  bool plannable = false;  // false: it keeps storage of its own
};

struct MemoryPlan {
  size_t alignment = 64;            // every slot starts at a multiple of this within the arena
  std::vector<PlanRequest> buffers; // what was planned, per buffer
  std::vector<int> slot;            // per buffer: its slot, or -1 when it has storage of its own
  std::vector<size_t> slot_offset;  // per slot: bytes into the arena
  std::vector<size_t> slot_bytes;   // per slot: the largest user, rounded up to the alignment
  size_t arena_bytes = 0;           // all slots together

  int planned_buffers() const;
  size_t bytes_before() const;      // the planned buffers, each with storage of its own
  size_t live_bytes_bound() const;  // the most planned bytes alive at one kernel: no arena is smaller
};

// Each buffer's lifetime in `s` (indexed like s.buffers).
std::vector<Lifetime> buffer_lifetimes(const Schedule& s);

// Largest first, best fit: each buffer goes to the smallest slot whose users' lifetimes all miss its
// own, or to a new slot. Because larger buffers are placed first, a slot's first user is its largest.
MemoryPlan plan_memory(std::vector<PlanRequest> buffers, size_t alignment = 64);

// The plan of a schedule's intermediate buffers.
MemoryPlan plan_schedule_memory(const Schedule& s, size_t alignment = 64);

// Throws InternalError (naming the buffers) unless the plan is sound: no two buffers in one slot
// have overlapping lifetimes, every buffer fits its slot, slots are aligned and disjoint in the
// arena, and only plannable buffers are placed.
void check_memory_plan(const MemoryPlan& plan);
// The same, checked against the schedule itself: lifetimes and sizes recomputed from its kernels,
// and no input or output placed in a slot.
void check_memory_plan(const MemoryPlan& plan, const Schedule& s);

}  // namespace onegrad
