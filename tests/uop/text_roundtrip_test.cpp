// Round trips of the text form: parse(print(g)) is the same interned graph, print(parse(t)) == t.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <variant>

#include "text_samples.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

using text_samples::sample_args;
using text_samples::sample_node;

// The graph comes back as the very same nodes, and printing it again gives the same text.
void expect_round_trip(const UOpRef& g) {
  std::string text = print_graph(g);
  UOpRef back = parse_graph(text);
  EXPECT_EQ(back.get(), g.get()) << text;
  EXPECT_EQ(print_graph(back), text);
}

TEST(TextRoundTrip, EveryOp) {
  for (int i = 0; i < kNumOps; i++) {
    Ops op = op_at(i);
    SCOPED_TRACE(std::string(op_name(op)));
    UOpRef node = sample_node(op);
    ASSERT_EQ(node->op, op);
    expect_round_trip(node);
    // The root is the last line and names its op.
    std::string text = print_graph(node);
    std::string last = text.substr(text.rfind('\n', text.size() - 2) + 1);
    EXPECT_NE(last.find(" = " + std::string(op_name(op)) + " "), std::string::npos) << last;
  }
}

TEST(TextRoundTrip, AllOpsInOneGraphWithTags) {
  std::vector<UOpRef> nodes;
  for (int i = 0; i < kNumOps; i++) nodes.push_back(sample_node(op_at(i)));
  // Tags are part of the identity: a tagged copy of each node is a different node.
  for (int i = 0; i < kNumOps; i += 3) nodes.push_back(nodes[i]->with_tag(int64_t(i) - 40));
  nodes.push_back(nodes[0]->with_tag(std::numeric_limits<int64_t>::min()));
  UOpRef sink = UOp::create(Ops::SINK, dtypes::void_, nodes);
  expect_round_trip(sink);
}

TEST(TextRoundTrip, EveryArgKind) {
  std::set<size_t> kinds;
  for (const Arg& arg : sample_args()) {
    kinds.insert(arg.variant().index());
    for (DType dt : {dtypes::float32, dtypes::bool_, dtypes::index}) {
      // On a leaf, on a node with sources, and with a tag after the arg.
      UOpRef leaf = UOp::create(Ops::CUSTOM, dt, {}, arg);
      UOpRef user = UOp::create(Ops::CUSTOM, dt, {leaf, leaf}, arg, int64_t(7));
      SCOPED_TRACE(print_graph(user));
      expect_round_trip(leaf);
      expect_round_trip(user);
      // print_arg/parse_arg on their own agree too.
      EXPECT_TRUE(parse_arg(print_arg(arg, dt), dt) == arg);
    }
  }
  // Every alternative of Arg is exercised; a new alternative must get a spelling and a sample.
  EXPECT_EQ(kinds.size(), std::variant_size_v<Arg::Variant>);
}

TEST(TextRoundTrip, RandomFloatBitsAreExact) {
  std::mt19937_64 rng(1234);
  for (int i = 0; i < 20000; i++) {
    uint64_t bits = rng();
    if (i % 4 == 1) bits &= 0x800fffffffffffffull;        // denormals and zeros
    if (i % 4 == 2) bits |= 0x7ff0000000000000ull;        // inf and NaNs with payloads
    ConstValue v = ConstValue::from_float(text_samples::bits_to_double(bits));
    UOpRef c = UOp::create(Ops::CONST, dtypes::float64, {}, v);
    ASSERT_EQ(parse_graph(print_graph(c)).get(), c.get()) << print_graph(c);
  }
}

TEST(TextRoundTrip, BoolAndFloatConstsReadNaturally) {
  EXPECT_EQ(print_graph(UOp::const_bool(true)), "%0 = CONST bool true\n");
  EXPECT_EQ(print_graph(UOp::const_float(dtypes::float32, -0.0)), "%0 = CONST float32 -0.0\n");
  EXPECT_EQ(print_graph(UOp::const_float(dtypes::float32, 2.0)), "%0 = CONST float32 2.0\n");
  EXPECT_EQ(print_graph(UOp::const_int(dtypes::uint64, std::numeric_limits<uint64_t>::max())),
            "%0 = CONST uint64 18446744073709551615\n");
  // A bool CONST holding 2 (not a bool value) still prints exactly.
  expect_round_trip(UOp::create(Ops::CONST, dtypes::bool_, {}, ConstValue::from_int(2)));
}

// A random DAG with lots of sharing: a few hundred nodes, several roots.
std::vector<UOpRef> random_dag(uint32_t seed, int n) {
  std::mt19937 rng(seed);
  std::vector<UOpRef> pool = {UOp::variable("n", 1, 64), UOp::index(0), UOp::index(1), UOp::index(-7),
                              UOp::range(16, 0), UOp::range(UOp::variable("n", 1, 64), 1, AxisType::REDUCE)};
  const Ops binary[] = {Ops::ADD, Ops::MUL, Ops::MAX, Ops::MOD, Ops::IDIV};
  while (int(pool.size()) < n) {
    const UOpRef& a = pool[rng() % pool.size()];
    const UOpRef& b = pool[rng() % pool.size()];
    if (rng() % 8 == 0) pool.push_back(UOp::create(Ops::WHERE, dtypes::index, {a < b, a, b}));
    else pool.push_back(UOp::create(binary[rng() % 5], dtypes::index, {a, b}));
  }
  std::vector<UOpRef> roots;  // every 8th node and the last few, so most of the pool is reachable
  for (size_t i = 0; i < pool.size(); i++)
    if (i % 8 == 0 || i + 5 >= pool.size()) roots.push_back(pool[i]);
  return roots;
}

TEST(TextRoundTrip, BigSharedGraph) {
  std::vector<UOpRef> roots = random_dag(42, 700);
  UOpRef sink = UOp::create(Ops::SINK, dtypes::void_, roots);
  std::string text = print_graph(sink);
  EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 300);
  expect_round_trip(sink);
}

TEST(TextRoundTrip, SeveralRoots) {
  std::vector<UOpRef> roots = random_dag(7, 300);
  roots.push_back(roots[0]);  // a root named twice stays twice
  std::string text = print_graph(roots);
  ASSERT_NE(text.find("\nroots %"), std::string::npos);
  std::vector<UOpRef> back = parse_graphs(text);
  ASSERT_EQ(back.size(), roots.size());
  for (size_t i = 0; i < roots.size(); i++) EXPECT_EQ(back[i].get(), roots[i].get());
  EXPECT_EQ(print_graph(back), text);
  // One root prints no roots line, so it reads back through parse_graph.
  EXPECT_EQ(print_graph(std::span<const UOpRef>(roots.data(), 1)), print_graph(roots[0]));
}

TEST(TextRoundTrip, DeepChainDoesNotRecurse) {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef one = UOp::index(1);
  for (int i = 0; i < 100000; i++) x = UOp::create(Ops::ADD, dtypes::index, {x, one});
  std::string text = print_graph(x);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 100002);
  EXPECT_EQ(parse_graph(text).get(), x.get());
}

}  // namespace
}  // namespace onegrad
