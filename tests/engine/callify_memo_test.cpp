// Callify's memo (schedule/callify_memo.h): for every graph it gives what callify gives (the same
// FUNCTION node, buffers and variable values), whether it finds the body in the memo or not; a
// graph that differs from a kept one anywhere (an op, an arg, a buffer's size or dtype, one buffer
// read twice instead of two) is not taken for it; and realizes through it compute what they did.
#include <gtest/gtest.h>

#include "schedule/callify_memo.h"
#include "tensor/tensor.h"
#include "uop/settings.h"
#include "uop/variable.h"

namespace onegrad {
namespace {

using Dims = std::vector<int64_t>;

Tensor buffer(Dims s, float start, DType dt = dtypes::float32) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); i++) v[i] = start + float(i);
  return Tensor::from_vector(v, s, dtypes::float32).cast(dt).contiguous().realize();
}

// callify_memo(outs) next to callify(outs): the same function, buffers and values.
Callified expect_as_callify(const std::vector<UOpRef>& outs, const std::string& what) {
  Callified fresh = callify(outs), memo = callify_memo(outs);
  EXPECT_EQ(memo.function.get(), fresh.function.get()) << what;
  EXPECT_EQ(memo.buffers.size(), fresh.buffers.size()) << what;
  for (size_t k = 0; k < std::min(memo.buffers.size(), fresh.buffers.size()); k++)
    EXPECT_EQ(memo.buffers[k].get(), fresh.buffers[k].get()) << what << ": buffer " << k;
  EXPECT_EQ(memo.var_vals, fresh.var_vals) << what;
  return memo;
}

// A graph of the setitem kind: a view of one buffer, elementwise ops with a second, a reduce.
UOpRef graph(const Tensor& a, const Tensor& b) { return a.add(b.mul(ConstValue::from_float(2.0))).sum({1}).uop(); }

TEST(CallifyMemo, NewBuffersOfTheSameGraphFindTheBody) {
  CallifyMemoStats before = callify_memo_stats();
  Callified first = expect_as_callify({graph(buffer({5, 3}, 0), buffer({5, 3}, 100))}, "first call");
  for (int call = 1; call < 4; call++) {
    Tensor a = buffer({5, 3}, float(call)), b = buffer({5, 3}, float(10 * call));
    Callified again = expect_as_callify({graph(a, b)}, "call " + std::to_string(call));
    EXPECT_EQ(function_body(again.function).get(), function_body(first.function).get());
    EXPECT_EQ(again.buffers[0].get(), a.uop()->src[0].get());  // a's BUFFER is slot 0
  }
  EXPECT_GE(callify_memo_stats().hits, before.hits + 3) << "the later calls must come from the memo";
}

TEST(CallifyMemo, AGraphThatDiffersAnywhereIsNotTakenForAKeptOne) {
  Tensor a = buffer({4, 6}, 0), b = buffer({4, 6}, 50);
  expect_as_callify({graph(a, b)}, "kept");
  // another op, another constant (a node no buffer is under), another reduce axis
  expect_as_callify({a.sub(b.mul(ConstValue::from_float(2.0))).sum({1}).uop()}, "SUB for ADD");
  expect_as_callify({a.add(b.mul(ConstValue::from_float(3.0))).sum({1}).uop()}, "another constant");
  expect_as_callify({a.add(b.mul(ConstValue::from_float(2.0))).sum({0}).uop()}, "another axis");
  // buffers of another size, another dtype
  expect_as_callify({graph(buffer({4, 7}, 0), buffer({4, 7}, 1))}, "another size");
  expect_as_callify({graph(buffer({4, 6}, 0, dtypes::float64), buffer({4, 6}, 1, dtypes::float64))}, "float64");
  // one buffer read twice: one PARAM, not two
  Callified same = expect_as_callify({graph(a, a)}, "one buffer twice");
  EXPECT_EQ(same.buffers.size(), 1u);
  // the kept graph again, after all those
  Callified again = expect_as_callify({graph(buffer({4, 6}, 7), buffer({4, 6}, 8))}, "kept, again");
  EXPECT_EQ(again.buffers.size(), 2u);
}

TEST(CallifyMemo, SeveralOutputsKeepTheirOrder) {
  Tensor a = buffer({8}, 0), b = buffer({8}, 3);
  expect_as_callify({a.add(b).uop(), a.mul(b).uop()}, "add, mul");
  expect_as_callify({a.mul(b).uop(), a.add(b).uop()}, "mul, add");
  Tensor c = buffer({8}, 5), d = buffer({8}, 9);
  expect_as_callify({c.add(d).uop(), c.mul(d).uop()}, "add, mul on new buffers");
  expect_as_callify({d.add(c).uop(), d.mul(c).uop()}, "the buffers swapped");
}

TEST(CallifyMemo, BoundVariablesGoToCallify) {
  UOpRef n = UOp::variable("n", 1, 16);
  for (int64_t v : {3, 5, 3}) {
    Tensor x = buffer({v * 4}, 0).reshape_symbolic({bind_variable(n, v), UOp::index(4)});
    Callified c = expect_as_callify({x.mul(ConstValue::from_float(2.0)).uop()}, "n = " + std::to_string(v));
    EXPECT_EQ(c.var_vals.size(), 1u);
  }
}

TEST(CallifyMemo, SetitemComputesWhatItDidWithoutTheMemo) {
  // x[idx] = rows on fresh copies, with the memo and without: the same values (and a plain loop's)
  const int64_t rows = 37, cols = 5;
  std::vector<int64_t> perm(rows);
  for (int64_t i = 0; i < rows; i++) perm[size_t(i)] = (i * 11 + 4) % rows;
  Tensor idx = Tensor::from_vector(perm, {rows}, dtypes::int64);
  for (int memo : {1, 0, 1}) {
    ScopedSetting s("CALLIFY_MEMO", memo);
    for (int call = 0; call < 3; call++) {
      Tensor x = buffer({rows, cols}, 0), v = buffer({rows, cols}, float(1000 * (call + 1)));
      x.setitem({idx}, v);
      std::vector<float> got = x.to_vector<float>();
      for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
          ASSERT_EQ(got[size_t(perm[size_t(i)] * cols + j)], float(1000 * (call + 1) + i * cols + j))
              << "memo " << memo << " call " << call << " row " << i;
    }
  }
}

}  // namespace
}  // namespace onegrad
