// Tensor's PyTorch names (tensor.h "PyTorch's names", src/tensor/torch_api.cpp) and
// adaptive_max_pool_indices (pool.cpp): values by brute force in the test, and the messages of the
// errors. tests/python/test_torch_api.py and test_adaptive_max_indices.py compare with torch itself.
#include <cmath>
#include <limits>
#include <type_traits>

#include "reference_eval.h"
#include "tensor/shape_util.h"
#include "tensor/torch_api.h"
#include "tensor_testing.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::vector<float> host(const Tensor& t) { return t.cast(dtypes::float32).to_vector<float>(); }
std::vector<int64_t> host_ints(const Tensor& t) { return t.cast(dtypes::int64).to_vector<int64_t>(); }

// A small deterministic pattern with many ties (values in 0..4).
std::vector<float> tied(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i++) v[size_t(i)] = float((i * 7 + 3) % 5);
  return v;
}

}  // namespace

TEST(TorchMethods, SizeAndDim) {
  Tensor x = data({2, 3, 4});
  EXPECT_EQ(x.size(), (Dims{2, 3, 4}));
  EXPECT_EQ(x.size(0), 2);
  EXPECT_EQ(x.size(-1), 4);
  EXPECT_EQ(x.size(-3), 2);
  EXPECT_EQ(x.dim(), 3);
  EXPECT_EQ(Tensor::scalar(ival(1), dtypes::int32).dim(), 0);
  EXPECT_THROW_MSG(x.size(3), ShapeError, "size: dimension out of range (expected to be in range of [-3, 2], but got 3)");
  EXPECT_THROW_MSG(x.size(-4), ShapeError, "but got -4)");
  EXPECT_THROW_MSG(Tensor::scalar(ival(1), dtypes::int32).size(0), ShapeError,
                   "size: dimension 0 given but the tensor has no dimensions");
}

TEST(TorchMethods, ToDeviceAndDtype) {
  Tensor x = floats({1.5f, -2.5f}, {2});
  EXPECT_EQ(x.to(std::string("cpu")).uop(), x.uop());  // the same tensor, not a copy
  EXPECT_EQ(x.to(std::string("CPU:0")).uop(), x.uop());
  EXPECT_EQ(x.cpu().uop(), x.uop());
  EXPECT_EQ(x.to(dtypes::float32).uop(), x.uop());
  Tensor i = x.to(dtypes::int32);
  EXPECT_EQ(i.dtype(), dtypes::int32);
  EXPECT_EQ(host_ints(i), (std::vector<int64_t>{1, -2}));  // truncation, as a cast
  EXPECT_EQ(x.type_as(i).dtype(), dtypes::int32);
  EXPECT_EQ(x.to(std::string("CPU:1")).device(), "CPU:1");  // a copy onto the other device (a LOAD)
  EXPECT_EQ(host_ints(x.to(std::string("CPU:1")).to(dtypes::int32)), (std::vector<int64_t>{1, -2}));
  EXPECT_THROW_MSG(x.to(std::string("TPU")), DeviceError, "to: unknown device 'TPU'");
}

TEST(TorchMethods, CloneIsACopyThatKeepsGradients) {
  Tensor a = floats({1, 2, 3}, {3});
  a.realize();
  Tensor b = a.clone();
  b.realize();
  a.setitem({int64_t(0)}, ConstValue::from_float(9));
  EXPECT_EQ(host(a), (std::vector<float>{9, 2, 3}));
  EXPECT_EQ(host(b), (std::vector<float>{1, 2, 3}));
  Tensor c = a.detach().clone();  // detach() of a buffer is that buffer again: still a copy
  c.realize();
  b.setitem({int64_t(1)}, ConstValue::from_float(7));
  a.setitem({int64_t(2)}, ConstValue::from_float(8));
  EXPECT_EQ(host(a), (std::vector<float>{9, 2, 8}));
  EXPECT_EQ(host(b), (std::vector<float>{1, 7, 3}));
  EXPECT_EQ(host(c), (std::vector<float>{9, 2, 3}));
  Tensor w = floats({1, 2}, {2});
  w.requires_grad_();
  w.clone().mul(w).sum().backward();
  EXPECT_EQ(host(*w.grad()), (std::vector<float>{2, 4}));
}

TEST(TorchMethods, NewTensorsTakeThisDtypeAndDevice) {
  Tensor x = int32s({1, 2}, {2});
  Tensor z = x.new_zeros({2, 3}), o = x.new_ones({1}), f = x.new_full({2}, ival(7));
  EXPECT_EQ(z.dtype(), dtypes::int32);
  EXPECT_EQ(z.shape(), (Dims{2, 3}));
  EXPECT_EQ(host_ints(z), std::vector<int64_t>(6, 0));
  EXPECT_EQ(host_ints(o), (std::vector<int64_t>{1}));
  EXPECT_EQ(host_ints(f), (std::vector<int64_t>{7, 7}));
  EXPECT_EQ(f.device(), x.device());
  EXPECT_THROW(Tensor::from_vector(std::vector<int8_t>{1}, {1}, dtypes::int8).new_full({1}, ival(1000)), DTypeError);
  EXPECT_EQ(floats({1}, {1}).expand_as(data({3, 1})).shape(), (Dims{3, 1}));
}

// max(dim)/min(dim) against a loop over the rows: the extreme and the first position holding it.
TEST(TorchMethods, MaxMinOverADimGiveValuesAndFirstIndices) {
  static_assert(std::is_same_v<decltype(data({2}).max({0})), Tensor>, "a braced list stays the axes reduction");
  static_assert(std::is_same_v<decltype(data({2}).max(0)), std::pair<Tensor, Tensor>>);
  const int64_t rows = 4, cols = 6;
  std::vector<float> v = tied(rows * cols);
  Tensor x = floats(v, {rows, cols});
  for (bool is_max : {true, false}) {
    auto [values, indices] = is_max ? x.max(1) : x.min(-1);
    EXPECT_EQ(indices.dtype(), dtypes::int64);
    EXPECT_EQ(values.shape(), (Dims{rows}));
    std::vector<float> got_v = host(values);
    std::vector<int64_t> got_i = host_ints(indices);
    for (int64_t r = 0; r < rows; r++) {
      int64_t best = 0;
      for (int64_t c = 1; c < cols; c++) {
        float a = v[size_t(r * cols + c)], b = v[size_t(r * cols + best)];
        if (is_max ? a > b : a < b) best = c;
      }
      EXPECT_EQ(got_i[size_t(r)], best) << "row " << r << (is_max ? " max" : " min");
      EXPECT_EQ(got_v[size_t(r)], v[size_t(r * cols + best)]);
    }
  }
  auto [kv, ki] = x.max(0, true);
  EXPECT_EQ(kv.shape(), (Dims{1, cols}));
  EXPECT_EQ(ki.shape(), (Dims{1, cols}));
  EXPECT_EQ(host(x.amax({0, 1})), (std::vector<float>{4}));
  EXPECT_EQ(host(x.amin({}, true)), (std::vector<float>{0}));
  EXPECT_THROW_MSG(x.max(2), ShapeError, "(4, 6)");
}

// torch's adaptive max pool scans each window [floor(o*in/out), ceil((o+1)*in/out)) per axis in
// row-major order and takes each value that is greater than the one it holds, and every NaN (so the
// last NaN wins): brute force of that.
namespace {

struct Window {
  int64_t lo, hi;
};
Window window(int64_t o, int64_t in, int64_t out) { return {o * in / out, ((o + 1) * in + out - 1) / out}; }

// Flat indices per output of a (C, spatial...) input, spatial of rank 1..3.
std::vector<int64_t> brute_indices(const std::vector<float>& v, int64_t channels, const Dims& in, const Dims& out) {
  Dims in3 = in, out3 = out;
  while (in3.size() < 3) in3.insert(in3.begin(), 1), out3.insert(out3.begin(), 1);
  int64_t plane = in3[0] * in3[1] * in3[2];
  std::vector<int64_t> result;
  for (int64_t c = 0; c < channels; c++)
    for (int64_t a = 0; a < out3[0]; a++)
      for (int64_t b = 0; b < out3[1]; b++)
        for (int64_t d = 0; d < out3[2]; d++) {
          Window wa = window(a, in3[0], out3[0]), wb = window(b, in3[1], out3[1]), wd = window(d, in3[2], out3[2]);
          int64_t best = -1;
          float bv = -std::numeric_limits<float>::infinity();
          for (int64_t i = wa.lo; i < wa.hi; i++)
            for (int64_t j = wb.lo; j < wb.hi; j++)
              for (int64_t k = wd.lo; k < wd.hi; k++) {
                int64_t flat = (i * in3[1] + j) * in3[2] + k;
                float x = v[size_t(c * plane + flat)];
                if (best < 0 || x > bv || std::isnan(x)) best = flat, bv = x;
              }
          result.push_back(best);
        }
  return result;
}

}  // namespace

TEST(TorchMethods, AdaptiveMaxPoolIndicesAreTorchsFirstMaxima) {
  struct Case {
    Dims in, out;
  };
  for (const Case& k : {Case{{7}, {3}}, Case{{8}, {4}}, Case{{5, 7}, {3, 2}}, Case{{6, 4}, {3, 4}},
                        Case{{3, 5, 4}, {2, 3, 3}}, Case{{4, 4, 4}, {2, 2, 2}}}) {
    int64_t channels = 3, n = channels;
    for (int64_t d : k.in) n *= d;
    std::vector<float> v = tied(n);
    v[5] = v[6] = std::nanf("");  // channel 0 holds two NaNs: the last wins its windows
    Dims shape{channels};
    shape.insert(shape.end(), k.in.begin(), k.in.end());
    Tensor x = floats(v, shape);
    std::vector<int64_t> want = brute_indices(v, channels, k.in, k.out);
    EXPECT_EQ(host_ints(x.adaptive_max_pool_indices(k.out)), want) << shape_text(shape);
    // the values are the input at those indices
    std::vector<float> got = host(x.adaptive_max_pool(k.out));
    int64_t plane = n / channels, per = int64_t(want.size()) / channels;
    for (size_t i = 0; i < want.size(); i++) {
      float at = v[size_t(int64_t(i) / per * plane + want[i])];
      if (std::isnan(at)) EXPECT_TRUE(std::isnan(got[i]));
      else EXPECT_EQ(got[i], at) << shape_text(shape) << " output " << i;
    }
    Tensor batched = x.unsqueeze(0).adaptive_max_pool_indices(k.out);
    EXPECT_EQ(batched.shape()[0], 1);
    EXPECT_EQ(host_ints(batched), want);
  }
}

TEST(TorchMethods, AdaptiveMaxPoolIndicesEdgeCasesAndErrors) {
  Tensor x = floats(tied(10), {1, 2, 5});
  EXPECT_EQ(x.adaptive_max_pool_indices({0}).shape(), (Dims{1, 2, 0}));
  EXPECT_EQ(x.adaptive_max_pool_indices({0}).dtype(), dtypes::int64);
  EXPECT_EQ(host_ints(x.adaptive_max_pool_indices({-1})), (std::vector<int64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4}));
  EXPECT_THROW_MSG(int32s({1, 2}, {1, 2}).adaptive_max_pool_indices({1}), DTypeError, "adaptive_max_pool1d");
  EXPECT_THROW_MSG(x.adaptive_max_pool_indices({-2}), ShapeError,
                   "adaptive_max_pool1d: output_size must be >= 0 (or -1 to keep an axis), got (-2,)");
  EXPECT_THROW_MSG(x.adaptive_max_pool_indices({}), ShapeError, "output_size must have at least one value");
}
