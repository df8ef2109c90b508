// The ONNX backend node tests (Debian's libonnx-testdata: data/node/<test>/model.onnx with
// test_data_set_*/input_*.pb and output_*.pb), run through onegrad::onnx::Model and compared with
// the expected outputs at the backend suite's tolerances (rtol 1e-3, atol 1e-7; NaN equals NaN;
// exact for ints and bool). A test whose model uses something onegrad reports as unsupported
// (UnsupportedError) is skipped with that reason; any other error or a wrong value fails it.
//
// Prints "N passed, M failed, K skipped" and every skip's reason. With --expected FILE (one test
// name a line) it exits 1 only when a listed test does not pass (a regression), and lists the new
// passes so the file can be updated (--write-expected FILE writes the passes of this run).
//
//   onnx_node_suite --data DIR [--expected FILE] [--shard I/N] [--filter SUBSTR] [--write-expected FILE] [-v]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "onnx/model.h"
#include "onnx/tensor_proto.h"
#include "tensor/shape_util.h"
#include "uop/unsupported_error.h"

namespace fs = std::filesystem;
using namespace onegrad;

namespace {

struct Outcome {
  enum Kind { Pass, Fail, Skip } kind;
  std::string reason;
};

double element(const std::vector<std::byte>& b, size_t i, DType dt) {
  auto at = [&](auto v) {
    std::memcpy(&v, b.data() + i * sizeof(v), sizeof(v));
    return v;
  };
  switch (dt.scalar) {
    case ScalarType::FLOAT32: return at(float{});
    case ScalarType::FLOAT64: return at(double{});
    case ScalarType::FLOAT16: return half_bits_to_float(at(uint16_t{}));
    case ScalarType::BFLOAT16: return bfloat16_bits_to_float(at(uint16_t{}));
    default: return 0;
  }
}

// "" when `got` matches `want`, else what differs.
std::string compare(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype()) return "dtype " + got.dtype().name() + ", expected " + want.dtype().name();
  if (got.shape() != want.shape()) return "shape " + shape_text(got.shape()) + ", expected " + shape_text(want.shape());
  auto g = got.to_bytes(), w = want.to_bytes();
  DType dt = got.dtype();
  size_t n = size_t(got.numel());
  if (!dt.is_float()) {
    size_t k = size_t(dt.itemsize());
    for (size_t i = 0; i < n; ++i)
      if (std::memcmp(g.data() + i * k, w.data() + i * k, k) != 0) return "element " + std::to_string(i) + " differs";
    return "";
  }
  for (size_t i = 0; i < n; ++i) {
    double a = element(g, i, dt), b = element(w, i, dt);
    if (std::isnan(a) && std::isnan(b)) continue;
    if (a == b) continue;  // infinities
    if (!(std::abs(a - b) <= 1e-7 + 1e-3 * std::abs(b)))
      return "element " + std::to_string(i) + ": " + std::to_string(a) + ", expected " + std::to_string(b);
  }
  return "";
}

std::vector<fs::path> sorted_files(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) files.push_back(e.path());
  // input_10.pb after input_9.pb
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    auto num = [](const fs::path& p) {
      auto s = p.stem().string();
      return std::stoll(s.substr(s.find_last_of('_') + 1));
    };
    return num(a) < num(b);
  });
  return files;
}

// libonnx-testdata 1.12 stores bfloat16 tensors as uint16 bit patterns (its files say UINT16): they are
// reinterpreted as the bfloat16 the model declares (and outputs compared as bits).
Tensor as_declared(const Tensor& t, const onegrad::onnx::ValueInfo& v) {
  if (v.elem_type == 16 && t.dtype() == dtypes::uint16) return t.bitcast(dtypes::bfloat16);
  return t;
}

Outcome run_test(const fs::path& dir) {
  try {
    auto model = onegrad::onnx::Model::load((dir / "model.onnx").string());
    std::vector<fs::path> sets;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) sets.push_back(e.path());
    std::sort(sets.begin(), sets.end());
    if (sets.empty()) return {Outcome::Skip, "no test_data_set"};
    for (const auto& set : sets) {
      std::vector<Tensor> inputs;
      for (const auto& f : sorted_files(set, "input_")) inputs.push_back(onegrad::onnx::read_tensor_file(f.string(), "CPU"));
      auto expected = sorted_files(set, "output_");
      // inputs by position among the graph inputs that have no initializer
      if (inputs.size() < model.inputs().size()) return {Outcome::Fail, "fewer input files than graph inputs"};
      std::map<std::string, Tensor> named;
      for (size_t i = 0; i < model.inputs().size(); ++i) named.insert_or_assign(model.inputs()[i].name, as_declared(inputs[i], model.inputs()[i]));
      auto outs = model.run(named);
      if (expected.size() != model.outputs().size()) return {Outcome::Fail, "output file count differs from graph outputs"};
      for (size_t i = 0; i < expected.size(); ++i) {
        Tensor want = onegrad::onnx::read_tensor_file(expected[i].string(), "CPU");
        Tensor got = outs.at(model.outputs()[i].name);
        if (got.dtype() == dtypes::bfloat16 && want.dtype() == dtypes::uint16) got = got.bitcast(dtypes::uint16);
        std::string diff = compare(got, want);
        if (!diff.empty())
          return {Outcome::Fail, set.filename().string() + " output '" + model.outputs()[i].name + "': " + diff};
      }
    }
    return {Outcome::Pass, ""};
  } catch (const UnsupportedError& e) {
    return {Outcome::Skip, e.what()};
  } catch (const std::exception& e) {
    return {Outcome::Fail, e.what()};
  }
}

std::set<std::string> read_list(const std::string& path) {
  std::set<std::string> names;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.insert(line);
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  std::string data, expected_path, write_path, filter;
  int shard = 0, shards = 1;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--data") data = next();
    else if (a == "--expected") expected_path = next();
    else if (a == "--write-expected") write_path = next();
    else if (a == "--filter") filter = next();
    else if (a == "--shard") {
      std::string s = next();
      shard = std::stoi(s.substr(0, s.find('/')));
      shards = std::stoi(s.substr(s.find('/') + 1));
    } else if (a == "-v") verbose = true;
    else {
      std::cerr << "unknown argument " << a << "\n";
      return 2;
    }
  }
  if (data.empty() || !fs::is_directory(data)) {
    std::cerr << "onnx_node_suite: --data DIR (e.g. /usr/share/libonnx-testdata/data/node) is required\n";
    return 2;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(data))
    if (fs::exists(e.path() / "model.onnx")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::set<std::string> expected;
  if (!expected_path.empty()) expected = read_list(expected_path);

  int passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> regressions, new_passes, passes;
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    if (int(k % size_t(shards)) != shard) continue;
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    auto t0 = std::chrono::steady_clock::now();
    Outcome o = run_test(fs::path(data) / name);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const char* tag = o.kind == Outcome::Pass ? "PASS" : o.kind == Outcome::Fail ? "FAIL" : "SKIP";
    if (o.kind != Outcome::Pass || verbose) {
      std::string r = o.reason.size() > 300 ? o.reason.substr(0, 300) + "..." : o.reason;
      std::replace(r.begin(), r.end(), '\n', ' ');
      std::cout << tag << " " << name << " (" << int(secs * 1000) << " ms)" << (r.empty() ? "" : ": " + r) << "\n";
    }
    if (o.kind == Outcome::Pass) {
      ++passed;
      passes.push_back(name);
      if (!expected_path.empty() && !expected.count(name)) new_passes.push_back(name);
    } else {
      o.kind == Outcome::Fail ? ++failed : ++skipped;
      if (expected.count(name)) regressions.push_back(name);
    }
  }
  std::cout << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  for (const auto& n : new_passes) std::cout << "new pass (add it to the expected list): " << n << "\n";
  for (const auto& n : regressions) std::cout << "REGRESSION: " << n << " is in the expected-pass list and did not pass\n";
  if (!write_path.empty()) {
    std::ofstream out(write_path);
    for (const auto& n : passes) out << n << "\n";
  }
  return regressions.empty() ? 0 : 1;
}
