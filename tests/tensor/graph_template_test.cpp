// Graph templates (tensor/graph_template.h): the graph an op instantiates from its template is the
// very graph a fresh build gives (hash-consing: the same nodes), for every shape and dtype, on the
// call that builds the template and on the calls that reuse it; and the cache keeps no input alive.
#include "runtime/device.h"
#include "tensor/graph_template.h"
#include "tensor/scatter_compositions.h"
#include "tensor/shape_util.h"
#include "tensor_testing.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// Values 0..n-1 (then cast), so gathers pick distinguishable values.
Tensor values(Dims s, DType dt) { return iota(s).cast(dt).contiguous().realize(); }

// Index values in [0, k) in a scrambled order, with repeats when n > k.
Tensor index_of(int64_t n, int64_t k, DType dt) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; i++) v.push_back((i * 7 + 3) % k);
  return Tensor::from_vector(v, {n}, dtypes::int64).cast(dt).contiguous().realize();
}

// f() built afresh, then twice through the templates (the first call may build the template, the
// second reuses it): the same node each time.
template <class F>
void expect_same_graph(F f, const std::string& what) {
  UOpRef fresh;
  {
    ScopedSetting off("GRAPH_TEMPLATES", 0);
    fresh = f().uop();
  }
  UOpRef first = f().uop(), again = f().uop();
  EXPECT_EQ(first.get(), fresh.get()) << what << ": the template's graph differs from a fresh build";
  EXPECT_EQ(again.get(), fresh.get()) << what << ": the reused template's graph differs from a fresh build";
}

}  // namespace

TEST(GraphTemplate, IndexSelectIsTheFreshGraphForEveryShapeAndDtype) {
  std::vector<Dims> shapes = {{}, {7}, {5, 3}, {4, 1, 6}, {2, 3, 4, 5}};
  for (const Dims& s : shapes)
    for (DType dt : {dtypes::float32, dtypes::float64, dtypes::int8, dtypes::int64, dtypes::bool_, dtypes::float16})
      for (DType it : {dtypes::int32, dtypes::int64, dtypes::uint8})
        for (int64_t d = 0; d < int64_t(std::max<size_t>(s.size(), 1)); d++) {
          int64_t k = s.empty() ? 1 : s[size_t(d)];
          for (int64_t n : {int64_t(1), k + 3}) {
            Tensor x = values(s, dt), i = index_of(n, k, it);
            expect_same_graph([&] { return x.index_select(d, i); },
                              "index_select of " + shape_text(s) + " " + dt.name() + " by " + it.name());
          }
        }
}

TEST(GraphTemplate, LazyInputsGiveTheFreshGraphToo) {
  // Inputs that are expressions, not buffers: the template substitutes the whole input graph.
  Tensor x = values({6, 4}, dtypes::float32).mul(fval(2.0)).add(fval(1.0));
  Tensor i = Tensor::arange(0, 6, 1, dtypes::int32).flip({0});
  expect_same_graph([&] { return x.index_select(0, i); }, "index_select of a lazy x by a lazy index");
  expect_same_graph([&] { return x.index_select(1, i.shrink({{0, 3}})); }, "index_select along 1");
}

TEST(GraphTemplate, LastWriteIsTheFreshGraphForEveryShapeAndDtype) {
  // 1-D values of at most 32 bits take the packed path, the others (rows, 64-bit) the two steps.
  std::vector<Dims> shapes = {{9}, {9, 4}, {9, 2, 3}};
  for (const Dims& s : shapes)
    for (DType dt : {dtypes::float32, dtypes::float64, dtypes::int8, dtypes::int64, dtypes::bool_})
      for (DType it : {dtypes::int32, dtypes::int64})
        for (int64_t m : {int64_t(1), int64_t(5), int64_t(14)}) {  // 14: duplicates, the last one wins
          Tensor T = values(s, dt), idx = index_of(m, s[0], it);
          Dims rows = s;
          rows[0] = m;
          Tensor val = values(rows, dt);
          expect_same_graph([&] { return scatter::last_write(T, idx, val); },
                            "last_write into " + shape_text(s) + " " + dt.name() + " of " + std::to_string(m) + " rows");
        }
}

TEST(GraphTemplate, CachedAndFreshValuesAgree) {
  // The values too, against a brute-force loop: out[k] = x[i[k]].
  Tensor x = values({11, 3}, dtypes::float32), i = index_of(17, 11, dtypes::int64);
  for (int round = 0; round < 2; round++) {
    std::vector<float> got = x.index_select(0, i).to_vector<float>();
    ASSERT_EQ(got.size(), size_t(17 * 3));
    for (int64_t k = 0; k < 17; k++)
      for (int64_t c = 0; c < 3; c++) EXPECT_EQ(got[size_t(k * 3 + c)], float(((k * 7 + 3) % 11) * 3 + c));
  }
}

TEST(GraphTemplate, TheCacheKeepsNoInputAlive) {
  Allocator& alloc = get_device("CPU").allocator();
  uint64_t before = alloc.stats().current_bytes;
  {
    // A shape no other test uses: this call builds the template, from these very inputs.
    Tensor x = values({1013, 8}, dtypes::float32), i = index_of(501, 1013, dtypes::int64);
    EXPECT_GE(alloc.stats().current_bytes, before + 1013 * 8 * 4);
    x.index_select(0, i).realize();
    EXPECT_GT(graph_templates_kept(), 0u) << "no template was built";
    x.index_select(0, i).realize();  // and reuses it
  }
  EXPECT_EQ(alloc.stats().current_bytes, before) << "a buffer of the calls outlived them";
}

TEST(GraphTemplate, BuildsOverPlaceholdersOnceAndCanBeTurnedOff) {
  Tensor x = values({4, 2}, dtypes::float32), i = index_of(3, 4, dtypes::int32);
  std::vector<Tensor> seen;
  int builds = 0;
  auto identity = [&](const std::vector<Tensor>& in) {
    builds++;
    seen = in;
    return in[0];
  };
  Tensor r = from_graph_template("test.identity_of_inputs", {}, {x, i}, identity);
  // built over placeholders: the builder did not see the inputs, the result is x's node again
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_NE(seen[0].uop().get(), x.uop().get());
  EXPECT_EQ(seen[0].uop()->op, Ops::PARAM);
  EXPECT_EQ(r.uop().get(), x.uop().get());
  // the same shapes again: no build; other inputs of those shapes come out in x's place
  Tensor y = values({4, 2}, dtypes::float32).add(fval(1.0));
  EXPECT_EQ(from_graph_template("test.identity_of_inputs", {}, {y, i}, identity).uop().get(), y.uop().get());
  EXPECT_EQ(builds, 1);
  // another shape or parameter: another template
  from_graph_template("test.identity_of_inputs", {7}, {x, i}, identity);
  EXPECT_EQ(builds, 2);
  {
    ScopedSetting off("GRAPH_TEMPLATES", 0);
    from_graph_template("test.identity_of_inputs", {}, {x, i}, identity);
    EXPECT_EQ(seen[0].uop().get(), x.uop().get()) << "GRAPH_TEMPLATES=0 builds on the inputs";
    EXPECT_EQ(builds, 3);
  }
}
