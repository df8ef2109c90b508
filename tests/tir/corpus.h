// The corpus of TVMScript programs in tests/tir/programs, shared by the round-trip and fuzz tests.
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace onegrad::tir::testing {

// (file name, text) of every programs/*.py, sorted by name.
inline std::vector<std::pair<std::string, std::string>> corpus() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : std::filesystem::directory_iterator(ONEGRAD_TIR_PROGRAMS)) {
    if (entry.path().extension() != ".py") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    out.emplace_back(entry.path().filename().string(), ss.str());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace onegrad::tir::testing
