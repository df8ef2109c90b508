#include "runtime/command_buffer.h"

#include "uop/errors.h"

namespace onegrad {

void CommandBuffer::add(std::shared_ptr<const Program> program, std::vector<Buffer*> bufs,
                        std::vector<int64_t> vars) {
  if (program == nullptr) throw DeviceError("command buffer: launch " + std::to_string(size()) + " has no program");
  program->check_args(bufs, vars);
  launches_.push_back({std::move(program), std::move(bufs), std::move(vars)});
}

void CommandBuffer::run() const {
  for (const Launch& l : launches_) l.program->run(l.bufs, l.vars);
}

}  // namespace onegrad
