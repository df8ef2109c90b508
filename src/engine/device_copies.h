// Copies between devices (spec README decision 7: LOAD replaces COPY; `to(device)` is a LOAD onto
// another device). Each such LOAD is an item of the realize that needs it, planned like a kernel
// (engine/exec_plan.h): its source's kernels on the source's own device (with their own copies
// first), then the copy into a new buffer on the LOAD's device, then the kernels that read it, all
// in one command buffer. docs/engine.md, "Copies".
#pragma once
#include <string>
#include <vector>

#include "engine/exec_plan.h"
#include "engine/index_faults.h"
#include "uop/uop.h"

namespace onegrad {

// Whether `u` is a LOAD onto a device other than its source's (a source with no device, a constant
// graph, is computed wherever it is loaded: no copy).
bool is_device_copy(const UOp& u);

class DeviceCopies {
 public:
  // Appends to `exec`, for every device copy under `graphs` (inner ones first), its source's
  // kernels on the source's device and the copy; returns `graphs` with each copy replaced by its
  // BUFFER (reshaped to the LOAD's shape) on the copy's device, written when `exec` runs.
  std::vector<UOpRef> plan(const std::vector<UOpRef>& graphs, ExecPlan& exec);
  // After `exec` ran: throws IndexError when a copied source depends on a failed index check.
  void check_faults();

 private:
  struct Source {
    IndexChecks checks;
    std::vector<UOpRef> buffers;
  };
  std::vector<Source> sources_;
};

}  // namespace onegrad
