// Program::run_on_host: a kernel launched on memory the caller owns (compiled TIR functions run on
// the user's arrays this way), with the same argument checks as run().
#include <gtest/gtest.h>

#include <vector>

#include "runtime/program_cache.h"
#include "runtime_test_util.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::add_kernel;
using testing::TempDir;

std::string error_of(const Program& p, std::vector<void*> data, std::vector<int64_t> vars) {
  try {
    p.run_on_host(data, vars);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "no error";
}

TEST(RuntimeRunOnHost, RunsOnTheCallersMemory) {
  TempDir dir;
  ProgramCache cache(dir.path);
  auto add = cache.get(get_device("CPU"), add_kernel());
  std::vector<float> out(5), a{1, 2, 3, 4, 5}, b{10, 20, 30, 40, 50};
  EXPECT_EQ(error_of(*add, {out.data(), a.data(), b.data()}, {5}), "no error");
  EXPECT_EQ(out, (std::vector<float>{11, 22, 33, 44, 55}));
  EXPECT_EQ(error_of(*add, {out.data(), a.data()}, {5}), "program 'add_f32' takes 3 buffers and 1 variable values, got 2 and 1");
  EXPECT_EQ(error_of(*add, {out.data(), a.data(), b.data()}, {}), "program 'add_f32' takes 3 buffers and 1 variable values, got 3 and 0");
  EXPECT_EQ(error_of(*add, {out.data(), nullptr, b.data()}, {5}), "program 'add_f32': buffer 1 is null");
}

}  // namespace
}  // namespace onegrad
