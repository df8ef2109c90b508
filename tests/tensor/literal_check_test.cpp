// Numbers written into a tensor that do not fit its dtype are refused (ValueRangeError), never
// wrapped; an int given without a dtype takes int64 when it does not fit int32 (torch's answer).
#include <cmath>

#include "reference_eval.h"
#include "tensor/broadcast.h"
#include "tensor/literal_check.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {
const i128 k2p40 = i128(1) << 40;
}

TEST(LiteralCheck, FitsFollowsTheDtypesRange) {
  EXPECT_TRUE(literal_fits(ival(127), dtypes::int8));
  EXPECT_FALSE(literal_fits(ival(128), dtypes::int8));
  EXPECT_FALSE(literal_fits(ival(-129), dtypes::int8));
  EXPECT_FALSE(literal_fits(ival(-1), dtypes::uint8));  // no negatives into unsigned (torch wraps them)
  EXPECT_TRUE(literal_fits(ConstValue::from_int((i128(1) << 64) - 1), dtypes::uint64));
  EXPECT_FALSE(literal_fits(ConstValue::from_int(k2p40), dtypes::int32));
  EXPECT_TRUE(literal_fits(fval(127.9), dtypes::int8));   // stored truncated: 127
  EXPECT_FALSE(literal_fits(fval(128.0), dtypes::int8));
  EXPECT_FALSE(literal_fits(fval(std::nan("")), dtypes::int32));
  EXPECT_FALSE(literal_fits(fval(INFINITY), dtypes::int64));
  EXPECT_TRUE(literal_fits(fval(INFINITY), dtypes::float16));  // inf and NaN are float values
  EXPECT_TRUE(literal_fits(fval(65504.0), dtypes::float16));
  EXPECT_FALSE(literal_fits(fval(70000.0), dtypes::float16));
  EXPECT_FALSE(literal_fits(ival(70000), dtypes::float16));
  EXPECT_FALSE(literal_fits(fval(1e40), dtypes::float32));
  EXPECT_TRUE(literal_fits(fval(1e40), dtypes::float64));
  EXPECT_TRUE(literal_fits(ConstValue::from_int(k2p40), dtypes::bool_));
  EXPECT_EQ(int_literal_dtype("x", ival(-(i128(1) << 31))), dtypes::int32);
  EXPECT_EQ(int_literal_dtype("x", ival(i128(1) << 31)), dtypes::int64);
  EXPECT_THROW_MSG(int_literal_dtype("x", ConstValue::from_int(i128(1) << 63)), ValueRangeError,
                   "x: the value 9223372036854775808 does not fit int64");
}

TEST(LiteralCheck, FullAndScalarRefuseWhatDoesNotFit) {
  EXPECT_THROW_MSG(Tensor::full({2}, ConstValue::from_int(k2p40), dtypes::int32), ValueRangeError,
                   "full: the value 1099511627776 does not fit int32");
  EXPECT_THROW_MSG(Tensor::full({2}, ival(1000), dtypes::int8), ValueRangeError, "full: the value 1000 does not fit int8");
  EXPECT_THROW_MSG(Tensor::full({2}, fval(70000.0), dtypes::float16), ValueRangeError,
                   "full: the value 70000.0 does not fit float16");
  EXPECT_THROW_MSG(Tensor::scalar(ival(-1), dtypes::uint8), ValueRangeError, "scalar: the value -1 does not fit uint8");
  EXPECT_EQ(ints(Tensor::full({2}, ConstValue::from_int(k2p40), dtypes::int64)),
            (std::vector<int64_t>{int64_t(k2p40), int64_t(k2p40)}));
  EXPECT_EQ(ints(Tensor::full({1}, fval(2.7), dtypes::int8)), (std::vector<int64_t>{2}));  // truncates, as a cast
}

TEST(LiteralCheck, ArangeRefusesValuesItsDtypeCannotHold) {
  // The default int32 refuses 2^31 (Python's Tensor.arange picks int64 there; C++ says so).
  EXPECT_THROW_MSG(Tensor::arange((int64_t(1) << 31) - 1, (int64_t(1) << 31) + 1), ValueRangeError,
                   "arange: the value 2147483648 does not fit int32");
  EXPECT_THROW_MSG(Tensor::arange(-(int64_t(1) << 31) - 1, 0), ValueRangeError,
                   "arange: the value -2147483649 does not fit int32");
  Tensor a = Tensor::arange((int64_t(1) << 31) - 1, (int64_t(1) << 31) + 1, 1, dtypes::int64);
  EXPECT_EQ(ints(a), (std::vector<int64_t>{(int64_t(1) << 31) - 1, int64_t(1) << 31}));
  EXPECT_EQ(Tensor::arange(-(int64_t(1) << 31), 0, int64_t(1) << 30).dtype(), dtypes::int32);
  EXPECT_THROW_MSG(Tensor::arange(0, 300, 100, dtypes::int8), ValueRangeError, "arange: the value 200 does not fit int8");
  // The last value, not stop, decides: 0, 100 fit int8 although stop is 200.
  EXPECT_EQ(ints(Tensor::arange(0, 200, 100, dtypes::int8)), (std::vector<int64_t>{0, 100}));
  // Bounds whose difference leaves int64 still give the right count.
  Tensor c = Tensor::arange(-(int64_t(1) << 62), int64_t(1) << 62, int64_t(1) << 62, dtypes::int64);
  EXPECT_EQ(ints(c), (std::vector<int64_t>{-(int64_t(1) << 62), 0}));
}

TEST(LiteralCheck, ScalarOperandsWrapOnlyInRingOps) {
  Tensor i8 = Tensor::from_vector(std::vector<int8_t>{1, 2}, {2}, dtypes::int8);
  // add/sub/mul/bitwise wrap the number as PyTorch does: the exact result wrapped to int8.
  EXPECT_EQ(ints(i8.add(ival(1000))), (std::vector<int64_t>{-23, -22}));
  EXPECT_EQ(ints(i8.mul(ival(1000))), (std::vector<int64_t>{int8_t(1000), int8_t(2000)}));
  EXPECT_THROW_MSG(i8.lt(scalar_operand("lt", i8, ival(1000))), ValueRangeError, "lt: the value 1000 does not fit int8");
  EXPECT_THROW_MSG(scalar_operand("idiv", i8, ival(-200)), ValueRangeError, "idiv: the value -200 does not fit int8");
  EXPECT_THROW_MSG(scalar_operand("clamp", i8, ival(1000)), ValueRangeError, "clamp: the value 1000 does not fit int8");
  EXPECT_THROW_MSG(scalar_operand("where", i8, ival(128)), ValueRangeError, "where: the value 128 does not fit int8");
  // A bool tensor next to an int past int32 computes in int64 (torch's answer).
  Tensor b = Tensor::from_vector(std::vector<uint8_t>{1, 0}, {2}, dtypes::bool_);
  EXPECT_EQ(scalar_operand("add", b, ConstValue::from_int(k2p40)).dtype(), dtypes::int64);
  EXPECT_EQ(scalar_operand("add", b, ival(3)).dtype(), dtypes::int32);
  // A float tensor rounds the number (inf in float16), as PyTorch.
  Tensor h = Tensor::full({1}, fval(1.0), dtypes::float16);
  EXPECT_EQ(values(h.add(fval(70000.0))), (std::vector<double>{INFINITY}));
}

TEST(LiteralCheck, WritesRefuseWhatDoesNotFit) {
  Tensor i8 = Tensor::from_vector(std::vector<int8_t>{1, 2}, {2}, dtypes::int8);
  EXPECT_THROW_MSG(i8.setitem({int64_t(0)}, ival(1000)), ValueRangeError, "setitem: the value 1000 does not fit int8");
  Tensor mask = Tensor::from_vector(std::vector<uint8_t>{1, 0}, {2}, dtypes::bool_);
  EXPECT_THROW_MSG(i8.masked_fill(mask, ival(-129)), ValueRangeError, "masked_fill: the value -129 does not fit int8");
  EXPECT_THROW_MSG(i8.pad({{1, 0}}, ival(300)), ValueRangeError, "pad: the value 300 does not fit int8");
  Tensor idx = Tensor::from_vector(std::vector<int64_t>{0}, {1}, dtypes::int64);
  EXPECT_THROW_MSG(i8.scatter(0, idx, ival(128)), ValueRangeError, "scatter: the value 128 does not fit int8");
  EXPECT_EQ(ints(i8.masked_fill(mask, ival(-128))), (std::vector<int64_t>{-128, 2}));
}
