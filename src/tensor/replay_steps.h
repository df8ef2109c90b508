// Host work a JIT repeats on each replay. Some values a kernel reads are computed on the host and
// written into a small buffer as the graph is built: a random draw's (seed, counter), an optimizer's
// learning rate and bias corrections. A replay builds no graph, so that host code would not run and
// the buffer would keep the captured call's value (the same dropout mask every step, Adam frozen at
// step 2). Instead, while a JIT captures, such code registers a ReplayStep that redoes its host part
// and writes the new value into the same buffer; the JIT runs the steps, in capture order, before
// the captured kernels (engine/jit.h).
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// Writes nbytes of host data into the buffer that `t` (a whole buffer, made by from_data) holds.
using WriteBuffer = std::function<void(const Tensor& t, const void* src, size_t nbytes)>;
using ReplayStep = std::function<void(const WriteBuffer& write)>;

// True while a ReplayCapture is open on this thread.
bool capturing_replay_steps();
// Keeps `step` for the open capture; does nothing when none is open.
void add_replay_step(ReplayStep step);

// Collects the steps registered on this thread while it lives (captures do not nest: a second one
// throws InternalError).
class ReplayCapture {
 public:
  ReplayCapture();
  ~ReplayCapture();
  ReplayCapture(const ReplayCapture&) = delete;
  ReplayCapture& operator=(const ReplayCapture&) = delete;
  std::vector<ReplayStep> take() { return std::move(steps_); }

 private:
  std::vector<ReplayStep> steps_;
};

}  // namespace onegrad
