#include "engine/kernel_compiler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include "codegen/kernel_axes.h"
#include "engine/beam_opts.h"
#include "render/device_target.h"
#include "render/lower_kernel.h"
#include "runtime/build_once.h"
#include "runtime/program_cache.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"

namespace onegrad {

namespace {

// Per device and lowering settings (a setting changes the C), by AST. Entries are never dropped (a
// CompiledKernel is returned by reference); the count is bounded by the distinct kernels a process
// runs. The entry holds the AST, so the node its key points at stays alive.
using KernelKey = std::pair<std::string, const UOp*>;
BuildOnce<KernelKey, std::shared_ptr<const CompiledKernel>>& kernel_cache() {
  static auto* cache = new BuildOnce<KernelKey, std::shared_ptr<const CompiledKernel>>();
  return *cache;
}

KernelKey key_of(const UOpRef& ast, const RuntimeDevice& device) {
  return {device.name() + "|" + lowering_settings_key(), ast.get()};
}

}  // namespace

const CompiledKernel& compiled_kernel(const UOpRef& ast, RuntimeDevice& device, bool* lowered) {
  return *kernel_cache().get(
      key_of(ast, device),
      [&] {
        RenderTarget target = device_target(device);
        LoweredKernel lk = lower_kernel(ast, "", kernel_opts(ast, device, target.capabilities), &target);
        if (debug_level() >= 3)
          std::fprintf(stderr, "opts %-24s %-28s -> %-36s %s\n", lk.spec.name.c_str(), kernel_shape(ast).c_str(),
                       kernel_shape(lk.optimized).c_str(), opts_text(lk.opts).c_str());
        auto ck = std::make_shared<CompiledKernel>();
        ck->ast = ast;
        ck->name = lk.spec.name;
        ck->source = lk.spec.source;
        ck->linear = lk.linear;
        ck->program = default_program_cache().get(device, lk.spec);
        return std::shared_ptr<const CompiledKernel>(std::move(ck));
      },
      lowered);
}

std::unordered_set<const UOp*> build_kernels(const std::vector<UOpRef>& asts, RuntimeDevice& device) {
  std::vector<const UOpRef*> missing;
  for (const UOpRef& ast : asts)
    if (kernel_cache().find(key_of(ast, device)) == nullptr) missing.push_back(&ast);
  size_t workers = std::min<size_t>(missing.size(), size_t(hardware_threads()));
  std::unordered_set<const UOp*> built;
  std::atomic<size_t> next{0};
  std::mutex mu;
  auto work = [&] {
    for (size_t i; (i = next++) < missing.size();) {
      try {
        bool lowered = false;
        compiled_kernel(*missing[i], device, &lowered);
        std::lock_guard lock(mu);
        if (lowered) built.insert(missing[i]->get());
      } catch (...) {
        // left for the caller: the same error comes again, in schedule order, when it asks
      }
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < workers; t++) threads.emplace_back(work);
  work();  // this thread is one of the workers (the only one for a single new kernel)
  for (std::thread& t : threads) t.join();
  return built;
}

}  // namespace onegrad
