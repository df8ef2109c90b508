// Shared pieces of the runtime tests: a temporary folder per test (never the user's real cache),
// an environment variable set for one scope, and the hand-written C kernels the tests run.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

#include "runtime/program.h"
#include "runtime/subprocess.h"

namespace onegrad::testing {

#ifdef ONEGRAD_CACHE_PROBE
// Runs runtime_cache_probe (it prints its compile, disk-hit and memory-hit counts and one result)
// in a fresh process over cache_dir, on `device` (empty: the CPU).
inline CommandResult run_cache_probe(const std::filesystem::path& cache_dir, const std::string& device = "") {
  std::string command = "ONEGRAD_CACHE_DIR=" + shell_quote(cache_dir.string()) + " " + shell_quote(ONEGRAD_CACHE_PROBE);
  return run_command(device.empty() ? command : command + " " + device);
}
#endif

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "onegrad-test-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// Sets (or, with nullopt, unsets) an environment variable and restores the old value on exit.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(std::string n, std::optional<std::string> value) : name(std::move(n)) {
    if (const char* v = getenv(name.c_str())) old = v;
    if (value) setenv(name.c_str(), value->c_str(), 1);
    else unsetenv(name.c_str());
  }
  ~ScopedEnv() {
    if (old) setenv(name.c_str(), old->c_str(), 1);
    else unsetenv(name.c_str());
  }
};

// out[i] = a[i] + b[i] for i < vars[0]; buffers (out, a, b).
inline ProgramSpec add_kernel() {
  return {"add_f32",
          "#include <stdint.h>\n"
          "void add_f32(void** bufs, const int64_t* vars) {\n"
          "  float* out = bufs[0];\n"
          "  const float* a = bufs[1];\n"
          "  const float* b = bufs[2];\n"
          "  for (int64_t i = 0; i < vars[0]; i++) out[i] = a[i] + b[i];\n"
          "}\n",
          3, 1};
}

// out[0] = sum of in[0..vars[0]), accumulated in order; buffers (out, in).
inline ProgramSpec sum_kernel() {
  return {"sum_f32",
          "#include <stdint.h>\n"
          "void sum_f32(void** bufs, const int64_t* vars) {\n"
          "  float* out = bufs[0];\n"
          "  const float* in = bufs[1];\n"
          "  float acc = 0.0f;\n"
          "  for (int64_t i = 0; i < vars[0]; i++) acc += in[i];\n"
          "  out[0] = acc;\n"
          "}\n",
          2, 1};
}

// add_kernel in OpenCL C with the CL launch convention (render/opencl_dialect.h): per buffer its
// cl_mem and byte offset, then the variables; one work item per element.
inline ProgramSpec cl_add_kernel() {
  return {"add_f32",
          "__kernel void add_f32(__global uchar* p0, ulong o0, __global uchar* p1, ulong o1, __global uchar* p2,\n"
          "                      ulong o2, __global const long* vars) {\n"
          "  long i = get_global_id(0);\n"
          "  __global float* out = (__global float*)(p0 + o0);\n"
          "  __global const float* a = (__global const float*)(p1 + o1);\n"
          "  __global const float* b = (__global const float*)(p2 + o2);\n"
          "  if (i < vars[0]) out[i] = a[i] + b[i];\n"
          "}\n",
          3, 1, 0};
}

}  // namespace onegrad::testing
