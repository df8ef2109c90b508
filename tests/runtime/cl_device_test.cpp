// The CL device (runtime/opencl/): buffers, views, the binary cache across processes, launches with
// and without workgroup sizes, profiling events, and the errors. Skips, naming why, where no OpenCL
// platform exists.
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "runtime/opencl/cl_device.h"
#include "runtime/program_cache.h"
#include "runtime/subprocess.h"
#include "runtime_test_util.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::TempDir;

#define SKIP_WITHOUT_OPENCL()                                                            \
  do {                                                                                   \
    if (std::string why = opencl_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

TEST(ClDevice, NamesAndTraits) {
  SKIP_WITHOUT_OPENCL();
  std::vector<std::string> names = opencl_device_names();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "CL");
  RuntimeDevice& dev = get_device("cl:0");
  EXPECT_EQ(dev.name(), "CL");
  EXPECT_EQ(dev.kind(), "CL");
  EXPECT_EQ(&dev, &get_device("CL"));
  EXPECT_GT(dev.traits().compute_units, 0);
  EXPECT_GT(dev.traits().max_workgroup_size, 0);
  EXPECT_FALSE(dev.traits().max_work_items.empty());
  EXPECT_FALSE(dev.traits().description.empty());
  EXPECT_FALSE(dev.allocator().host_memory());
}

TEST(ClDevice, AnIndexPastTheDevicesNamesHowManyThereAre) {
  SKIP_WITHOUT_OPENCL();
  size_t n = opencl_device_names().size();
  std::string name = "CL:" + std::to_string(n);
  try {
    get_device(name);
    FAIL() << "no error";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("device " + name + ": there are " + std::to_string(n) + " OpenCL devices"),
              std::string::npos)
        << e.what();
  }
}

TEST(ClDevice, BuffersRoundTripAndViewsReachTheirBytes) {
  SKIP_WITHOUT_OPENCL();
  auto whole = std::make_shared<Buffer>("CL", ScalarType::INT32, 64);
  std::vector<int32_t> in(64);
  for (int i = 0; i < 64; i++) in[size_t(i)] = i * 7 - 100;
  whole->copyin(in.data(), in.size() * 4);
  std::vector<int32_t> out(64, 0);
  whole->copyout(out.data(), out.size() * 4);
  EXPECT_EQ(out, in);
  // a view 40 bytes in writes and reads its own elements only
  Buffer view(whole, 40, ScalarType::INT32, 4);
  std::vector<int32_t> four = {1, 2, 3, 4}, back(4);
  view.copyin(four.data(), 16);
  view.copyout(back.data(), 16);
  EXPECT_EQ(back, four);
  whole->copyout(out.data(), out.size() * 4);
  for (int i = 0; i < 64; i++) EXPECT_EQ(out[size_t(i)], i >= 10 && i < 14 ? i - 9 : i * 7 - 100) << i;
  // host pointers do not reach device memory
  EXPECT_THROW(whole->data(), DeviceError);
  whole->zero();
  whole->copyout(out.data(), out.size() * 4);
  EXPECT_EQ(out, std::vector<int32_t>(64, 0));
}

TEST(ClDevice, LaunchOnViewsWithAndWithoutWorkgroupSizes) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& dev = get_device("CL");
  for (std::vector<int64_t> local : {std::vector<int64_t>{}, std::vector<int64_t>{4}}) {
    ProgramSpec spec = testing::cl_add_kernel();
    spec.threads = 16;
    spec.local = local;
    auto add = cache.get(dev, spec);
    auto storage = std::make_shared<Buffer>("CL", ScalarType::FLOAT32, 48);
    Buffer out(storage, 0, ScalarType::FLOAT32, 16), a(storage, 64, ScalarType::FLOAT32, 16), b(storage, 128, ScalarType::FLOAT32, 16);
    std::vector<float> x(16), y(16), z(16);
    for (int i = 0; i < 16; i++) x[size_t(i)] = float(i), y[size_t(i)] = 0.5f * float(i * i);
    a.copyin(x.data(), 64);
    b.copyin(y.data(), 64);
    std::vector<Buffer*> bufs = {&out, &a, &b};
    std::vector<int64_t> vars = {13};  // the last 3 work items store nothing
    out.zero();
    add->run(bufs, vars);
    out.copyout(z.data(), 64);
    for (int i = 0; i < 16; i++) EXPECT_EQ(z[size_t(i)], i < 13 ? x[size_t(i)] + y[size_t(i)] : 0.0f) << i;
    std::optional<double> seconds = add->device_seconds();
    ASSERT_TRUE(seconds.has_value());
    EXPECT_GE(*seconds, 0.0);
    EXPECT_LT(*seconds, 10.0);
  }
  EXPECT_EQ(cache.stats().compiles, 1u);  // one binary; the two workgroup sizes are two loaded programs
}

// A command buffer queues its launches and waits once at the end: 200 launches, each adding into the
// buffer the one before it wrote (alternating two buffers), must see every earlier launch's result;
// after run() the last launch's profiled time is there.
TEST(ClDevice, QueuedLaunchesOfACommandBufferRunInOrder) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec spec = testing::cl_add_kernel();
  spec.threads = 16;
  auto add = cache.get(get_device("CL"), spec);
  Buffer x("CL", ScalarType::FLOAT32, 16), y("CL", ScalarType::FLOAT32, 16), one("CL", ScalarType::FLOAT32, 16);
  std::vector<float> ones(16, 1.0f), out(16);
  one.copyin(ones.data(), 64);
  x.zero();
  CommandBuffer cb;
  for (int i = 0; i < 200; i++) cb.add(add, i % 2 ? std::vector<Buffer*>{&x, &y, &one} : std::vector<Buffer*>{&y, &x, &one}, {16});
  cb.run();
  ASSERT_TRUE(add->device_seconds().has_value());
  x.copyout(out.data(), 64);
  EXPECT_EQ(out, std::vector<float>(16, 200.0f));
  cb.run();  // a second run continues from 200
  x.copyout(out.data(), 64);
  EXPECT_EQ(out, std::vector<float>(16, 400.0f));
}

TEST(ClDevice, ALaunchChecksItsBuffersDevices) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec spec = testing::cl_add_kernel();
  spec.threads = 2;
  auto add = cache.get(get_device("CL"), spec);
  Buffer a("CL", ScalarType::FLOAT32, 2), host("CPU", ScalarType::FLOAT32, 2);
  std::vector<Buffer*> bufs = {&a, &host, &a};
  std::vector<int64_t> vars = {2};
  try {
    add->run(bufs, vars);
    FAIL() << "no error";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()), "program 'add_f32' runs on CL but buffer 1 is on CPU");
  }
}

TEST(ClDevice, SourceThatDoesNotBuildIsACompileErrorWithTheBuildLog) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  ProgramCache cache(dir.path);
  ProgramSpec bad{"broken", "__kernel void broken(__global const long* vars) { undeclared_name = 1; }\n", 0, 0, 0};
  try {
    cache.get(get_device("CL"), bad);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("CL: the OpenCL C did not build"), std::string::npos) << what;
    EXPECT_NE(what.find("undeclared_name"), std::string::npos) << what;
  }
}

TEST(ClDevice, ACorruptBinaryIsBuiltAgain) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& dev = get_device("CL");
  ProgramSpec spec = testing::cl_add_kernel();
  std::filesystem::path path = cache.object_path(dev, spec, spec_key(dev, spec));
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << "not a binary";
  cache.get(dev, spec);
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().disk_hits, 0u);
}

TEST(ClDevice, SecondProcessBuildsNothing) {
  SKIP_WITHOUT_OPENCL();
  TempDir dir;
  CommandResult first = testing::run_cache_probe(dir.path, "CL");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.output, "compiles=1 disk_hits=0 memory_hits=0 result=2,4,6\n");
  CommandResult second = testing::run_cache_probe(dir.path, "CL");
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(second.output, "compiles=0 disk_hits=1 memory_hits=0 result=2,4,6\n");
  // the binary is the driver's, under the cl folder
  EXPECT_TRUE(std::filesystem::exists(dir.path / "cl"));
}

// With no platform (the ICD loader pointed at an empty vendors folder), making a CL device is a
// DeviceError that says why; in a build without OpenCL it says that instead.
TEST(ClDevice, NoPlatformIsADeviceErrorNamingWhy) {
  TempDir cache, vendors;
  CommandResult r = run_command("OCL_ICD_VENDORS=" + shell_quote(vendors.path.string()) + " ONEGRAD_CACHE_DIR=" +
                                shell_quote(cache.path.string()) + " " + shell_quote(ONEGRAD_CACHE_PROBE) + " CL");
  EXPECT_EQ(r.exit_code, 1) << r.output;
#ifdef ONEGRAD_HAVE_OPENCL
  EXPECT_NE(r.output.find("error: device CL: no OpenCL platform found (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001); "
                          "install an OpenCL driver"),
            std::string::npos)
      << r.output;
#else
  EXPECT_NE(r.output.find("error: device CL: onegrad was built without OpenCL"), std::string::npos) << r.output;
#endif
}

}  // namespace
}  // namespace onegrad
