#include "schedule/memory_plan.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "uop/errors.h"

namespace onegrad {

namespace {

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

std::string lifetime_text(const Lifetime& l) {
  return l.empty() ? "unused" : "kernels " + std::to_string(l.first) + ".." + std::to_string(l.last);
}

[[noreturn]] void plan_error(const std::string& what) { throw InternalError("memory plan: " + what); }

}  // namespace

int MemoryPlan::planned_buffers() const {
  return int(std::count_if(slot.begin(), slot.end(), [](int s) { return s >= 0; }));
}

size_t MemoryPlan::bytes_before() const {
  size_t total = 0;
  for (size_t b = 0; b < slot.size(); b++)
    if (slot[b] >= 0) total += round_up(buffers[b].nbytes, alignment);
  return total;
}

size_t MemoryPlan::live_bytes_bound() const {
  // Sizes enter where a lifetime starts and leave after it ends; the running sum peaks at the bound.
  std::vector<std::pair<int, int64_t>> events;  // (kernel, +bytes at first / -bytes after last)
  for (size_t b = 0; b < slot.size(); b++) {
    if (slot[b] < 0) continue;
    int64_t bytes = int64_t(round_up(buffers[b].nbytes, alignment));
    events.push_back({buffers[b].life.first, bytes});
    events.push_back({buffers[b].life.last + 1, -bytes});
  }
  std::sort(events.begin(), events.end());  // at one kernel, frees (negative) sort before allocations
  int64_t live = 0, most = 0;
  for (const auto& [kernel, bytes] : events) most = std::max(most, live += bytes);
  return size_t(most);
}

std::vector<Lifetime> buffer_lifetimes(const Schedule& s) {
  std::vector<Lifetime> life(s.buffers.size());
  for (int k = 0; k < int(s.kernels.size()); k++)
    for (int b : s.kernels[size_t(k)].buffers) {
      Lifetime& l = life[size_t(b)];
      if (l.empty()) l.first = k;
      l.last = k;  // kernels are visited in order, so the last visit is the last use
    }
  return life;
}

MemoryPlan plan_memory(std::vector<PlanRequest> buffers, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    plan_error("alignment " + std::to_string(alignment) + " is not a power of two");
  MemoryPlan plan;
  plan.alignment = alignment;
  plan.slot.assign(buffers.size(), -1);
  std::vector<size_t> order;
  for (size_t b = 0; b < buffers.size(); b++)
    if (buffers[b].plannable && buffers[b].nbytes > 0 && !buffers[b].life.empty()) order.push_back(b);
  // Largest first; ties by first use, then by number, so a plan never depends on sort stability.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const PlanRequest &x = buffers[a], &y = buffers[b];
    if (x.nbytes != y.nbytes) return x.nbytes > y.nbytes;
    if (x.life.first != y.life.first) return x.life.first < y.life.first;
    return a < b;
  });
  std::vector<std::vector<Lifetime>> users;  // per slot: the lifetimes placed in it
  for (size_t b : order) {
    const Lifetime& life = buffers[b].life;
    int best = -1;
    for (int s = 0; s < int(users.size()); s++) {
      bool free = std::none_of(users[size_t(s)].begin(), users[size_t(s)].end(),
                               [&](const Lifetime& u) { return u.overlaps(life); });
      // Every slot is at least as large as this buffer (larger ones came first): the best fit is
      // the smallest free slot.
      if (free && (best < 0 || plan.slot_bytes[size_t(s)] < plan.slot_bytes[size_t(best)])) best = s;
    }
    if (best < 0) {
      best = int(users.size());
      users.emplace_back();
      plan.slot_bytes.push_back(round_up(buffers[b].nbytes, alignment));
    }
    users[size_t(best)].push_back(life);
    plan.slot[b] = best;
  }
  for (size_t bytes : plan.slot_bytes) {
    plan.slot_offset.push_back(plan.arena_bytes);
    plan.arena_bytes += bytes;
  }
  plan.buffers = std::move(buffers);
  return plan;
}

MemoryPlan plan_schedule_memory(const Schedule& s, size_t alignment) {
  std::vector<Lifetime> life = buffer_lifetimes(s);
  std::vector<PlanRequest> requests(s.buffers.size());
  for (size_t b = 0; b < s.buffers.size(); b++)
    requests[b] = {size_t(s.buffers[b].size) * size_t(s.buffers[b].dtype.itemsize()), life[b], int(b) >= s.num_params};
  for (int b : s.outputs) requests[size_t(b)].plannable = false;  // the user gets these
  return plan_memory(std::move(requests), alignment);
}

void check_memory_plan(const MemoryPlan& plan) {
  size_t n = plan.buffers.size(), slots = plan.slot_bytes.size();
  if (plan.slot.size() != n || plan.slot_offset.size() != slots)
    plan_error("the plan's tables disagree in length");
  size_t end = 0;
  for (size_t s = 0; s < slots; s++) {
    if (plan.slot_offset[s] % plan.alignment != 0 || plan.slot_bytes[s] % plan.alignment != 0)
      plan_error("slot " + std::to_string(s) + " is not aligned to " + std::to_string(plan.alignment) + " bytes");
    if (plan.slot_offset[s] < end) plan_error("slot " + std::to_string(s) + " overlaps the slot before it");
    end = plan.slot_offset[s] + plan.slot_bytes[s];
  }
  if (end > plan.arena_bytes) plan_error("the slots run past the arena's " + std::to_string(plan.arena_bytes) + " bytes");
  std::vector<std::vector<size_t>> users(slots);
  for (size_t b = 0; b < n; b++) {
    int s = plan.slot[b];
    if (s < 0) continue;
    const PlanRequest& r = plan.buffers[b];
    if (size_t(s) >= slots) plan_error("buffer " + std::to_string(b) + " is in slot " + std::to_string(s) + ", which does not exist");
    if (!r.plannable) plan_error("buffer " + std::to_string(b) + " must keep storage of its own but is in slot " + std::to_string(s));
    if (r.life.empty()) plan_error("buffer " + std::to_string(b) + " is in a slot but no kernel uses it");
    if (r.nbytes > plan.slot_bytes[size_t(s)])
      plan_error("buffer " + std::to_string(b) + " (" + std::to_string(r.nbytes) + " bytes) does not fit slot " +
                 std::to_string(s) + " (" + std::to_string(plan.slot_bytes[size_t(s)]) + " bytes)");
    for (size_t other : users[size_t(s)])
      if (plan.buffers[other].life.overlaps(r.life))
        plan_error("buffers " + std::to_string(other) + " (" + lifetime_text(plan.buffers[other].life) + ") and " +
                   std::to_string(b) + " (" + lifetime_text(r.life) + ") share slot " + std::to_string(s) +
                   " while both are alive");
    users[size_t(s)].push_back(b);
  }
}

void check_memory_plan(const MemoryPlan& plan, const Schedule& s) {
  if (plan.buffers.size() != s.buffers.size())
    plan_error("the plan has " + std::to_string(plan.buffers.size()) + " buffers, the schedule " +
               std::to_string(s.buffers.size()));
  check_memory_plan(plan);
  std::vector<Lifetime> life = buffer_lifetimes(s);
  for (size_t b = 0; b < s.buffers.size(); b++) {
    const PlanRequest& r = plan.buffers[b];
    size_t nbytes = size_t(s.buffers[b].size) * size_t(s.buffers[b].dtype.itemsize());
    if (r.nbytes != nbytes || r.life.first != life[b].first || r.life.last != life[b].last)
      plan_error("buffer " + std::to_string(b) + " was planned as " + std::to_string(r.nbytes) + " bytes over " +
                 lifetime_text(r.life) + " but the schedule has " + std::to_string(nbytes) + " bytes over " +
                 lifetime_text(life[b]));
    if (plan.slot[b] >= 0 && int(b) < s.num_params) plan_error("input buffer " + std::to_string(b) + " is in a slot");
  }
  for (int b : s.outputs)
    if (plan.slot[size_t(b)] >= 0) plan_error("output buffer " + std::to_string(b) + " is in a slot");
}

}  // namespace onegrad
