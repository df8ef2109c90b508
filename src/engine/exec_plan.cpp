#include "engine/exec_plan.h"

#include <chrono>
#include <cstdio>

#include "engine/launch_capture.h"
#include "runtime/buffer_copy.h"
#include "runtime/command_buffer.h"
#include "uop/settings.h"

namespace onegrad {

void ExecPlan::add_copy(std::shared_ptr<Buffer> dst, std::shared_ptr<Buffer> src) {
  std::string name = copy_name(src->device(), dst->device());
  if (debug_level() >= 1)
    std::fprintf(stderr, "*** %s: %zu %s (%zu bytes)\n", name.c_str(), dst->count(), dst->dtype().name().c_str(),
                 dst->nbytes());
  KernelStats work{0, 2.0 * double(dst->nbytes())};
  items_.push_back(ExecItem{nullptr, std::move(name), {dst.get(), src.get()}, {}, work});
  keep_.push_back(std::move(dst));
  keep_.push_back(std::move(src));
}

size_t ExecPlan::copies() const {
  size_t n = 0;
  for (const ExecItem& it : items_) n += it.program == nullptr;
  return n;
}

void ExecPlan::run() const {
  if (LaunchCapture* capture = open_launch_capture()) {
    for (const ExecItem& it : items_) capture->launches.push_back({it.program, it.bufs, it.vars});
    capture->buffers.insert(capture->buffers.end(), keep_.begin(), keep_.end());
  }
  if (debug_level() >= 2) {
    for (const ExecItem& it : items_) {
      auto t0 = std::chrono::steady_clock::now();
      if (it.program) it.program->run(it.bufs, it.vars);
      else copy_buffer(*it.bufs[0], *it.bufs[1]);
      double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "  run %-24s %10.3f ms  %8.2f GFLOP/s  %8.2f GB/s\n", it.name.c_str(), sec * 1e3,
                   it.work.flops / sec / 1e9, it.work.bytes / sec / 1e9);
    }
    return;
  }
  CommandBuffer cb;
  for (const ExecItem& it : items_) {
    if (it.program) cb.add(it.program, it.bufs, it.vars);
    else cb.add_copy(it.bufs[0], it.bufs[1]);
  }
  cb.run();
}

}  // namespace onegrad
