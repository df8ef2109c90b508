// A second process running the same tensor program compiles nothing: its kernels come from the
// disk cache (DESIGN decision 6).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace {

std::string run_probe(const std::string& cache_dir) {
  std::string cmd = "ONEGRAD_CACHE_DIR='" + cache_dir + "' '" ONEGRAD_E2E_PROBE "'";
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 256> buf;
  while (p && fgets(buf.data(), int(buf.size()), p.get())) out += buf.data();
  return out;
}

TEST(EngineCache, SecondProcessCompilesNothing) {
  auto dir = std::filesystem::temp_directory_path() / ("onegrad-e2e-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::string first = run_probe(dir.string());
  std::string second = run_probe(dir.string());
  std::filesystem::remove_all(dir);
  EXPECT_NE(first.find("compiles=2 disk_hits=0"), std::string::npos) << first;
  EXPECT_NE(second.find("compiles=0 disk_hits=2"), std::string::npos) << second;
  // rows: 0.5+2+6 = 8.5 and 2+5+12 = 19 (relu keeps all); (8.5 + 19) * 2
  EXPECT_NE(second.find("result=55"), std::string::npos) << second;
}

}  // namespace
