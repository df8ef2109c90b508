#include "engine/kernel_inspect.h"

#include <unordered_set>

#include "engine/device_buffers.h"
#include "engine/device_copies.h"
#include "engine/index_faults.h"
#include "engine/two_stage_sum.h"
#include "render/kernel_name.h"
#include "runtime/buffer.h"
#include "runtime/buffer_copy.h"
#include "runtime/device.h"
#include "schedule/callify.h"
#include "schedule/rangeify.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

std::string name_of(const Device& d) { return canonical_device_name(d.names.at(0)); }

// The kernels of one realize on `device`, as realize_all schedules them: index checks taken out,
// their counts as more outputs.
void append_kernels(const std::vector<UOpRef>& outputs, const std::string& device, std::vector<ScheduledKernelView>& out) {
  IndexChecks checks(split_whole_sums(outputs, device), device);
  Schedule s = rangeify(callify(checks.to_realize()).function);
  for (const ScheduledKernel& k : s.kernels)
    if (s.buffers[size_t(k.buffers[0])].size != 0) out.push_back({k.ast, kernel_name(k.ast), k.reason, device});
}

// As DeviceCopies::plan, without running or allocating anything: each copy's source's kernels on
// the source's device, the copy, and the graphs with each copy as a buffer on its device.
std::vector<UOpRef> append_copies(const std::vector<UOpRef>& graphs, std::vector<ScheduledKernelView>& out) {
  std::vector<const UOp*> copies;
  std::unordered_set<const UOp*> seen;
  for (const UOpRef& g : graphs)
    for (const UOp* u : g->toposort())
      if (is_device_copy(*u) && seen.insert(u).second) copies.push_back(u);
  Substitution done;
  for (const UOp* c : copies) {
    std::optional<std::vector<int64_t>> shape = c->static_shape();
    if (!shape) continue;  // a symbolic size is known when it runs; its source stays in the graph
    UOpRef source = substitute(c->src[0], done);
    std::string from = name_of(c->src[0]->device()), to = name_of(c->arg.get<LoadArg>().device);
    append_kernels({source}, from, out);
    size_t count = 1;
    for (int64_t d : *shape) count *= size_t(d);
    ScheduledKernelView copy{nullptr, copy_name(from, to), "a LOAD onto another device", to};
    copy.copy_from = from;
    copy.copy_bytes = int64_t(count) * c->dtype.itemsize();
    out.push_back(std::move(copy));
    // the buffer is not allocated: a Buffer takes memory on first use
    done[c] = UOp::create(Ops::RESHAPE, {buffer_node(std::make_shared<Buffer>(to, c->dtype, count)), UOp::shape_operand(*shape)});
  }
  if (done.empty()) return graphs;
  std::vector<UOpRef> result;
  for (const UOpRef& g : graphs) result.push_back(substitute(g, done));
  return result;
}

}  // namespace

std::vector<ScheduledKernelView> schedule_kernels(const std::vector<UOpRef>& outputs) {
  if (outputs.empty()) return {};
  const Device& d = outputs[0]->device();
  std::vector<ScheduledKernelView> out;
  std::vector<UOpRef> graphs = append_copies(outputs, out);
  append_kernels(graphs, d.is_null() ? "CPU" : name_of(d), out);
  return out;
}

}  // namespace onegrad
