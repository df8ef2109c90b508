// Math built on the primitives (math.cpp, activations.cpp): dtypes and shapes of the results, that
// the graphs hold only existing ops (no new UOps), and values by the reference evaluator.
#include <cmath>
#include <limits>

#include "reference_eval.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST(TensorMath, DTypesAndShapes) {
  Tensor f = data({2, 3}), i = data({2, 3}, dtypes::int32), h = data({2, 3}, dtypes::float16);
  for (const Tensor& t : {f.cos(), f.tan(), f.erf(), f.sigmoid(), f.tanh(), f.gelu(), f.gelu(true), f.silu(),
                          f.softplus(), f.mish(), f.hardswish(), f.hardsigmoid(), f.elu(), f.leaky_relu(),
                          f.round(), f.floor(), f.ceil(), f.sign(), f.rsqrt(), f.log1p(), f.expm1(),
                          i.sigmoid(), i.tanh(), i.cos(), i.erf()}) {
    EXPECT_EQ(verified(t).dtype(), dtypes::float32);
    EXPECT_EQ(t.shape(), (Dims{2, 3}));
  }
  EXPECT_EQ(verified(h.erf()).dtype(), dtypes::float16);
  EXPECT_EQ(verified(h.sigmoid()).dtype(), dtypes::float16);
  for (const Tensor& t : {f.isnan(), f.isinf(), f.isfinite(), i.isnan(), i.isfinite(), f.logical_and(i),
                          f.logical_or(i), f.logical_xor(data({3}))}) {
    EXPECT_EQ(verified(t).dtype(), dtypes::bool_);
    EXPECT_EQ(t.shape(), (Dims{2, 3}));
  }
  EXPECT_EQ(verified(i.sign()).dtype(), dtypes::int32);
  EXPECT_EQ(verified(i.square()).dtype(), dtypes::int32);
  EXPECT_EQ(verified(i.clamp(Tensor::scalar(ival(0), dtypes::int32), std::nullopt)).dtype(), dtypes::int32);
  EXPECT_EQ(verified(i.clamp(std::nullopt, Tensor::scalar(fval(0.5), dtypes::float32))).dtype(), dtypes::float32);
}

TEST(TensorMath, RoundingOpsReturnIntsUnchanged) {
  Tensor i = data({4}, dtypes::int64);
  EXPECT_EQ(i.floor().uop(), i.uop());
  EXPECT_EQ(i.ceil().uop(), i.uop());
  EXPECT_EQ(i.round().uop(), i.uop());
}

TEST(TensorMath, ComposedFromExistingOps) {
  Tensor f = data({5});
  // floor and ceil: TRUNC + WHERE; cos: SIN; tanh and sigmoid: EXP2 (through exp)
  EXPECT_EQ(count_op(f.floor(), Ops::TRUNC), 1u);
  EXPECT_EQ(count_op(f.floor(), Ops::WHERE), 1u);
  EXPECT_EQ(count_op(f.ceil(), Ops::TRUNC), 1u);
  EXPECT_EQ(count_op(f.cos(), Ops::SIN), 1u);
  EXPECT_EQ(count_op(f.tanh(), Ops::EXP2), 1u);
  EXPECT_EQ(count_op(f.sigmoid(), Ops::EXP2), 1u);
  EXPECT_EQ(count_op(f.erf(), Ops::EXP2), 1u);
  EXPECT_THROW(f.clamp(std::nullopt, std::nullopt), ShapeError);
}

TEST(TensorMath, Values) {
  Tensor x = floats({-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, -1.2f, 1.7f}, {8});
  EXPECT_EQ(values(x.round()), (std::vector<double>{-2, -2, -0.0, 0, 2, 2, -1, 2}));
  EXPECT_EQ(values(x.floor()), (std::vector<double>{-3, -2, -1, 0, 1, 2, -2, 1}));
  EXPECT_EQ(values(x.ceil()), (std::vector<double>{-2, -1, -0.0, 1, 2, 3, -1, 2}));
  EXPECT_TRUE(std::signbit(values(x.round())[2]));
  EXPECT_EQ(values(x.sign()), (std::vector<double>{-1, -1, -1, 1, 1, 1, -1, 1}));
  auto e = values(x.erf()), th = values(x.tanh()), sg = values(x.sigmoid()), cs = values(x.cos());
  for (size_t k = 0; k < e.size(); k++) {
    double v = values(x)[k];
    EXPECT_NEAR(e[k], std::erf(v), 1e-6);
    EXPECT_NEAR(th[k], std::tanh(v), 1e-6);
    EXPECT_NEAR(sg[k], 1 / (1 + std::exp(-v)), 1e-6);
    EXPECT_NEAR(cs[k], std::cos(v), 1e-6);
  }
}

TEST(TensorMath, SpecialValues) {
  Tensor s = floats({kInf, -kInf, kNaN, 0.0f, -0.0f, 1e30f}, {6});
  auto th = values(s.tanh());
  EXPECT_EQ(th[0], 1.0);
  EXPECT_EQ(th[1], -1.0);
  EXPECT_TRUE(std::isnan(th[2]));
  EXPECT_TRUE(std::signbit(th[4]));
  EXPECT_EQ(values(s.sigmoid())[0], 1.0);
  EXPECT_EQ(values(s.sigmoid())[1], 0.0);
  EXPECT_EQ(values(s.isnan()), (std::vector<double>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(values(s.isinf()), (std::vector<double>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(values(s.isfinite()), (std::vector<double>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(values(s.sign())[2], 0.0);  // PyTorch: sign(NaN) = 0
}
