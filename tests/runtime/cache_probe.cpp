// A separate process for the cache tests: runs the add kernel through the default program cache
// (so ONEGRAD_CACHE_DIR picks the folder) and prints the cache counters and the result.
#include <cstdio>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/program_cache.h"
#include "runtime_test_util.h"
#include "uop/errors.h"

int main() {
  using namespace onegrad;
  try {
    auto add = default_program_cache().get(get_device("CPU"), testing::add_kernel());
    std::vector<float> x = {1, 2, 3};
    Buffer a("CPU", ScalarType::FLOAT32, 3), out("CPU", ScalarType::FLOAT32, 3);
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
