#include "runtime/program_cache.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "runtime/buffer.h"
#include "runtime/cache_dir.h"
#include "runtime/content_hash.h"
#include "runtime/subprocess.h"
#include "runtime_test_util.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::add_kernel;
using testing::ScopedEnv;
using testing::TempDir;

TEST(RuntimeCache, SecondRequestIsAMemoryHit) {
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& cpu = get_device("CPU");
  auto first = cache.get(cpu, add_kernel());
  auto second = cache.get(cpu, add_kernel());
  EXPECT_EQ(first.get(), second.get());  // the same loaded program
  ProgramCacheStats s = cache.stats();
  EXPECT_EQ(s.compiles, 1u);
  EXPECT_EQ(s.disk_hits, 0u);
  EXPECT_EQ(s.memory_hits, 1u);
  // Another device gets its own program, from the object already on disk.
  auto other = cache.get(get_device("CPU:1"), add_kernel());
  EXPECT_NE(other.get(), first.get());
  EXPECT_EQ(other->device(), "CPU:1");
  EXPECT_EQ(cache.stats().compiles, 1u);
  EXPECT_EQ(cache.stats().disk_hits, 1u);
}

TEST(RuntimeCache, ObjectsLiveUnderTheDeviceKindNamedByKey) {
  TempDir dir;
  ProgramCache cache(dir.path);
  RuntimeDevice& cpu = get_device("CPU");
  cache.get(cpu, add_kernel(), "structural-key-1");
  auto path = cache.object_path(cpu, add_kernel(), "structural-key-1");
  EXPECT_EQ(path.parent_path(), dir.path / "cpu");
  EXPECT_EQ(path.extension(), ".so");
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_NE(path, cache.object_path(cpu, add_kernel(), "structural-key-2"));
  // Only the finished object is left: no temporary files.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path / "cpu")) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST(RuntimeCache, KeysAreStableAndSensitive) {
  EXPECT_EQ(content_hash(""), "6c62272e07bb014262b821756295c58d");  // the FNV-1a 128 offset basis
  EXPECT_EQ(content_hash("a").size(), 32u);
  EXPECT_NE(content_hash("a"), content_hash("b"));
  const Compiler& cc = get_device("CPU").compiler();
  EXPECT_EQ(program_key("x", cc), program_key("x", cc));
  EXPECT_NE(program_key("x", cc), program_key("y", cc));
  EXPECT_NE(cc.cache_id().find("-ffp-contract=off"), std::string::npos);
  EXPECT_NE(cc.cache_id().find("-fno-trapping-math"), std::string::npos);
}

// Replaces the object at `path` with `bytes`, as a crash or a disk error might leave it.
void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(RuntimeCache, CorruptObjectIsRecompiled) {
  RuntimeDevice& cpu = get_device("CPU");
  // A real object, truncated to half, and a file of garbage: both are rebuilt, neither crashes.
  TempDir good;
  ProgramCache built(good.path);
  built.get(cpu, add_kernel());
  std::ifstream f(built.object_path(cpu, add_kernel(), spec_key(cpu, add_kernel())),
                  std::ios::binary);
  std::string object((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GT(object.size(), 1000u);
  for (const std::string& bad : {object.substr(0, object.size() / 2), object.substr(0, 100),
                                 std::string("not an object"), std::string()}) {
    TempDir dir;
    ProgramCache cache(dir.path);
    write_file(cache.object_path(cpu, add_kernel(), spec_key(cpu, add_kernel())), bad);
    auto add = cache.get(cpu, add_kernel());
    EXPECT_EQ(cache.stats().compiles, 1u) << bad.size();
    EXPECT_EQ(cache.stats().disk_hits, 0u) << bad.size();
    // The rebuilt program works.
    std::vector<float> x = {1, 2};
    Buffer a("CPU", ScalarType::FLOAT32, 2), out("CPU", ScalarType::FLOAT32, 2);
    a.copyin(x.data(), 8);
    std::vector<Buffer*> bufs = {&out, &a, &a};
    std::vector<int64_t> vars = {2};
    add->run(bufs, vars);
    out.copyout(x.data(), 8);
    EXPECT_EQ(x, (std::vector<float>{2, 4}));
  }
}

TEST(RuntimeCache, SecondProcessCompilesNothing) {
  TempDir dir;
  CommandResult first = testing::run_cache_probe(dir.path);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.output, "compiles=1 disk_hits=0 memory_hits=0 result=2,4,6\n");
  CommandResult second = testing::run_cache_probe(dir.path);
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_EQ(second.output, "compiles=0 disk_hits=1 memory_hits=0 result=2,4,6\n");
}

TEST(RuntimeCache, ConcurrentProcessesShareOneFolder) {
  TempDir dir, logs;
  std::string probe =
      "ONEGRAD_CACHE_DIR=" + shell_quote(dir.path.string()) + " " + shell_quote(ONEGRAD_CACHE_PROBE);
  // Four processes race to build the same object; each must get a whole object and a working kernel.
  std::string race;
  for (int i = 0; i < 4; ++i) race += probe + " > " + shell_quote((logs.path / std::to_string(i)).string()) + " & ";
  CommandResult r = run_command(race + "wait");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (int i = 0; i < 4; ++i) {
    std::ifstream f(logs.path / std::to_string(i));
    std::string line;
    std::getline(f, line);
    EXPECT_NE(line.find("memory_hits=0 result=2,4,6"), std::string::npos) << line;
  }
  CommandResult after = testing::run_cache_probe(dir.path);
  EXPECT_EQ(after.output, "compiles=0 disk_hits=1 memory_hits=0 result=2,4,6\n");
}

TEST(RuntimeCache, DefaultFolderFollowsTheEnvironment) {
  {
    ScopedEnv a("ONEGRAD_CACHE_DIR", "/tmp/og-a"), b("XDG_CACHE_HOME", "/tmp/xdg"), c("HOME", "/home/u");
    EXPECT_EQ(default_cache_dir(), "/tmp/og-a");
  }
  {
    ScopedEnv a("ONEGRAD_CACHE_DIR", std::nullopt), b("XDG_CACHE_HOME", "/tmp/xdg"), c("HOME", "/home/u");
    EXPECT_EQ(default_cache_dir(), "/tmp/xdg/onegrad");
  }
  {
    ScopedEnv a("ONEGRAD_CACHE_DIR", std::nullopt), b("XDG_CACHE_HOME", ""), c("HOME", "/home/u");
    EXPECT_EQ(default_cache_dir(), "/home/u/.cache/onegrad");
  }
  ScopedEnv a("ONEGRAD_CACHE_DIR", std::nullopt), b("XDG_CACHE_HOME", std::nullopt), c("HOME", std::nullopt);
  EXPECT_THROW(default_cache_dir(), DeviceError);
}

}  // namespace
}  // namespace onegrad
