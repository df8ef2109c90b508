// The work of one realize as the device runs it: kernel launches and copies between devices, in
// order (spec README decision 7: a LOAD onto another device is a copy, scheduled like a kernel).
// It is planned first — schedules built, kernels compiled, buffers allocated, nothing run — so a
// copy sits between the kernels that write its source and the kernels that read it; then it runs
// as one command buffer, which an open JIT capture (launch_capture.h) records, copies included.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/kernel_stats.h"
#include "runtime/buffer.h"
#include "runtime/program.h"

namespace onegrad {

struct ExecItem {
  std::shared_ptr<const Program> program;  // null for a copy
  std::string name;                        // the kernel's entry, or "copy CPU -> CL"
  std::vector<Buffer*> bufs;               // a copy's are {dst, src}
  std::vector<int64_t> vars;
  KernelStats work;                        // for DEBUG=2's rates (a copy: its bytes)
};

class ExecPlan {
 public:
  void add_launch(ExecItem item) { items_.push_back(std::move(item)); }
  // A copy of src into dst (their sizes equal), printed at DEBUG>=1 where it falls in the order.
  void add_copy(std::shared_ptr<Buffer> dst, std::shared_ptr<Buffer> src);
  // Keeps buffers the items name alive until the plan is gone.
  void keep(const std::vector<std::shared_ptr<Buffer>>& bufs) { keep_.insert(keep_.end(), bufs.begin(), bufs.end()); }

  const std::vector<ExecItem>& items() const { return items_; }
  size_t copies() const;
  // Runs every item in order, each to completion before the next: one command buffer, or at
  // DEBUG>=2 one item at a time, timed. An open LaunchCapture records the items and the buffers.
  void run() const;

 private:
  std::vector<ExecItem> items_;
  std::vector<std::shared_ptr<Buffer>> keep_;
};

}  // namespace onegrad
