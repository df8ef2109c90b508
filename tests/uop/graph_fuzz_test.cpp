// Random graphs, well-formed or not: every op with arbitrary sources, dtypes and args. Whatever
// the graph, the verifier, the derived properties and the text form must answer with a value or a
// typed onegrad::Error, never crash or throw anything else, and printing must round-trip. This is
// what `onegrad uop print` faces on a hostile file.
#include <gtest/gtest.h>

#include "test_env.h"

#include <cstdlib>
#include <random>

#include "text_samples.h"
#include "uop/errors.h"
#include "uop/text/text.h"
#include "uop/verify/verify.h"

using namespace onegrad;

namespace {

class RandomGraphs {
 public:
  explicit RandomGraphs(uint64_t seed) : rng_(seed), args_(text_samples::sample_args()) {
    // argument kinds that make structural trouble: out-of-range axes, negative sizes, odd lengths
    for (int64_t v : {-5, -1, 0, 1, 2, 3, 7}) args_.push_back(Arg::Ints{v, 0});
    args_.push_back(Arg::Ints{2, 1, 0});
    args_.push_back(Arg::Ints{0, 0});
    args_.push_back(ReduceArg{Ops::ADD, {5}});
    args_.push_back(ReduceArg{Ops::SIN, {0}});
    args_.push_back(ReduceArg{Ops::MAX, {0, 0}});
    args_.push_back(SliceArg{-4, dtypes::float32});
    args_.push_back(SliceArg{3, dtypes::void_});
    args_.push_back(BufferArg{9, -12, dtypes::int8, Device("CPU"), AddrSpace::GLOBAL});
    args_.push_back(ParamArg{2, dtypes::index, Device(), std::nullopt, "k", ConstValue::from_int(9), ConstValue::from_int(-9)});
    args_.push_back(int64_t(5));
    args_.push_back(int64_t(-1));
  }

  UOpRef graph(int nodes) {
    std::vector<UOpRef> pool = leaves();
    for (int i = 0; i < nodes; i++) {
      Ops op = op_at(int(pick(kNumOps)));
      std::vector<UOpRef> src;
      for (uint64_t k = 0, n = pick(5); k < n; k++) src.push_back(pool[pick(pool.size())]);
      Arg arg = pick(3) ? args_[pick(args_.size())] : Arg();
      if (pick(2)) {
        try {
          pool.push_back(UOp::create(op, src, arg));  // dtype from the table, when it has one
          continue;
        } catch (const Error&) {
        }
      }
      pool.push_back(UOp::create(op, dtype(), src, arg, pick(8) == 0 ? std::optional<int64_t>(int64_t(pick(4))) : std::nullopt));
    }
    return pool.back();
  }

 private:
  uint64_t pick(uint64_t n) { return rng_() % n; }
  DType dtype() {
    static const DType kinds[] = {dtypes::float32, dtypes::index, dtypes::bool_, dtypes::int8, dtypes::uint64,
                                  dtypes::float16, dtypes::void_, dtypes::float32.ptr(), dtypes::int32};
    return kinds[pick(std::size(kinds))];
  }
  std::vector<UOpRef> leaves() {
    std::vector<UOpRef> l = {text_samples::f32_buffer(1, 12), text_samples::f32_buffer(2, 0), UOp::index(0),
                             UOp::index(-3), UOp::index(4), UOp::const_bool(true), UOp::const_float(dtypes::float32, 2.5),
                             UOp::variable("n", 1, 8), UOp::variable("m", -4, 4), UOp::range(4, 0)};
    for (auto dims : std::vector<std::vector<int64_t>>{{3, 4}, {12}, {-2, 6}, {}, {0}, {1, 1, 12}})
      l.push_back(UOp::shape_operand(dims));
    l.push_back(UOp::shape_operand(Shape{UOp::variable("n", 1, 8), UOp::index(3)}));
    return l;
  }

  std::mt19937_64 rng_;
  std::vector<Arg> args_;
};

// Everything a caller may ask of a node; only typed errors may come out.
void interrogate(const UOpRef& root) {
  std::vector<std::string> problems = check(root, Stage::Tensor);
  try {
    verify(root, Stage::Tensor);
    EXPECT_TRUE(problems.empty());
  } catch (const VerifyError& e) {
    EXPECT_FALSE(problems.empty());
    EXPECT_EQ(problems.front(), e.what());
  }
  for (const UOp* u : root->toposort()) {
    (void)u->vmin();
    (void)u->axis();
    (void)u->addrspace();
    (void)u->device();
    try {
      (void)u->shape();
      (void)u->static_shape();
    } catch (const ShapeError&) {
    }
    (void)u->brief();
  }
  std::string text = print_graph(root);
  EXPECT_EQ(parse_graph(text), root) << text;
}

using testing_env::env_or;

}  // namespace

TEST(GraphFuzz, ArbitraryGraphsGiveAnswersOrTypedErrors) {
  // ONEGRAD_GRAPH_FUZZ_COUNT / _SEED run it longer or elsewhere
  RandomGraphs gen(uint64_t(env_or("ONEGRAD_GRAPH_FUZZ_SEED", 20261122)));
  const int64_t count = env_or("ONEGRAD_GRAPH_FUZZ_COUNT", 8000);
  int64_t verified = 0, rejected = 0;
  for (int64_t i = 0; i < count; i++) {
    UOpRef g = gen.graph(int(1 + i % 24));
    try {
      interrogate(g);
    } catch (const Error& e) {
      ADD_FAILURE() << "graph #" << i << " threw " << e.what() << "\n" << print_graph(g);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "graph #" << i << " threw a non-onegrad exception: " << e.what() << "\n" << print_graph(g);
    }
    (check(g).empty() ? verified : rejected)++;
  }
  // both outcomes occur, so the fuzzer reaches past the first checks
  EXPECT_GT(verified, count / 200);
  EXPECT_GT(rejected, count / 4);
}
