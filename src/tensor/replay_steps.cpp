#include "tensor/replay_steps.h"

#include "uop/errors.h"

namespace onegrad {

namespace {
thread_local std::vector<ReplayStep>* open_capture = nullptr;
}  // namespace

bool capturing_replay_steps() { return open_capture != nullptr; }

void add_replay_step(ReplayStep step) {
  if (open_capture) open_capture->push_back(std::move(step));
}

ReplayCapture::ReplayCapture() {
  if (open_capture) throw InternalError("jit: a capture is already open on this thread (jitted functions do not nest)");
  open_capture = &steps_;
}

ReplayCapture::~ReplayCapture() { open_capture = nullptr; }

}  // namespace onegrad
