// Helpers for the file-format tests (safetensors, IDX, Fashion-MNIST): a temporary folder removed
// at the end of the test, whole-file writes, and checks that an error has the expected type and text.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace onegrad::testing {

class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("onegrad_" + std::string(info ? info->name() : "test") + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

inline std::vector<std::byte> as_bytes(const std::string& s) {
  std::vector<std::byte> b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  return b;
}

inline void write_file(const std::string& path, const std::vector<std::byte>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The IDX bytes of `values` (stored big-endian) with type code `code` and dimensions `dims`.
template <class T>
std::vector<std::byte> idx_bytes(uint8_t code, const std::vector<uint32_t>& dims, const std::vector<T>& values) {
  std::vector<std::byte> out = {std::byte{0}, std::byte{0}, std::byte{code}, std::byte(dims.size())};
  for (uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8) out.push_back(std::byte((d >> s) & 0xff));
  for (T v : values) {
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &v, sizeof(T));
    for (size_t i = sizeof(T); i-- > 0;) out.push_back(std::byte(raw[i]));  // the host is little-endian
  }
  return out;
}

struct FuzzCounts {
  int loaded = 0, rejected = 0;
};

// `iterations` random mutations of `valid` (1 to 3 edits each: a byte overwritten, the rest cut
// off, a byte inserted or removed, or `targeted_edit`, which knows the format), each handed to
// `parse`. parse may return or throw E; anything else (another exception, a crash) fails the test.
template <class E>
FuzzCounts fuzz_file_format(int iterations, uint32_t seed, const std::function<std::vector<std::byte>(int)>& valid,
                            const std::function<void(std::vector<std::byte>&, std::mt19937&)>& targeted_edit,
                            const std::function<void(const std::vector<std::byte>&)>& parse) {
  std::mt19937 rng(seed);
  FuzzCounts counts;
  for (int iter = 0; iter < iterations; ++iter) {
    std::vector<std::byte> f = valid(iter);
    for (int e = 0, edits = 1 + int(rng() % 3); e < edits && !f.empty(); ++e) {
      size_t at = rng() % f.size();
      switch (rng() % 5) {
        case 0: f[at] = std::byte(rng() % 256); break;
        case 1: f.resize(at); break;
        case 2: f.insert(f.begin() + std::ptrdiff_t(at), std::byte(rng() % 256)); break;
        case 3: f.erase(f.begin() + std::ptrdiff_t(at)); break;
        case 4: targeted_edit(f, rng); break;
      }
    }
    try {
      parse(f);
      ++counts.loaded;
    } catch (const E&) {
      ++counts.rejected;
    }
  }
  return counts;
}

// Runs f, which must throw exactly E with every one of `parts` in its message.
template <class E>
void expect_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one with: " << parts.front();
  } catch (const E& e) {
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what() << "\n  lacks: " << p;
  }
}

}  // namespace onegrad::testing
