// Elementwise ops: explicit broadcasting (RESHAPE + EXPAND), explicit promotion (CAST), weakly typed
// scalars, the dtype rules of division and comparisons, the bitwise dtype checks, and values of
// the composed ones (floor division of floats, minimum, pow) by the reference evaluator.
#include <cmath>

#include "reference_eval.h"
#include "tensor/broadcast.h"
#include "tensor/gradient.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// The ALU sources of the result have identical shapes and dtypes (the tensor graph form).
void expect_uniform_sources(const Tensor& t) {
  const UOp* u = t.uop().get();
  for (const UOpRef& s : u->src) {
    EXPECT_EQ(s->shape(), u->src.back()->shape());
    if (u->op != Ops::WHERE || s != u->src[0]) {
      EXPECT_EQ(s->dtype, u->src.back()->dtype);
    }
  }
}

}  // namespace

TEST(TensorBroadcast, EmitsReshapeAndExpand) {
  Tensor a = data({3}), b = data({2, 3});
  Tensor c = verified(a.add(b));
  ASSERT_EQ(c.uop()->op, Ops::ADD);
  EXPECT_EQ(c.shape(), (Dims{2, 3}));
  const UOpRef& lhs = c.uop()->src[0];
  ASSERT_EQ(lhs->op, Ops::EXPAND);
  ASSERT_EQ(lhs->src[0]->op, Ops::RESHAPE);
  EXPECT_EQ(lhs->src[0]->static_shape(), (Dims{1, 3}));
  EXPECT_EQ(lhs->src[0]->src[0], a.uop());
  EXPECT_EQ(c.uop()->src[1], b.uop());  // already the common shape: no node
  expect_uniform_sources(c);
  EXPECT_EQ(verified(data({4, 1}).mul(data({1, 5}))).shape(), (Dims{4, 5}));
  EXPECT_EQ(verified(data({}).add(data({0, 3}))).shape(), (Dims{0, 3}));
  EXPECT_EQ(verified(data({}).add(data({}))).shape(), Dims{});
}

TEST(TensorBroadcast, SameShapesEmitNoMovement) {
  Tensor a = data({2, 3}), b = data({2, 3});
  Tensor c = verified(a * b);
  EXPECT_EQ(c.uop()->src[0], a.uop());
  EXPECT_EQ(c.uop()->src[1], b.uop());
}

TEST(TensorBroadcast, Mismatch) {
  EXPECT_THROW_MSG(data({2, 3}).add(data({4})), ShapeError, "add: cannot broadcast shapes (2, 3) and (4,)");
  EXPECT_THROW_MSG(data({2}).lt(data({3})), ShapeError, "lt: cannot broadcast shapes (2,) and (3,)");
  EXPECT_THROW_MSG(data({2}).where(data({3}), data({4})), ShapeError, "where: cannot broadcast shapes (2,), (3,) and (4,)");
}

TEST(TensorPromote, EmitsCastOnTheOtherOperand) {
  Tensor i = data({3}, dtypes::int32), f = data({3}, dtypes::float32);
  Tensor c = verified(i + f);
  EXPECT_EQ(c.dtype(), dtypes::float32);
  ASSERT_EQ(c.uop()->src[0]->op, Ops::CAST);
  EXPECT_EQ(c.uop()->src[0]->src[0], i.uop());
  EXPECT_EQ(c.uop()->src[1], f.uop());
  EXPECT_EQ((data({1}, dtypes::uint8) + data({1}, dtypes::int8)).dtype(), dtypes::int16);
  EXPECT_EQ((data({1}, dtypes::float16) + data({1}, dtypes::bfloat16)).dtype(), dtypes::float32);
  EXPECT_EQ((data({1}, dtypes::bool_) + data({1}, dtypes::bool_)).dtype(), dtypes::bool_);
  EXPECT_EQ(count_op(data({2}) + data({2}), Ops::CAST), 0u);
}

TEST(TensorPromote, ScalarsAreWeaklyTyped) {
  EXPECT_EQ(verified(data({2}, dtypes::int8).add(ival(1))).dtype(), dtypes::int8);
  EXPECT_EQ(verified(data({2}, dtypes::int8).add(fval(1.5))).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({2}, dtypes::float16).mul(ival(3))).dtype(), dtypes::float16);
  EXPECT_EQ(verified(data({2}, dtypes::float16).mul(fval(0.5))).dtype(), dtypes::float16);
  EXPECT_EQ(verified(data({2}, dtypes::bool_).add(ival(1))).dtype(), dtypes::int32);
  EXPECT_EQ(verified(data({2}, dtypes::bool_).add(fval(1))).dtype(), dtypes::float32);
  // The scalar is a CONST of the tensor's dtype, broadcast by RESHAPE + EXPAND: no CAST.
  Tensor t = verified(data({2, 2}, dtypes::int16) + ival(5));
  EXPECT_EQ(count_op(t, Ops::CAST), 0u);
  ASSERT_EQ(t.uop()->src[1]->op, Ops::EXPAND);
  EXPECT_EQ(t.uop()->src[1]->src[0]->src[0]->const_value(), ival(5));
  EXPECT_EQ(t.uop()->src[1]->src[0]->src[0]->dtype, dtypes::int16);
  EXPECT_EQ(verified(data({3}).rsub(ival(1))).uop()->op, Ops::SUB);
  EXPECT_EQ(ints(int32s({1, 2}, {2}).rsub(ival(10))), (std::vector<int64_t>{9, 8}));
  EXPECT_EQ(values(floats({2, 4}, {2}).rdiv(ival(1))), (std::vector<double>{0.5, 0.25}));
}

// scalar_operand: the per-op refinements that make Python numbers behave as in PyTorch.
TEST(TensorPromote, ScalarOperandPerOp) {
  Tensor i8 = Tensor::from_vector(std::vector<int8_t>{100, -50}, {2}, dtypes::int8);
  // true division types the number float32: 1000 is not wrapped to int8 first
  EXPECT_EQ(scalar_operand("div", i8, ival(1000)).dtype(), dtypes::float32);
  EXPECT_EQ(values(i8.div(ival(1000))), (std::vector<double>{0.1f, -0.05f}));
  EXPECT_EQ(scalar_operand("add", i8, ival(1000)).dtype(), dtypes::int8);  // arithmetic wraps, as torch
  EXPECT_EQ(scalar_operand("sub", i8, ival(1), true).dtype(), dtypes::bool_);
  EXPECT_THROW_MSG(i8.sub(scalar_operand("sub", i8, ival(1), true)), DTypeError,
                   "sub: not supported for bool (use bitwise_xor or logical_not)");
  EXPECT_THROW_MSG(scalar_operand("maximum", i8, ival(1000)), DTypeError, "maximum: the value 1000 does not fit int8");
  Tensor u8 = data({2}, dtypes::uint8);
  // torch wraps -3 to 253 here (so clamp(-3, 5) gives 5 everywhere); onegrad refuses
  EXPECT_THROW_MSG(scalar_operand("clamp", u8, ival(-3)), DTypeError, "clamp: the value -3 does not fit uint8");
  EXPECT_EQ(scalar_operand("clamp", u8, ival(255)).dtype(), dtypes::uint8);
}

TEST(TensorUnary, DtypesTorchRejects) {
  EXPECT_THROW_MSG(data({2}, dtypes::int32).silu(), DTypeError,
                   "silu: expected a floating-point tensor, got int32 (cast it first, e.g. x.float())");
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).gelu(false), DTypeError, "gelu: expected a floating-point tensor, got bool");
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).abs(), DTypeError, "abs: not supported for bool");
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).floor(), DTypeError, "floor: not supported for bool");
  EXPECT_EQ(verified(data({2}, dtypes::bool_).square()).dtype(), dtypes::int64);
  EXPECT_EQ(verified(data({2}, dtypes::uint8).abs()).dtype(), dtypes::uint8);
}

TEST(TensorArith, DivIsTrueDivision) {
  Tensor q = verified(data({2}, dtypes::int32) / data({2}, dtypes::int64));
  EXPECT_EQ(q.uop()->op, Ops::DIV);
  EXPECT_EQ(q.dtype(), dtypes::float32);
  EXPECT_EQ(count_op(q, Ops::CAST), 2u);
  EXPECT_EQ(verified(data({2}, dtypes::float16).div(data({2}, dtypes::float16))).dtype(), dtypes::float16);
  EXPECT_EQ(verified(data({2}, dtypes::int32).div(ival(2))).dtype(), dtypes::float32);
  EXPECT_EQ(values(int32s({7, -7}, {2}) / ival(2)), (std::vector<double>{3.5, -3.5}));
}

TEST(TensorArith, FloorDivisionAndModulo) {
  Tensor a = int32s({7, -7, 7, -7}, {4}), b = int32s({2, 2, -2, -2}, {4});
  Tensor q = verified(a.idiv(b)), r = verified(a.mod(b));
  EXPECT_EQ(q.uop()->op, Ops::IDIV);
  EXPECT_EQ(r.uop()->op, Ops::MOD);
  EXPECT_EQ(q.dtype(), dtypes::int32);
  EXPECT_EQ(ints(q), (std::vector<int64_t>{3, -4, -4, 3}));
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, 1, -1, -1}));
  // Floats: built from DIV, TRUNC and a WHERE fix-up (IDIV/MOD are int ops in the graph).
  Tensor fa = floats({7, -7, 7, -7, 7.5f}, {5}), fb = floats({2, 2, -2, -2, 2}, {5});
  Tensor fq = verified(fa.idiv(fb)), fr = verified(fa.mod(fb));
  EXPECT_EQ(count_op(fq, Ops::IDIV) + count_op(fr, Ops::MOD), 0u);
  EXPECT_EQ(fq.dtype(), dtypes::float32);
  EXPECT_EQ(values(fq), (std::vector<double>{3, -4, -4, 3, 3}));
  EXPECT_EQ(values(fr), (std::vector<double>{1, 1, -1, -1, 1.5}));
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).idiv(data({2}, dtypes::bool_)), DTypeError, "idiv: not supported for bool");
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).mod(data({2}, dtypes::bool_)), DTypeError, "mod: not supported for bool");
}

TEST(TensorArith, SubAndNegRejectBool) {
  EXPECT_EQ(verified(data({2}) - data({2})).uop()->op, Ops::SUB);
  EXPECT_EQ(verified(-data({2})).uop()->op, Ops::NEG);
  EXPECT_THROW_MSG(data({2}, dtypes::bool_) - data({2}, dtypes::bool_), DTypeError, "sub: not supported for bool");
  EXPECT_THROW_MSG(-data({2}, dtypes::bool_), DTypeError, "neg: not supported for bool (use logical_not)");
}

TEST(TensorArith, MaximumMinimum) {
  Tensor a = int32s({1, -5, INT32_MIN, 3}, {4}), b = int32s({2, -6, 0, 3}, {4});
  EXPECT_EQ(verified(a.maximum(b)).uop()->op, Ops::MAX);
  EXPECT_EQ(ints(a.maximum(b)), (std::vector<int64_t>{2, -5, 0, 3}));
  EXPECT_EQ(ints(verified(a.minimum(b))), (std::vector<int64_t>{1, -6, INT32_MIN, 3}));
  Tensor u = Tensor::from_vector(std::vector<uint8_t>{0, 255, 7}, {3}, dtypes::uint8);
  EXPECT_EQ(ints(u.minimum(Tensor::full({3}, ival(8), dtypes::uint8))), (std::vector<int64_t>{0, 8, 7}));
  EXPECT_EQ(values(floats({1.5f, -2}, {2}).minimum(floats({0, 0}, {2}))), (std::vector<double>{0, -2}));
  Tensor bo = Tensor::from_vector(std::vector<uint8_t>{0, 1, 1}, {3}, dtypes::bool_);
  Tensor bo2 = Tensor::from_vector(std::vector<uint8_t>{1, 0, 1}, {3}, dtypes::bool_);
  EXPECT_EQ(ints(verified(bo.minimum(bo2))), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(ints(bo.maximum(bo2)), (std::vector<int64_t>{1, 1, 1}));
}

TEST(TensorCompare, GiveBoolWithTheSpecNodes) {
  Tensor a = data({2}), b = data({2}, dtypes::int32);
  struct Case { Tensor t; Ops op; };
  // float le/ge are (a < b) | (a == b): the spec's NOT(CMPLT) would be true for NaN (see le_ge below)
  for (auto [t, op] : {Case{a.lt(b), Ops::CMPLT}, Case{a.gt(b), Ops::CMPGT}, Case{a.eq(b), Ops::CMPEQ},
                       Case{a.ne(b), Ops::CMPNE}, Case{a < b, Ops::CMPLT}, Case{a > b, Ops::CMPGT}}) {
    verified(t);
    EXPECT_EQ(t.uop()->op, op);
    EXPECT_EQ(t.dtype(), dtypes::bool_);
    EXPECT_EQ(t.uop()->src[0]->dtype, dtypes::float32);  // compared in the promoted dtype
  }
  EXPECT_EQ(ints(int32s({1, 2, 3}, {3}).ge(int32s({2, 2, 2}, {3}))), (std::vector<int64_t>{0, 1, 1}));
  // le_ge: ints keep the spec's CMPLE/CMPGE; floats compose from CMPLT and CMPEQ
  EXPECT_EQ(int32s({1}, {1}).ge(int32s({2}, {1})).uop()->op, Ops::CMPGE);
  EXPECT_EQ(int32s({1}, {1}).le(int32s({2}, {1})).uop()->op, Ops::CMPLE);
  for (const Tensor& t : {a.le(b), a.ge(b)}) {
    verified(t);
    EXPECT_EQ(t.uop()->op, Ops::OR);
    EXPECT_EQ(t.uop()->src[0]->op, Ops::CMPLT);
    EXPECT_EQ(t.uop()->src[1]->op, Ops::CMPEQ);
  }
}

TEST(TensorBitwise, IntsAndBoolOnly) {
  Tensor i = data({2}, dtypes::int32), f = data({2});
  EXPECT_EQ(verified(i.bitwise_and(i)).uop()->op, Ops::AND);
  EXPECT_EQ(verified(i.bitwise_or(i)).uop()->op, Ops::OR);
  EXPECT_EQ(verified(i.bitwise_xor(i)).uop()->op, Ops::XOR);
  EXPECT_EQ(verified(data({2}, dtypes::bool_).bitwise_and(data({2}, dtypes::bool_))).dtype(), dtypes::bool_);
  EXPECT_EQ(verified(i.lshift(data({2}, dtypes::uint8))).uop()->op, Ops::SHL);
  EXPECT_EQ(verified(i.rshift(i)).uop()->op, Ops::SHR);
  EXPECT_THROW_MSG(f.bitwise_and(f), DTypeError, "bitwise_and: not supported for float32");
  EXPECT_THROW_MSG(i.bitwise_or(f), DTypeError, "bitwise_or: not supported for float32");
  EXPECT_THROW_MSG(data({2}, dtypes::float16).bitwise_xor(data({2}, dtypes::float16)), DTypeError,
                   "bitwise_xor: not supported for float16");
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).lshift(data({2}, dtypes::bool_)), DTypeError, "lshift: not supported for bool");
  EXPECT_THROW_MSG(f.rshift(i), DTypeError, "rshift: not supported for float32");
  EXPECT_THROW_MSG(f.bitwise_not(), DTypeError, "bitwise_not: not supported for float32");
  EXPECT_EQ(ints(verified(int32s({0, 5, -1}, {3}).bitwise_not())), (std::vector<int64_t>{-1, -6, 0}));
  EXPECT_EQ(ints(Tensor::from_vector(std::vector<uint8_t>{0, 5}, {2}, dtypes::uint8).bitwise_not()),
            (std::vector<int64_t>{255, 250}));
}

TEST(TensorWhere, CastsConditionPromotesAndBroadcasts) {
  Tensor c = data({2, 1}, dtypes::int32), a = data({3}, dtypes::int16), b = data({}, dtypes::float16);
  Tensor w = verified(c.where(a, b));
  ASSERT_EQ(w.uop()->op, Ops::WHERE);
  EXPECT_EQ(w.shape(), (Dims{2, 3}));
  EXPECT_EQ(w.dtype(), dtypes::float16);
  EXPECT_EQ(w.uop()->src[0]->dtype, dtypes::bool_);
  expect_uniform_sources(w);
  EXPECT_EQ(ints(int32s({0, 2}, {2}).where(int32s({1, 1}, {2}), int32s({9, 9}, {2}))), (std::vector<int64_t>{9, 1}));
}

TEST(TensorUnary, TranscendentalsUseDecomposedNodes) {
  Tensor x = data({3});
  Tensor e = verified(x.exp());
  ASSERT_EQ(e.uop()->op, Ops::EXP2);
  EXPECT_EQ(e.uop()->src[0]->op, Ops::MUL);
  Tensor l = verified(x.log());
  ASSERT_EQ(l.uop()->op, Ops::MUL);
  EXPECT_EQ(l.uop()->src[0]->op, Ops::LOG2);
  EXPECT_EQ(verified(x.exp2()).uop()->op, Ops::EXP2);
  EXPECT_EQ(verified(x.log2()).uop()->op, Ops::LOG2);
  EXPECT_EQ(verified(x.sqrt()).uop()->op, Ops::SQRT);
  EXPECT_EQ(verified(x.sin()).uop()->op, Ops::SIN);
  EXPECT_EQ(verified(x.recip()).uop()->op, Ops::RECIP);
  EXPECT_EQ(verified(x.trunc()).uop()->op, Ops::TRUNC);
  // Ints become float32 first; float16 stays float16.
  EXPECT_EQ(verified(data({3}, dtypes::int32).exp()).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({3}, dtypes::bool_).sqrt()).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({3}, dtypes::int8).recip()).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({3}, dtypes::float16).log()).dtype(), dtypes::float16);
  auto near = [](std::vector<double> got, std::vector<double> want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], 1e-5 * std::abs(want[i]) + 1e-6);
  };
  near(values(floats({0, 1, -2}, {3}).exp()), {1, std::exp(1.0), std::exp(-2.0)});
  near(values(floats({1, 10, 0.5f}, {3}).log()), {0, std::log(10.0), std::log(0.5)});
}

TEST(TensorUnary, IntegerIdentitiesEmitNothing) {
  Tensor i = data({2}, dtypes::int32);
  EXPECT_EQ(i.trunc().uop(), i.uop());
  Tensor u = data({2}, dtypes::uint16);
  EXPECT_EQ(u.abs().uop(), u.uop());
}

TEST(TensorUnary, ReluAbsNot) {
  // MAX(x, 0), tagged for autograd's one-sided rule (gradient.h)
  EXPECT_EQ(verified(data({2}).relu()).uop()->op, Ops::MAX);
  EXPECT_EQ(data({2}).relu().uop()->tag, kReluMaxTag);
  EXPECT_EQ(values(floats({-1, 2}, {2}).relu()), (std::vector<double>{0, 2}));
  EXPECT_EQ(values(verified(floats({-1.5f, 2}, {2}).abs())), (std::vector<double>{1.5, 2}));
  EXPECT_EQ(ints(int32s({-3, 4}, {2}).abs()), (std::vector<int64_t>{3, 4}));
  Tensor n = verified(int32s({0, 3}, {2}).logical_not());
  EXPECT_EQ(n.uop()->op, Ops::NOT);
  EXPECT_EQ(n.dtype(), dtypes::bool_);
  EXPECT_EQ(ints(n), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(ints(n.bitwise_not()), (std::vector<int64_t>{0, 1}));
}

TEST(TensorPow, FloatsFixTheSpecDecompositionForNegativeBases) {
  Tensor a = floats({2, -2, -2, -2, 0, 0, 4, 3, -8}, {9});
  Tensor b = floats({3, 3, 2, 0.5f, 0, 2, -0.5f, 0, 1}, {9});
  Tensor p = verified(a.pow(b));
  EXPECT_EQ(p.dtype(), dtypes::float32);
  EXPECT_EQ(count_op(p, Ops::POW), 1u);
  auto v = values(p);
  std::vector<double> want{8, -8, 4, NAN, 1, 0, 0.5, 1, -8};
  ASSERT_EQ(v.size(), want.size());
  for (size_t i = 0; i < v.size(); i++) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(v[i])) << i;
    else EXPECT_NEAR(v[i], want[i], 1e-5) << i;
  }
}

TEST(TensorPow, IntsAreExactBySquaring) {
  Tensor a = int32s({3, -2, 2, 1, -1, 5, 0, 7}, {8}), b = int32s({4, 3, -1, -3, -3, 0, 0, 1}, {8});
  Tensor p = verified(a.pow(b));
  EXPECT_EQ(p.dtype(), dtypes::int32);
  EXPECT_EQ(count_op(p, Ops::POW), 0u);
  EXPECT_EQ(ints(p), (std::vector<int64_t>{81, -8, 0, 1, -1, 1, 1, 7}));
  Tensor u = Tensor::from_vector(std::vector<uint8_t>{3, 2}, {2}, dtypes::uint8);
  EXPECT_EQ(ints(u.pow(Tensor::from_vector(std::vector<uint8_t>{5, 9}, {2}, dtypes::uint8))),
            (std::vector<int64_t>{243, 0}));  // 2**9 wraps to 0 in uint8
  EXPECT_THROW_MSG(data({2}, dtypes::bool_).pow(data({2}, dtypes::bool_)), DTypeError, "pow: not supported for bool");
}
