#include "engine/kernel_compiler.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <unordered_map>

#include "codegen/kernel_axes.h"
#include "render/lower_kernel.h"
#include "runtime/program_cache.h"
#include "uop/settings.h"

namespace onegrad {

const CompiledKernel& compiled_kernel(const UOpRef& ast, RuntimeDevice& device, bool* lowered) {
  // Per device and lowering settings, by AST. Entries are never dropped (a CompiledKernel is returned by reference); the
  // count is bounded by the distinct kernels a process runs.
  static std::mutex mu;
  static std::map<std::string, std::unordered_map<const UOp*, std::pair<UOpRef, std::unique_ptr<CompiledKernel>>>>
      cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& per_device = cache[device.name() + "|" + lowering_settings_key()];  // a setting changes the C
  auto it = per_device.find(ast.get());
  if (it != per_device.end()) {
    if (lowered) *lowered = false;
    return *it->second.second;
  }
  LoweredKernel lk = lower_kernel(ast, "", default_opts(ast));
  if (debug_level() >= 3)
    std::fprintf(stderr, "opts %-24s %-28s -> %-36s %s\n", lk.spec.name.c_str(), kernel_shape(ast).c_str(),
                 kernel_shape(lk.optimized).c_str(), opts_text(lk.opts).c_str());
  auto ck = std::make_unique<CompiledKernel>();
  ck->name = lk.spec.name;
  ck->source = lk.spec.source;
  ck->linear = lk.linear;
  ck->program = default_program_cache().get(device, lk.spec);
  if (lowered) *lowered = true;
  return *per_device.emplace(ast.get(), std::make_pair(ast, std::move(ck))).first->second.second;
}

}  // namespace onegrad
