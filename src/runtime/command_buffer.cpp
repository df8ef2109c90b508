#include "runtime/command_buffer.h"

#include "runtime/buffer.h"
#include "runtime/buffer_copy.h"
#include "uop/errors.h"

namespace onegrad {

void CommandBuffer::add(std::shared_ptr<const Program> program, std::vector<Buffer*> bufs,
                        std::vector<int64_t> vars) {
  if (program == nullptr) throw DeviceError("command buffer: launch " + std::to_string(size()) + " has no program");
  program->check_args(bufs, vars);
  launches_.push_back({std::move(program), std::move(bufs), std::move(vars)});
}

void CommandBuffer::add_copy(Buffer* dst, Buffer* src) {
  if (dst == nullptr || src == nullptr) throw DeviceError("command buffer: copy " + std::to_string(size()) + " has a null buffer");
  if (dst->nbytes() != src->nbytes())
    throw DeviceError("command buffer: copy " + std::to_string(size()) + " of " + std::to_string(src->nbytes()) +
                      " bytes on " + src->device() + " into " + std::to_string(dst->nbytes()) + " bytes on " + dst->device());
  launches_.push_back({nullptr, {dst, src}, {}});
}

size_t CommandBuffer::copies() const {
  size_t n = 0;
  for (const Launch& l : launches_) n += l.program == nullptr;
  return n;
}

void CommandBuffer::run() const {
  // Launches are queued without waiting (a device's queue keeps them in order, and a copy reads or
  // writes through the same queue); one wait per program at the end makes the buffer synchronous.
  for (const Launch& l : launches_) {
    if (l.program) l.program->enqueue(l.bufs, l.vars);
    else copy_buffer(*l.bufs[0], *l.bufs[1]);
  }
  for (const Launch& l : launches_)
    if (l.program) l.program->wait();
}

}  // namespace onegrad
