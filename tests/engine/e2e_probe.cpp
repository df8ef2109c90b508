// Runs a small tensor program and prints how many kernels the process compiled and how many it
// loaded from the disk cache: "compiles=N disk_hits=M result=R". Used by cache_test.cpp.
#include <cstdio>

#include "runtime/program_cache.h"
#include "tensor/tensor.h"

int main() {
  using namespace onegrad;
  Tensor a = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, dtypes::float32);
  Tensor b = Tensor::from_vector(std::vector<float>{0.5f, 1, 2}, {3}, dtypes::float32);
  float r = ((a * b).relu().sum({1}).contiguous() * 2).sum().to_vector<float>()[0];
  ProgramCacheStats s = default_program_cache().stats();
  std::printf("compiles=%llu disk_hits=%llu result=%g\n", (unsigned long long)s.compiles,
              (unsigned long long)s.disk_hits, double(r));
  return 0;
}
