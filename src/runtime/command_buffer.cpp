#include "runtime/command_buffer.h"

#include <chrono>
#include <cstdio>

#include "runtime/buffer.h"
#include "runtime/buffer_copy.h"
#include "uop/errors.h"
#include "uop/settings.h"

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
  if (debug_level() >= 2) return run_timed();
  // Launches are queued without waiting (a device's queue keeps them in order, and a copy reads or
  // writes through the same queue); one wait per program at the end makes the buffer synchronous.
  size_t queued = 0;
  try {
    for (; queued < launches_.size(); ++queued) {
      const Launch& l = launches_[queued];
      if (l.program) l.program->enqueue(l.bufs, l.vars);
      else copy_buffer(*l.bufs[0], *l.bufs[1]);
    }
  } catch (...) {
    // The launches already queued still read and write the caller's buffers: they are waited for
    // before the error reaches the caller, who may then free or reuse those buffers.
    for (size_t i = 0; i < queued; ++i) {
      if (!launches_[i].program) continue;
      try {
        launches_[i].program->wait();
      } catch (...) {  // the first error is the one reported
      }
    }
    throw;
  }
  for (const Launch& l : launches_)
    if (l.program) l.program->wait();
}

// Each launch run to completion alone and its time printed: where a replay (a JIT's) spends its time,
// at the cost of the overlap of queued launches.
void CommandBuffer::run_timed() const {
  for (const Launch& l : launches_) {
    auto t0 = std::chrono::steady_clock::now();
    if (l.program) l.program->run(l.bufs, l.vars);
    else copy_buffer(*l.bufs[0], *l.bufs[1]);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::string name = l.program ? l.program->name() : copy_name(l.bufs[1]->device(), l.bufs[0]->device());
    std::fprintf(stderr, "  replay %-24s %10.3f ms\n", name.c_str(), ms);
  }
}

}  // namespace onegrad
