// The loader against mutated model files: bytes flipped, cut, duplicated or zeroed in a valid
// model (and in a node-test model when libonnx-testdata is installed). Every outcome must be a
// result or an onegrad::Error; no crash, no other exception. Bounded by a time budget (seeded, so a
// failure reproduces with ONEGRAD_TEST_SEED).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "model_builder.h"
#include "onnx/model.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

std::string mutate(std::string s, std::mt19937_64& rng) {
  if (s.empty()) return s;
  auto pos = [&] { return size_t(rng() % s.size()); };
  int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    switch (rng() % 5) {
      case 0: s[pos()] ^= char(1 << (rng() % 8)); break;  // one bit
      case 1: s[pos()] = char(rng()); break;                // one byte
      case 2: s.resize(pos()); break;                       // cut
      case 3: {                                             // a run duplicated
        size_t a = pos(), n = std::min<size_t>(s.size() - a, 1 + rng() % 16);
        s.insert(a, s.substr(a, n));
        break;
      }
      default: s[pos()] = char(0xff); break;  // varint continuation bits: lengths run away
    }
  }
  return s;
}

// Parses and, when that works, runs the model on zeros of its declared shapes.
void try_model(const std::string& bytes) {
  try {
    Model m = Model::parse(bytes.data(), bytes.size(), ".", "fuzzed.onnx");
    std::map<std::string, Tensor> inputs;
    for (const auto& v : m.inputs()) {
      if (!v.shape || !v.elem_type) return;
      std::vector<int64_t> shape;
      for (const auto& d : *v.shape) {
        int64_t size = d.value.value_or(2);
        if (size < 0 || size > 64) return;  // a mutated dim asking for a huge input is not the parser's problem
        shape.push_back(size);
      }
      inputs.insert_or_assign(v.name, Tensor::zeros(shape));
    }
    auto outs = m.run(inputs);
    for (auto& [name, t] : outs)
      if (t.numel() <= (1 << 16)) t.realize();
  } catch (const Error&) {
    // a typed error is the right answer to a broken file
  }
}

TEST(OnnxFuzz, MutatedModelsGiveResultsOrTypedErrors) {
  uint64_t seed = std::getenv("ONEGRAD_TEST_SEED") ? std::strtoull(std::getenv("ONEGRAD_TEST_SEED"), nullptr, 10)
                                                   : uint64_t(std::random_device{}());
  std::cout << "ONEGRAD_TEST_SEED=" << seed << "\n";
  std::mt19937_64 rng(seed);
  std::vector<std::string> seeds;
  std::string s;
  test::mlp_model().SerializeToString(&s);
  seeds.push_back(s);
  for (const char* t : {"test_conv_with_strides_padding", "test_reshape_reordered_all_dims", "test_gather_0"}) {
    auto path = std::filesystem::path("/usr/share/libonnx-testdata/data/node") / t / "model.onnx";
    std::ifstream f(path, std::ios::binary);
    if (f) seeds.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int runs = 0;
  while (std::chrono::steady_clock::now() < until) {
    try_model(mutate(seeds[size_t(rng() % seeds.size())], rng));
    ++runs;
  }
  std::cout << runs << " mutated models\n";
  EXPECT_GT(runs, 0);
}

}  // namespace
}  // namespace onegrad::onnx
