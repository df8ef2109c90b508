// Random tensor programs through the whole pipeline (Rangeify, Codegen, C, run), checked against
// the reference evaluator of tests/tensor/reference_eval.h. Values are small integers in float32,
// so every result is exact and the comparison can be strict.
#include <gtest/gtest.h>

#include <random>

#include "tensor/reference_eval.h"
#include "tensor/tensor.h"
#include "test_env.h"

namespace onegrad {
namespace {

class ProgramGenerator {
 public:
  explicit ProgramGenerator(uint32_t seed) : rng_(seed) {}

  Tensor random_input(std::vector<int64_t> shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = float(int(pick(7)) - 3);
    return Tensor::from_vector(v, std::move(shape), dtypes::float32);
  }

  std::vector<int64_t> random_shape() {
    std::vector<int64_t> s(pick(4));
    for (int64_t& d : s) d = 1 + int64_t(pick(4));
    return s;
  }

  Tensor step(const Tensor& t) {
    std::vector<int64_t> s = t.shape();
    size_t nd = s.size();
    switch (pick(11)) {
      case 0: return t.relu();
      case 1: return t * 2 + 1;
      case 2: {  // a binary op with a fresh input broadcast along random axes
        std::vector<int64_t> bs = s;
        for (int64_t& d : bs) if (pick(2)) d = 1;
        Tensor o = random_input(bs);
        return pick(2) ? t * o : t.maximum(o) - o;
      }
      case 3: {  // reshape to a random factorisation of the element count
        int64_t n = t.numel();
        std::vector<int64_t> ns;
        for (int64_t f : {2, 3, 2}) if (n % f == 0 && pick(2)) { ns.push_back(f); n /= f; }
        ns.push_back(n);
        std::shuffle(ns.begin(), ns.end(), rng_);
        return t.reshape(ns);
      }
      case 4: {
        std::vector<int64_t> order(nd);
        for (size_t i = 0; i < nd; i++) order[i] = int64_t(i);
        std::shuffle(order.begin(), order.end(), rng_);
        return t.permute(order);
      }
      case 5: {
        std::vector<std::pair<int64_t, int64_t>> p;
        for (size_t i = 0; i < nd; i++) p.push_back({int64_t(pick(3)), int64_t(pick(3))});
        return t.pad(p);
      }
      case 6: {
        std::vector<std::pair<int64_t, int64_t>> b;
        for (int64_t d : s) {
          int64_t lo = int64_t(pick(size_t(d)));
          b.push_back({lo, lo + 1 + int64_t(pick(size_t(d - lo)))});
        }
        return t.shrink(b);
      }
      case 7: {
        std::vector<int64_t> axes;
        for (size_t i = 0; i < nd; i++) if (pick(2)) axes.push_back(int64_t(i));
        return axes.empty() ? t : t.flip(axes);
      }
      case 8: {
        int64_t at = int64_t(pick(nd + 1));
        std::vector<int64_t> es = s;
        es.insert(es.begin() + at, 1 + int64_t(pick(3)));
        return t.unsqueeze(at).expand(es);
      }
      case 9: {
        if (nd == 0) return t.sum();
        int64_t axis = int64_t(pick(nd));
        bool keep = pick(2);
        return pick(2) ? t.sum({axis}, keep) : t.max({axis}, keep);
      }
      default: return t.contiguous();
    }
  }

 private:
  size_t pick(size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng_) : 0; }
  std::mt19937 rng_;
};

TEST(ProgramFuzz, RandomProgramsMatchTheReferenceEvaluator) {
  int programs = int(testing_env::env_or("ONEGRAD_PROGRAM_FUZZ", 150));
  for (int p = 0; p < programs; p++) {
    ProgramGenerator gen{static_cast<uint32_t>(p)};
    Tensor t = gen.random_input(gen.random_shape());
    int steps = 2 + p % 7;
    for (int i = 0; i < steps; i++) t = gen.step(t);
    if (t.numel() > 4096) continue;
    testing::ReferenceEval ref;
    const auto& want = ref.eval(t.uop().get());
    UOpRef graph = t.uop();
    std::vector<float> got = t.to_vector<float>();
    ASSERT_EQ(got.size(), want.data.size()) << "program " << p;
    for (size_t i = 0; i < got.size(); i++)
      ASSERT_EQ(got[i], float(want.data[i].as_double())) << "program " << p << " element " << i << "\n"
                                                         << graph->brief();
  }
}

}  // namespace
}  // namespace onegrad
