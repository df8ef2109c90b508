// A command buffer: a list of kernel launches built once and replayed in order. It is the unit the
// scheduler hands the runtime (one per realize) and, later, what a JIT captures and replays.
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
  // Runs every launch in order, each to completion before the next (later kernels read what earlier
  // ones wrote). Running twice runs every kernel twice.
  void run() const;

  size_t size() const { return launches_.size(); }

 private:
  struct Launch {
    std::shared_ptr<const Program> program;
    std::vector<Buffer*> bufs;
    std::vector<int64_t> vars;
  };
  std::vector<Launch> launches_;
};

}  // namespace onegrad
