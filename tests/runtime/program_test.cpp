#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/cpu_compiler.h"
#include "runtime/program_cache.h"
#include "runtime_test_util.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

using testing::add_kernel;
using testing::sum_kernel;
using testing::TempDir;

Buffer floats(const std::vector<float>& v) {
  Buffer b("CPU", ScalarType::FLOAT32, v.size());
  b.copyin(v.data(), v.size() * sizeof(float));
  return b;
}

std::vector<float> read(Buffer& b) {
  std::vector<float> v(b.count());
  b.copyout(v.data(), b.nbytes());
  return v;
}

TEST(RuntimeProgram, ElementwiseAdd) {
  TempDir dir;
  ProgramCache cache(dir.path);
  auto add = cache.get(get_device("CPU"), add_kernel());
  EXPECT_EQ(add->name(), "add_f32");
  EXPECT_EQ(add->num_buffers(), 3);
  EXPECT_EQ(add->num_vars(), 1);
  Buffer a = floats({1, 2, 3, 4, 5}), b = floats({10, 20, 30, 40, 50});
  Buffer out("CPU", ScalarType::FLOAT32, 5);
  std::vector<Buffer*> bufs = {&out, &a, &b};
  std::vector<int64_t> vars = {5};
  add->run(bufs, vars);
  EXPECT_EQ(read(out), (std::vector<float>{11, 22, 33, 44, 55}));
}

TEST(RuntimeProgram, Reduction) {
  TempDir dir;
  ProgramCache cache(dir.path);
  auto sum = cache.get(get_device("CPU"), sum_kernel());
  std::vector<float> in(1000);
  std::iota(in.begin(), in.end(), 1.0f);
  Buffer src = floats(in);
  Buffer out("CPU", ScalarType::FLOAT32, 1);
  std::vector<Buffer*> bufs = {&out, &src};
  std::vector<int64_t> vars = {1000};
  sum->run(bufs, vars);
  EXPECT_EQ(read(out)[0], 500500.0f);
}

// No -ffast-math: NaN compares unequal to itself and inf survives arithmetic.
TEST(RuntimeProgram, NanAndInfBehave) {
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec spec{"isnan_f32",
                   "#include <stdint.h>\n"
                   "void isnan_f32(void** bufs, const int64_t* vars) {\n"
                   "  float* out = bufs[0]; const float* in = bufs[1];\n"
                   "  for (int64_t i = 0; i < vars[0]; i++) out[i] = (in[i] != in[i]) ? 1.0f : in[i] * 2.0f;\n"
                   "}\n",
                   2, 1};
  auto prog = cache.get(get_device("CPU"), spec);
  const float inf = std::numeric_limits<float>::infinity();
  Buffer in = floats({std::nanf(""), inf, -inf, 3.0f});
  Buffer out("CPU", ScalarType::FLOAT32, 4);
  std::vector<Buffer*> bufs = {&out, &in};
  std::vector<int64_t> vars = {4};
  prog->run(bufs, vars);
  EXPECT_EQ(read(out), (std::vector<float>{1.0f, inf, -inf, 6.0f}));
}

TEST(RuntimeProgram, CommandBufferRunsInOrderAndReplays) {
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& cpu = get_device("CPU");
  auto add = cache.get(cpu, add_kernel());
  auto sum = cache.get(cpu, sum_kernel());
  Buffer a = floats({1, 2, 3}), b = floats({1, 1, 1});
  Buffer total("CPU", ScalarType::FLOAT32, 1);
  CommandBuffer cmds;
  cmds.add(add, {&a, &a, &b}, {3});  // a += b
  cmds.add(sum, {&total, &a}, {3});  // reads what the first launch wrote
  EXPECT_EQ(cmds.size(), 2u);
  cmds.run();
  EXPECT_EQ(read(a), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(read(total)[0], 9.0f);
  cmds.run();  // a replay runs every launch again
  EXPECT_EQ(read(a), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(read(total)[0], 12.0f);
}

// DEBUG=2 shows where a replay spends its time: each launch (and copy) runs alone and is printed
// with its name and milliseconds, in order; the results are the same.
TEST(RuntimeProgram, CommandBufferUnderDebugTwoTimesEachLaunch) {
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& cpu = get_device("CPU");
  Buffer a = floats({1, 2, 3}), b = floats({1, 1, 1}), c = floats({0, 0, 0});
  Buffer total("CPU", ScalarType::FLOAT32, 1);
  CommandBuffer cmds;
  cmds.add(cache.get(cpu, add_kernel()), {&a, &a, &b}, {3});
  cmds.add_copy(&c, &a);
  cmds.add(cache.get(cpu, sum_kernel()), {&total, &c}, {3});
  ScopedSetting debug("DEBUG", 2);
  ::testing::internal::CaptureStderr();
  cmds.run();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(read(total)[0], 9.0f);
  size_t add = out.find("  replay add_f32 "), copy = out.find("  replay copy CPU -> CPU "),
         sum = out.find("  replay sum_f32 ");
  ASSERT_NE(add, std::string::npos) << out;
  ASSERT_NE(copy, std::string::npos) << out;
  ASSERT_NE(sum, std::string::npos) << out;
  EXPECT_LT(add, copy);
  EXPECT_LT(copy, sum);
  EXPECT_NE(out.find(" ms\n"), std::string::npos) << out;
}

// A program on a queue that only records: its launches end when waited for, or fail at launch.
// It stands for a device queue (OpenCL's) whose failures cannot be provoked on demand.
ProgramSpec one_buffer_spec(std::string name) {
  ProgramSpec spec;
  spec.name = std::move(name);
  spec.num_buffers = 1;
  return spec;
}

class RecordingQueueProgram final : public Program {
 public:
  RecordingQueueProgram(std::string name, bool fails, std::vector<std::string>* log)
      : Program(one_buffer_spec(std::move(name)), "CPU"), fails_(fails), log_(log) {}
  void wait() const override {
    if (queued_ > 0) log_->push_back("wait " + name());
    queued_ = 0;
  }

 protected:
  void launch(void**, const int64_t*) const override {
    if (fails_) throw DeviceError("'" + name() + "' failed to launch");
    log_->push_back("queue " + name());
    ++queued_;
  }

 private:
  bool fails_;
  std::vector<std::string>* log_;
  mutable int queued_ = 0;
};

// The launches queued before a failing one still use the caller's buffers: run() waits for them
// before the error reaches the caller, and reports the failing launch's own error.
TEST(RuntimeProgram, CommandBufferWaitsForQueuedLaunchesWhenOneFails) {
  std::vector<std::string> log;
  auto first = std::make_shared<RecordingQueueProgram>("first", false, &log);
  auto second = std::make_shared<RecordingQueueProgram>("second", false, &log);
  auto broken = std::make_shared<RecordingQueueProgram>("broken", true, &log);
  auto never = std::make_shared<RecordingQueueProgram>("never", false, &log);
  Buffer a = floats({1});
  CommandBuffer cmds;
  cmds.add(first, {&a});
  cmds.add(second, {&a});
  cmds.add(broken, {&a});
  cmds.add(never, {&a});
  try {
    cmds.run();
    FAIL() << "a failing launch did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "'broken' failed to launch");
  }
  EXPECT_EQ(log, (std::vector<std::string>{"queue first", "queue second", "wait first", "wait second"}));
}

// A copy is an item like a launch: it runs in its place in the order, on every run.
TEST(RuntimeProgram, CommandBufferCopiesBetweenDevicesInOrder) {
  TempDir dir;
  ProgramCache cache(dir.path);
  auto add = cache.get(get_device("CPU"), add_kernel());
  Buffer a = floats({1, 2, 3}), b = floats({10, 10, 10});
  Buffer other("CPU:1", ScalarType::FLOAT32, 3);
  CommandBuffer cmds;
  cmds.add(add, {&a, &a, &b}, {3});  // a += b
  cmds.add_copy(&other, &a);         // then a's values to CPU:1
  cmds.add(add, {&a, &a, &b}, {3});  // a += b again: the copy kept the values before it
  EXPECT_EQ(cmds.size(), 3u);
  EXPECT_EQ(cmds.copies(), 1u);
  cmds.run();
  EXPECT_EQ(read(other), (std::vector<float>{11, 12, 13}));
  EXPECT_EQ(read(a), (std::vector<float>{21, 22, 23}));
  Buffer small("CPU:1", ScalarType::FLOAT32, 2);
  try {
    cmds.add_copy(&small, &a);
    FAIL() << "a copy into a smaller buffer did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "command buffer: copy 3 of 12 bytes on CPU into 8 bytes on CPU:1");
  }
  EXPECT_THROW(cmds.add_copy(nullptr, &a), DeviceError);
}

TEST(RuntimeProgram, WrongArgumentsThrowClearly) {
  TempDir dir;
  ProgramCache cache(dir.path);
  auto add = cache.get(get_device("CPU"), add_kernel());
  Buffer a = floats({1, 2});
  std::vector<Buffer*> two = {&a, &a};
  std::vector<int64_t> vars = {2};
  try {
    add->run(two, vars);
    FAIL() << "a launch with 2 of 3 buffers did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "program 'add_f32' takes 3 buffers, got 2");
  }
  std::vector<Buffer*> three = {&a, &a, &a};
  try {
    add->run(three, {});
    FAIL() << "a launch without its variable did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "program 'add_f32' takes 1 variable values, got 0");
  }
  std::vector<Buffer*> with_null = {&a, nullptr, &a};
  EXPECT_THROW(add->run(with_null, vars), DeviceError);
  Buffer other("CPU:1", ScalarType::FLOAT32, 2);
  std::vector<Buffer*> foreign = {&a, &other, &a};
  try {
    add->run(foreign, vars);
    FAIL() << "a buffer of another device did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "program 'add_f32' runs on CPU but buffer 1 is on CPU:1");
  }
  // A command buffer checks when the launch is added, not halfway through a run.
  CommandBuffer cmds;
  EXPECT_THROW(cmds.add(add, two, vars), DeviceError);
  EXPECT_THROW(cmds.add(nullptr, two, vars), DeviceError);
  EXPECT_EQ(cmds.size(), 0u);
}

TEST(RuntimeProgram, CompileErrorCarriesCompilerMessageAndLine) {
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec bad{"broken", "#include <stdint.h>\nvoid broken(void** bufs, const int64_t* vars) {\n  int x = undeclared_name + 1;\n}\n", 0, 0};
  try {
    cache.get(get_device("CPU"), bad);
    FAIL() << "a broken kernel compiled";
  } catch (const CompileError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("C compile failed"), std::string::npos) << msg;
    EXPECT_NE(msg.find("command: "), std::string::npos) << msg;
    EXPECT_NE(msg.find("undeclared_name"), std::string::npos) << msg;  // the compiler's own words
    EXPECT_NE(msg.find("kernel.c:3:"), std::string::npos) << msg;      // and the offending line
  }
  EXPECT_EQ(cache.stats().compiles, 0u);
  // Nothing half-written is left behind in the cache.
  std::error_code ec;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path, ec))
    EXPECT_FALSE(entry.is_regular_file()) << entry.path();
}

TEST(RuntimeProgram, MissingCompilerIsAClearError) {
  TempDir dir;
  CpuCompiler cc("onegrad-no-such-compiler");
  try {
    cc.compile("void f(void) {}\n", dir.path / "f.so");
    FAIL() << "a missing compiler did not throw";
  } catch (const CompileError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("C compiler 'onegrad-no-such-compiler' not found"), std::string::npos) << msg;
    EXPECT_NE(msg.find("ONEGRAD_CC"), std::string::npos) << msg;
  }
  EXPECT_THROW(cc.cache_id(), CompileError);
}

TEST(RuntimeProgram, CompilerComesFromEnv) {
  {
    testing::ScopedEnv env("ONEGRAD_CC", "clang-42");
    EXPECT_EQ(CpuCompiler::default_command(), "clang-42");
  }
  testing::ScopedEnv env("ONEGRAD_CC", std::nullopt);
  EXPECT_EQ(CpuCompiler::default_command(), "cc");
}

TEST(RuntimeProgram, BadSpecsThrow) {
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec spec = add_kernel();
  spec.name = "add; rm -rf";
  EXPECT_THROW(cache.get(get_device("CPU"), spec), DeviceError);
  spec = add_kernel();
  spec.num_buffers = -1;
  EXPECT_THROW(cache.get(get_device("CPU"), spec), DeviceError);
  // The source compiles but has no symbol of that name.
  spec = add_kernel();
  spec.name = "not_there";
  try {
    cache.get(get_device("CPU"), spec);
    FAIL() << "a missing entry did not throw";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("has no entry 'not_there'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onegrad

namespace onegrad {
namespace {

// A threaded entry (spec.threads = 6): out[t*4 .. t*4+3] = t for each call t.
ProgramSpec threaded_fill(int threads) {
  return {"fill_by_thread",
          "#include <stdint.h>\n"
          "void fill_by_thread(void** bufs, const int64_t* vars, int64_t thread) {\n"
          "  float* out = bufs[0];\n"
          "  for (int64_t i = 0; i < 4; i++) out[thread * 4 + i] = (float)thread;\n"
          "}\n",
          1, 0, threads};
}

TEST(RuntimeProgram, ThreadedEntryRunsOncePerThreadIndex) {
  testing::TempDir dir;
  ProgramCache cache(dir.path);
  auto fill = cache.get(get_device("CPU"), threaded_fill(6));
  EXPECT_EQ(fill->threads(), 6);
  Buffer out("CPU", ScalarType::FLOAT32, 24);
  std::vector<Buffer*> bufs = {&out};
  fill->run(bufs, {});
  std::vector<float> got(24), want;
  out.copyout(got.data(), out.nbytes());
  for (int t = 0; t < 6; t++) want.insert(want.end(), 4, float(t));
  EXPECT_EQ(got, want);
  // the number of threads is part of the key: the same source with 3 threads is another program
  EXPECT_NE(spec_key(get_device("CPU"), threaded_fill(6)), spec_key(get_device("CPU"), threaded_fill(3)));
  auto fill3 = cache.get(get_device("CPU"), threaded_fill(3), "same-key");
  auto fill6 = cache.get(get_device("CPU"), threaded_fill(6), "same-key");
  EXPECT_NE(fill3, fill6);
  EXPECT_EQ(fill3->threads(), 3);
  EXPECT_EQ(fill6->threads(), 6);
}

TEST(RuntimeProgram, NegativeThreadCountIsRejected) {
  testing::TempDir dir;
  ProgramCache cache(dir.path);
  try {
    cache.get(get_device("CPU"), threaded_fill(-1));
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("program 'fill_by_thread' declares a negative number of buffers, variables or threads"),
              std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onegrad
