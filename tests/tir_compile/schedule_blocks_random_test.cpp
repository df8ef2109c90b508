// schedule_blocks on random reduction nests (docs/tir.md, "Compiling: performance"): 2-4 loops
// of spatial and reduce iter vars in random order and extents, an output indexed by a random
// subset of the spatial vars (so some blocks' spatial instances share elements, which the
// independence check must see), inputs indexed by random vars and sums of vars, sometimes an init,
// sometimes T.parallel outside (where the program has no race). Every program must match the interpreter exactly: the rewrite
// keeps each element's order of updates.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "compile_test_util.h"
#include "tir_compile/schedule_blocks.h"

namespace onegrad::tir {
namespace {

struct Nest {
  std::string text;
  std::vector<std::vector<int64_t>> shapes;  // O, A, B
};

Nest random_nest(std::mt19937& rng) {
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  const int64_t extents[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 20, 24, 32};
  const int n = 2 + pick(3);
  std::vector<char> kind(static_cast<size_t>(n), 'S');
  std::vector<int64_t> extent(static_cast<size_t>(n), 1);
  for (int l = 0; l < n; l++) {
    kind[size_t(l)] = pick(2) ? 'S' : 'R';
    extent[size_t(l)] = extents[pick(12)];
  }
  kind[size_t(pick(n))] = 'R';
  std::vector<int> spatial;
  for (int l = 0; l < n; l++)
    if (kind[size_t(l)] == 'S') spatial.push_back(l);
  auto v = [](int l) { return "v" + std::to_string(l); };
  // the output: the spatial vars in a random order, each kept with probability 4/5
  std::vector<int> out;
  for (int l : spatial)
    if (pick(5)) out.push_back(l);
  std::shuffle(out.begin(), out.end(), rng);
  if (out.empty()) out.push_back(-1);  // O[0]
  // an input: 1-2 dimensions, each a var or the sum of two vars
  auto input = [&](std::vector<int64_t>& shape) {
    std::string idx;
    for (int d = 0, dims = 1 + pick(2); d < dims; d++) {
      int a = pick(n), b = pick(3) ? -1 : pick(n);
      idx += (d ? ", " : "") + v(a) + (b >= 0 ? " + " + v(b) : "");
      shape.push_back(extent[size_t(a)] + (b >= 0 ? extent[size_t(b)] - 1 : 0));
    }
    return idx;
  };
  Nest nest;
  nest.shapes.resize(3);
  std::string o_idx;
  for (size_t d = 0; d < out.size(); d++) {
    o_idx += (d ? ", " : "") + (out[d] < 0 ? std::string("0") : v(out[d]));
    nest.shapes[0].push_back(out[d] < 0 ? 1 : extent[size_t(out[d])]);
  }
  std::string a_idx = input(nest.shapes[1]), b_idx = input(nest.shapes[2]);
  auto shape_text = [](const std::vector<int64_t>& s) {
    std::string t = "(";
    for (int64_t d : s) t += std::to_string(d) + ", ";
    return t + ")";
  };
  std::ostringstream t;
  t << "from tvm.script import tir as T\n\n@T.prim_func\ndef f(O: T.Buffer(" << shape_text(nest.shapes[0])
    << ", \"float32\"), A: T.Buffer(" << shape_text(nest.shapes[1]) << ", \"float32\"), B: T.Buffer("
    << shape_text(nest.shapes[2]) << ", \"float32\")):\n";
  std::string loops, grid, vars, remap;
  for (int l = 0; l < n; l++) {
    loops += (l ? ", " : "") + std::string("l") + std::to_string(l);
    grid += (l ? ", " : "") + std::to_string(extent[size_t(l)]);
    vars += (l ? ", " : "") + v(l);
    remap += kind[size_t(l)];
  }
  // the outermost loop written T.parallel where that is race-free: a spatial var the output names
  const bool parallel_ok = kind[0] == 'S' && std::find(out.begin(), out.end(), 0) != out.end();
  if (parallel_ok && pick(3) == 0) {
    t << "    for l0 in T.parallel(" << extent[0] << "):\n";
    std::string inner_loops = loops.substr(loops.find(',') == std::string::npos ? loops.size() : loops.find(',') + 2);
    std::string inner_grid = grid.substr(grid.find(',') == std::string::npos ? grid.size() : grid.find(',') + 2);
    t << "        for " << inner_loops << " in T.grid(" << inner_grid << "):\n";
  } else {
    t << "    for " << loops << " in T.grid(" << grid << "):\n";
  }
  const bool nested = t.str().find("T.parallel") != std::string::npos;
  const std::string in = nested ? "            " : "        ";
  t << in << "with T.block(\"b\"):\n";
  t << in << "    " << vars << (n == 1 ? "," : "") << " = T.axis.remap(\"" << remap << "\", [" << loops << "])\n";
  if (pick(3)) t << in << "    with T.init():\n" << in << "        O[" << o_idx << "] = T.float32(" << pick(3) << ".5)\n";
  switch (pick(3)) {
    case 0: t << in << "    O[" << o_idx << "] = O[" << o_idx << "] + A[" << a_idx << "] * B[" << b_idx << "]\n"; break;
    case 1: t << in << "    O[" << o_idx << "] = T.max(O[" << o_idx << "], A[" << a_idx << "] - B[" << b_idx << "])\n"; break;
    default: t << in << "    O[" << o_idx << "] = O[" << o_idx << "] * T.float32(0.5) + A[" << a_idx << "]\n"; break;
  }
  nest.text = t.str();
  return nest;
}

uint32_t nest_count() { return testing::case_count("TIR_RANDOM_NESTS", 60); }

TEST(TirScheduleBlocksRandom, MatchTheInterpreterExactly) {
  const DataType f32 = DataType::float_(32);
  std::mt19937 data(11);
  int rewritten = 0;
  for (uint32_t seed = 1; seed <= nest_count(); seed++) {
    std::mt19937 rng(seed);
    Nest nest = random_nest(rng);
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + nest.text);
    PrimFunc f = parse_script(nest.text).find("f");
    rewritten += schedule_blocks(f) != f;
    std::vector<testing::TestArg> args;
    for (const auto& s : nest.shapes) args.push_back(testing::random_array(f32, s, data));
    testing::expect_same_as_interpreter(nest.text, "f", args, 0.0);
    if (HasFailure()) break;
  }
  EXPECT_GE(rewritten, int(nest_count()) / 6);  // the rewrite is exercised, not only its refusals (14 of 60)
}

}  // namespace
}  // namespace onegrad::tir
