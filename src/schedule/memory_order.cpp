#include "schedule/memory_order.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "schedule/memory_plan.h"

namespace onegrad {

std::vector<std::vector<int>> kernel_dependencies(const Schedule& s) {
  std::vector<std::vector<int>> deps(s.kernels.size());
  std::vector<int> last_writer(s.buffers.size(), -1);
  std::vector<std::vector<int>> readers(s.buffers.size());  // since the last write
  for (int j = 0; j < int(s.kernels.size()); j++) {
    const std::vector<int>& bufs = s.kernels[size_t(j)].buffers;
    std::vector<int>& d = deps[size_t(j)];
    for (size_t slot = 1; slot < bufs.size(); slot++) {  // reads: after the last write
      size_t b = size_t(bufs[slot]);
      if (last_writer[b] >= 0) d.push_back(last_writer[b]);
      readers[b].push_back(j);
    }
    size_t w = size_t(bufs[0]);  // the write: after the last write and every read since
    if (last_writer[w] >= 0) d.push_back(last_writer[w]);
    for (int r : readers[w])
      if (r != j) d.push_back(r);
    last_writer[w] = j;
    readers[w].clear();
    std::sort(d.begin(), d.end());
    d.erase(std::unique(d.begin(), d.end()), d.end());
  }
  return deps;
}

namespace {

// A kernel's buffers, each once (a kernel may read the buffer it writes).
std::vector<int> distinct_buffers(const ScheduledKernel& k) {
  std::vector<int> d = k.buffers;
  std::sort(d.begin(), d.end());
  d.erase(std::unique(d.begin(), d.end()), d.end());
  return d;
}

// The most planned bytes alive at one kernel when `s` runs in `order`.
size_t live_bound(const Schedule& s, const std::vector<int>& order) {
  return plan_schedule_memory(reorder_kernels(s, order)).live_bytes_bound();
}

}  // namespace

std::vector<int> memory_order(const Schedule& s) {
  size_t n = s.kernels.size();
  std::vector<int> original(n);
  for (size_t i = 0; i < n; i++) original[i] = int(i);
  // The buffers the plan would place, with their bytes, and how many kernels use each.
  MemoryPlan plan = plan_schedule_memory(s);
  std::vector<int64_t> bytes(s.buffers.size(), 0);
  std::vector<int> users(s.buffers.size(), 0);
  for (size_t b = 0; b < s.buffers.size(); b++)
    if (plan.slot[b] >= 0) bytes[b] = int64_t(plan.buffers[b].nbytes);
  for (const ScheduledKernel& k : s.kernels)
    for (int b : distinct_buffers(k)) users[size_t(b)]++;
  std::vector<std::vector<int>> deps = kernel_dependencies(s);
  std::vector<int> waiting(n), started(s.buffers.size(), 0), left = users;
  std::vector<std::vector<int>> dependents(n);
  for (size_t j = 0; j < n; j++) {
    waiting[j] = int(deps[j].size());
    for (int i : deps[j]) dependents[size_t(i)].push_back(int(j));
  }
  std::vector<int> order, ready;
  for (size_t j = 0; j < n; j++)
    if (waiting[j] == 0) ready.push_back(int(j));
  while (!ready.empty()) {
    size_t pick = 0;
    int64_t best = std::numeric_limits<int64_t>::max();
    for (size_t r = 0; r < ready.size(); r++) {
      int64_t delta = 0;
      for (int b : distinct_buffers(s.kernels[size_t(ready[r])])) {
        if (!started[size_t(b)]) delta += bytes[size_t(b)];
        if (left[size_t(b)] == 1) delta -= bytes[size_t(b)];
      }
      if (delta < best || (delta == best && ready[r] < ready[pick])) best = delta, pick = r;
    }
    int j = ready[pick];
    ready.erase(ready.begin() + std::ptrdiff_t(pick));
    order.push_back(j);
    for (int b : distinct_buffers(s.kernels[size_t(j)])) started[size_t(b)] = 1, left[size_t(b)]--;
    for (int d : dependents[size_t(j)])
      if (--waiting[size_t(d)] == 0) ready.push_back(d);
  }
  return live_bound(s, order) < live_bound(s, original) ? order : original;
}

Schedule reorder_kernels(const Schedule& s, const std::vector<int>& order) {
  Schedule out;
  out.num_params = s.num_params;
  out.buffers = s.buffers;
  out.outputs = s.outputs;
  for (int k : order) out.kernels.push_back(s.kernels[size_t(k)]);
  return out;
}

}  // namespace onegrad
