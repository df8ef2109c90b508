// A command buffer: a list of kernel launches and buffer copies built once and replayed in order.
// It is the unit the engine hands the runtime (one per realize, copies between devices included)
// and what a JIT captures and replays.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/program.h"

namespace onegrad {

class CommandBuffer {
 public:
  // Appends a launch. The arguments are checked now (Program::check_args), so a bad launch fails
  // while the list is built, not halfway through a run. The buffers must outlive the command buffer.
  void add(std::shared_ptr<const Program> program, std::vector<Buffer*> bufs, std::vector<int64_t> vars = {});
  // Appends a copy of src's bytes into dst (runtime/buffer_copy.h), which may be on another
  // device. Throws DeviceError now when a buffer is null or the sizes differ.
  void add_copy(Buffer* dst, Buffer* src);
  // Runs every launch in order (later kernels read what earlier ones wrote) and returns when all
  // have ended. If one fails, those queued before it are waited for and its error is rethrown.
  // Running twice runs every kernel twice. Under DEBUG=2 each launch runs alone and its time is
  // printed (`  replay NAME  0.123 ms`).
  void run() const;

  size_t size() const { return launches_.size(); }  // launches and copies
  size_t copies() const;


 private:
  void run_timed() const;

  struct Launch {
    std::shared_ptr<const Program> program;  // null for a copy: bufs is {dst, src}
    std::vector<Buffer*> bufs;
    std::vector<int64_t> vars;
  };
  std::vector<Launch> launches_;
};

}  // namespace onegrad
