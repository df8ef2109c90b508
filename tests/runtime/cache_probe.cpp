// A separate process for the cache tests: runs the add kernel through the default program cache
// (so ONEGRAD_CACHE_DIR picks the folder) and prints the cache counters and the result. The
// argument names the device (default CPU; CL runs the OpenCL C add kernel over 3 work items).
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/program_cache.h"
#include "runtime_test_util.h"
#include "uop/errors.h"

int main(int argc, char** argv) {
  using namespace onegrad;
  try {
    std::string device = argc > 1 ? argv[1] : "CPU";
    ProgramSpec spec = testing::add_kernel();
    if (device != "CPU") {
      spec = testing::cl_add_kernel();
      spec.threads = 3;
    }
    auto add = default_program_cache().get(get_device(device), spec);
    std::vector<float> x = {1, 2, 3};
    Buffer a(device, ScalarType::FLOAT32, 3), out(device, ScalarType::FLOAT32, 3);
    a.copyin(x.data(), sizeof(float) * 3);
    std::vector<Buffer*> bufs = {&out, &a, &a};
    std::vector<int64_t> vars = {3};
    add->run(bufs, vars);
    out.copyout(x.data(), sizeof(float) * 3);
    ProgramCacheStats s = default_program_cache().stats();
    std::printf("compiles=%llu disk_hits=%llu memory_hits=%llu result=%g,%g,%g\n",
                (unsigned long long)s.compiles, (unsigned long long)s.disk_hits,
                (unsigned long long)s.memory_hits, x[0], x[1], x[2]);
    return 0;
  } catch (const Error& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
