#include "runtime/program_cache.h"

#include <algorithm>
#include <cctype>

#include "runtime/cache_dir.h"
#include "runtime/content_hash.h"
#include "uop/errors.h"

namespace onegrad {
namespace fs = std::filesystem;

ProgramCache::ProgramCache(fs::path dir) : dir_(std::move(dir)) {}

fs::path ProgramCache::object_path(const RuntimeDevice& device, const ProgramSpec& spec,
                                   std::string_view key) const {
  std::string kind = device.kind();
  std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  // '\0' separates the fields so that different splits of the same bytes give different names.
  std::string id = std::string(key) + '\0' + spec.name + '\0' + device.compiler().cache_id();
  return dir_ / kind / (content_hash(id) + std::string(device.compiler().object_extension()));
}

std::shared_ptr<Program> ProgramCache::get(RuntimeDevice& device, const ProgramSpec& spec, std::string_view key) {
  if (!is_c_identifier(spec.name))
    throw DeviceError("program entry name '" + spec.name + "' is not a C identifier");
  if (spec.num_buffers < 0 || spec.num_vars < 0 || spec.threads < 0)
    throw DeviceError("program '" + spec.name + "' declares a negative number of buffers, variables or threads");
  // The number of threads is a property of the loaded Program (how many calls a launch makes), so
  // it is part of the memory key whatever key the caller gives; the object on disk is the same.
  // So are the workgroup sizes.
  std::string memory_key = device.name() + '\0' + spec.name + '\0' + std::string(key) + '\0' + std::to_string(spec.threads);
  for (int64_t l : spec.local) memory_key += "," + std::to_string(l);
  memory_key += "/";
  for (int64_t g : spec.global) memory_key += "," + std::to_string(g);
  bool built = false;
  std::shared_ptr<Program> program = loaded_.get(memory_key, [&] { return load_or_compile(device, spec, key); }, &built);
  if (!built) ++memory_hits_;
  return program;
}

std::shared_ptr<Program> ProgramCache::load_or_compile(RuntimeDevice& device, const ProgramSpec& spec,
                                                       std::string_view key) {
  fs::path path = object_path(device, spec, key);
  std::error_code ec;
  if (fs::exists(path, ec)) {
    try {
      std::shared_ptr<Program> program = device.loader().load(path, spec, device);
      ++disk_hits_;
      return program;
    } catch (const DeviceError&) {
      // A truncated or foreign file (a crash mid-copy, a disk error): build it again. The new
      // object replaces it by an atomic rename, so readers in other processes are unaffected.
    }
  }
  device.compiler().compile(spec.source, path);
  ++compiles_;
  return device.loader().load(path, spec, device);
}

std::string spec_key(const RuntimeDevice& device, const ProgramSpec& spec) {
  // The launch arity is part of the key: two kernels can render to the same source while one of
  // them keeps a slot for a buffer whose every use folded away. So is the number of threads: it
  // decides how many calls a launch makes.
  return program_key(spec.source, device.compiler()) + "-b" + std::to_string(spec.num_buffers) + "-v" +
         std::to_string(spec.num_vars) + "-t" + std::to_string(spec.threads);
}

std::shared_ptr<Program> ProgramCache::get(RuntimeDevice& device, const ProgramSpec& spec) {
  return get(device, spec, spec_key(device, spec));
}

ProgramCacheStats ProgramCache::stats() const {
  return {compiles_.load(), disk_hits_.load(), memory_hits_.load()};
}

ProgramCache& default_program_cache() {
  static ProgramCache* cache = new ProgramCache(default_cache_dir());  // outlives every program user
  return *cache;
}

}  // namespace onegrad
