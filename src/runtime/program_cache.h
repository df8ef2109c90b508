// The two program caches (DESIGN decision 6). In memory: loaded programs by (device, key), so a
// kernel requested twice is compiled and loaded once. On disk: compiled objects by key, so a
// second process running the same program compiles nothing; it loads the object from disk.
//
// Layout: <dir>/<kind, lower case>/<hash of key, entry name and compiler id><extension>, e.g.
// ~/.cache/onegrad/cpu/3f0c...e1.so. The compiler's identity is part of the file name, so a new
// compiler version or different flags never load an object built by the old one.
#pragma once
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "runtime/build_once.h"
#include "runtime/device.h"
#include "runtime/program.h"

namespace onegrad {

struct ProgramCacheStats {
  uint64_t compiles = 0;     // objects built by the compiler
  uint64_t disk_hits = 0;    // objects loaded from the disk cache without compiling
  uint64_t memory_hits = 0;  // requests answered by an already loaded program
};

class ProgramCache {
 public:
  explicit ProgramCache(std::filesystem::path dir);

  const std::filesystem::path& dir() const { return dir_; }

  // The program of `spec` on `device`, cached under `key` (the kernel's structural key: the same
  // key must mean the same source). From memory if loaded before, else from the disk cache, else
  // compiled now. A cached object that does not load (truncated, corrupt) is compiled again.
  // Throws CompileError when the source does not compile, DeviceError for a spec that cannot be a
  // program (entry name not a C identifier, negative counts) or an object without its entry.
  std::shared_ptr<Program> get(RuntimeDevice& device, const ProgramSpec& spec, std::string_view key);
  // The same, keyed by spec_key (source, compiler and launch arity).
  std::shared_ptr<Program> get(RuntimeDevice& device, const ProgramSpec& spec);

  // Where the object of (device, spec, key) lives on disk, whether or not it exists yet.
  std::filesystem::path object_path(const RuntimeDevice& device, const ProgramSpec& spec,
                                    std::string_view key) const;

  ProgramCacheStats stats() const;

 private:
  std::shared_ptr<Program> load_or_compile(RuntimeDevice& device, const ProgramSpec& spec, std::string_view key);

  std::filesystem::path dir_;
  // Two threads asking for one kernel never both build it; kernels of different keys build at once.
  BuildOnce<std::string, std::shared_ptr<Program>> loaded_;
  std::atomic<uint64_t> compiles_{0}, disk_hits_{0}, memory_hits_{0};
};

// The key of a spec when none is given: its source and the compiler (program_key), and the counts
// of buffers and variables it is launched with.
std::string spec_key(const RuntimeDevice& device, const ProgramSpec& spec);

// The process's cache, in default_cache_dir() (read when first used).
ProgramCache& default_program_cache();

}  // namespace onegrad
