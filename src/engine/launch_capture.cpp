#include "engine/launch_capture.h"

#include "uop/errors.h"

namespace onegrad {

namespace {
thread_local LaunchCapture* open_capture = nullptr;
}  // namespace

LaunchCapture::LaunchCapture() {
  if (open_capture) throw InternalError("jit: a launch capture is already open on this thread");
  open_capture = this;
}

LaunchCapture::~LaunchCapture() { open_capture = nullptr; }

LaunchCapture* open_launch_capture() { return open_capture; }

LaunchCapturePause::LaunchCapturePause() : paused_(open_capture) { open_capture = nullptr; }

LaunchCapturePause::~LaunchCapturePause() { open_capture = paused_; }

}  // namespace onegrad
