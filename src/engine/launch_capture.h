// While a JIT captures (engine/jit.h), every kernel launch and device copy a realize makes on this
// thread is also recorded here (engine/exec_plan.h), with the buffers it used kept alive, so the launches can be replayed later without
// scheduling anything again.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/program.h"

namespace onegrad {

struct CapturedLaunch {
  std::shared_ptr<const Program> program;  // null for a copy between devices: bufs is {dst, src}
  std::vector<Buffer*> bufs;
  std::vector<int64_t> vars;
};

// Open while it lives (one per thread at a time: a second throws InternalError).
class LaunchCapture {
 public:
  LaunchCapture();
  ~LaunchCapture();
  LaunchCapture(const LaunchCapture&) = delete;
  LaunchCapture& operator=(const LaunchCapture&) = delete;

  std::vector<CapturedLaunch> launches;
  std::vector<std::shared_ptr<Buffer>> buffers;  // every buffer the launches name, kept alive
};

// The capture open on this thread, or null: realize_graph records its launches into it.
LaunchCapture* open_launch_capture();

// While it lives, launches on this thread are not recorded: work whose result only the host reads
// while a graph is built (an ONNX Reshape's shape) is frozen into the graph, so a replay need not
// redo it.
class LaunchCapturePause {
 public:
  LaunchCapturePause();
  ~LaunchCapturePause();
  LaunchCapturePause(const LaunchCapturePause&) = delete;
  LaunchCapturePause& operator=(const LaunchCapturePause&) = delete;

 private:
  LaunchCapture* paused_;
};

}  // namespace onegrad
