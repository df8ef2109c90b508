// The engine runs the tensor layer's graphs: it installs itself in the tensor layer's hooks
// (tensor/realize_hook.h) when it is linked. CMake names the anchor below undefined on every link
// with the engine, so this file is always in: nothing else refers to it.
#include "engine/device_buffers.h"
#include "engine/device_copies.h"
#include "engine/index_faults.h"
#include "engine/realize_graph.h"
#include "tensor/realize_hook.h"

namespace onegrad {

namespace {

// Index checks run in the same realize as the values they guard (docs/engine.md "Index faults").
// Copies between devices are planned first, each after its source's kernels on its own device
// (device_copies.h); one plan runs them all, in order.
RealizedGraphs realize_graphs(const std::vector<UOpRef>& graphs_in, const std::string& device) {
  ExecPlan exec;
  DeviceCopies copies;
  std::vector<UOpRef> graphs = copies.plan(graphs_in, exec);
  IndexChecks checks(graphs, device);
  RealizedGraphs got;
  got.buffers = plan_realize(checks.to_realize(), device, exec);
  run_plan(exec);
  copies.check_faults();
  got.fault = checks.read_faults(got.buffers);
  for (size_t i = 0; i < graphs.size(); i++) got.faulty.push_back(got.fault && checks.faulty(i));
  got.buffers.resize(graphs.size());  // the checks' counts follow the values
  return got;
}

const bool kInstalled = [] {
  // indexing reads the values of a buffer-data index in place (visit_device_bytes)
  realize_hooks() = RealizeHooks{realize_graphs, read_buffer, write_buffer, visit_device_bytes};
  return true;
}();

}  // namespace

}  // namespace onegrad

extern "C" bool onegrad_engine_installed() { return onegrad::kInstalled; }
