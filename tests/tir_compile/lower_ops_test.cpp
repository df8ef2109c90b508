// TIR's operators lowered to UOps (tir_compile/lower_ops.h), run in a compiled kernel over every
// pair of interesting values of each type, against the interpreter's apply_binary: exact for every
// lane, except that an integer division by zero, an error in the interpreter, gives 0.
#include <gtest/gtest.h>

#include "lower_ops_test_util.h"
#include "tir/interpret/interpret_arith.h"
#include "tir/interpret/interpret_errors.h"
#include "tir_compile/not_lowerable.h"

using namespace onegrad;
using namespace onegrad::tir;
using namespace onegrad::tir::testing;

namespace {

const std::vector<DataType> kTypes = lowerable_types();

const std::vector<ExprKind> kArith = {ExprKind::Add, ExprKind::Sub,      ExprKind::Mul,      ExprKind::Div, ExprKind::Mod,
                                      ExprKind::FloorDiv, ExprKind::FloorMod, ExprKind::Min, ExprKind::Max};
const std::vector<ExprKind> kCompare = {ExprKind::EQ, ExprKind::NE, ExprKind::LT, ExprKind::LE, ExprKind::GE, ExprKind::GT};

bool is_division(ExprKind k) {
  return k == ExprKind::Div || k == ExprKind::Mod || k == ExprKind::FloorDiv || k == ExprKind::FloorMod;
}

// Every pair (a, b) of the type's interesting values: the lanes of the two inputs.
std::pair<std::vector<RuntimeValue>, std::vector<RuntimeValue>> all_pairs(DataType t) {
  std::vector<RuntimeValue> vals = interesting_values(t), as, bs;
  for (const RuntimeValue& a : vals)
    for (const RuntimeValue& b : vals) {
      as.push_back(a);
      bs.push_back(b);
    }
  return {as, bs};
}

}  // namespace

TEST(LowerOps, BinaryAndCompareMatchTheInterpreterForEveryType) {
  for (DataType t : kTypes) {
    SCOPED_TRACE(t.name());
    auto [as, bs] = all_pairs(t);
    std::vector<ExprKind> kinds = kCompare;
    if (!t.is_bool()) kinds.insert(kinds.begin(), kArith.begin(), kArith.end());
    std::vector<LaneOutput> outs;
    for (ExprKind k : kinds)
      outs.push_back({is_cmp_op(k) ? DataType::bool_() : t,
                      [k, t](const std::vector<UOpRef>& in) { return lower_binary(k, in[0], in[1], t); }});
    auto got = run_lanes({as, bs}, outs);
    for (size_t o = 0; o < kinds.size(); ++o)
      for (size_t i = 0; i < as.size(); ++i) {
        const ExprKind k = kinds[o];
        const std::string what = std::string(expr_kind_name(k)) + "(" + show(as[i]) + ", " + show(bs[i]) + ")";
        if (!t.is_float() && is_division(k) && bs[i].ints[0] == 0) {
          // the interpreter raises; compiled code gives 0 (docs/tir.md, "Compiling: scalar semantics")
          EXPECT_THROW(apply_binary(k, as[i], bs[i], 1), TirDivisionByZero) << what;
          EXPECT_EQ(got[o][i].ints[0], 0) << what;
          continue;
        }
        RuntimeValue want = apply_binary(k, as[i], bs[i], 1);
        EXPECT_TRUE(same_value(got[o][i], want)) << what << ": compiled " << show(got[o][i]) << ", interpreted " << show(want);
      }
  }
}

TEST(LowerOps, AndOrNotSelectOnBools) {
  const DataType b = DataType::bool_(), i32 = DataType::int_(32);
  std::vector<RuntimeValue> as, bs, xs;
  for (int x = 0; x < 2; ++x)
    for (int y = 0; y < 2; ++y) {
      as.push_back(RuntimeValue::of_int(b, x));
      bs.push_back(RuntimeValue::of_int(b, y));
      xs.push_back(RuntimeValue::of_int(i32, 10 * x + y - 3));
    }
  auto got = run_lanes({as, bs, xs},
                       {{b, [&](const auto& in) { return lower_binary(ExprKind::And, in[0], in[1], b); }},
                        {b, [&](const auto& in) { return lower_binary(ExprKind::Or, in[0], in[1], b); }},
                        {b, [&](const auto& in) { return lower_not(in[0]); }},
                        {b, [&](const auto& in) { return lower_not(in[2]); }},  // an int: C's !x
                        {i32, [&](const auto& in) { return lower_select(in[0], in[2], lower_int_const(7, i32)); }},
                        {i32, [&](const auto& in) { return lower_select(in[2], lower_int_const(1, i32), lower_int_const(2, i32)); }}});
  for (size_t i = 0; i < as.size(); ++i) {
    int64_t x = as[i].ints[0], y = bs[i].ints[0], v = xs[i].ints[0];
    EXPECT_EQ(got[0][i].ints[0], x && y);
    EXPECT_EQ(got[1][i].ints[0], x || y);
    EXPECT_EQ(got[2][i].ints[0], !x);
    EXPECT_EQ(got[3][i].ints[0], !v);
    EXPECT_EQ(got[4][i].ints[0], x ? v : 7);
    EXPECT_EQ(got[5][i].ints[0], v ? 1 : 2);
  }
}

// Literals are the interpreter's values of their type: wrapped ints, rounded floats, and float
// literals of an int type converted as a cast is.
TEST(LowerOps, ConstantsHoldTheInterpretersValues) {
  const DataType u8 = DataType::uint(8), i64 = DataType::int_(64), u64 = DataType::uint(64), f16 = DataType::float_(16);
  EXPECT_EQ(lower_int_const(300, u8), UOp::const_int(dtypes::uint8, 44));
  EXPECT_EQ(lower_int_const(-1, u64), UOp::const_int(dtypes::uint64, i128(UINT64_MAX)));
  EXPECT_EQ(lower_int_const(-5, i64), UOp::const_int(dtypes::int64, -5));
  EXPECT_EQ(lower_float_const(1e30, i64), UOp::const_int(dtypes::int64, INT64_MAX));
  EXPECT_EQ(lower_float_const(-2.7, DataType::int_(8)), UOp::const_int(dtypes::int8, -2));
  EXPECT_EQ(lower_float_const(0.1, f16), UOp::const_float(dtypes::float16, double(_Float16(0.1))));
  EXPECT_EQ(lower_int_const(3, DataType::float_(32)), UOp::const_float(dtypes::float32, 3.0));
  EXPECT_EQ(lower_int_const(3, DataType::int_(32, 4)), UOp::const_int(dtypes::int32, 3));  // lanes ignored
}

TEST(LowerOps, TypesWithoutAUOpTypeAreNotLowerable) {
  EXPECT_EQ(uop_dtype(DataType::bool_(8)), dtypes::bool_);
  EXPECT_EQ(uop_dtype({DataType::Code::BFloat, 16, 1}), dtypes::bfloat16);
  for (DataType t : {DataType::int_(4), DataType::float_(8), DataType::uint(2), DataType::handle()}) {
    try {
      uop_dtype(t, 12);
      ADD_FAILURE() << t.name() << " was accepted";
    } catch (const TirNotLowerable& e) {
      EXPECT_EQ(e.line, 12);
      EXPECT_EQ(e.construct, t.name());
      EXPECT_NE(std::string(e.what()).find("line 12: " + t.name() + " cannot be compiled"), std::string::npos) << e.what();
    }
  }
  try {
    lower_binary(ExprKind::And, UOp::const_int(dtypes::int32, 1), UOp::const_int(dtypes::int32, 1), DataType::int_(32), 5);
    ADD_FAILURE() << "And of ints was accepted";
  } catch (const TirNotLowerable& e) {
    EXPECT_NE(std::string(e.what()).find("line 5: And cannot be compiled: operands of int32, not bool"), std::string::npos)
        << e.what();
  }
}

// With a literal operand the simplifier folds and rewrites the lowered graph (x // 1, x % -1,
// comparisons with constants, whole constant expressions): the results must not change.
TEST(LowerOps, LiteralOperandsGiveTheSameResults) {
  for (DataType t : {DataType::int_(8), DataType::int_(64), DataType::uint(64), DataType::float_(32), DataType::float_(16)}) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> vals = interesting_values(t);
    std::vector<ExprKind> kinds = kArith;
    kinds.insert(kinds.end(), kCompare.begin(), kCompare.end());
    std::vector<LaneOutput> outs;
    std::vector<std::tuple<ExprKind, RuntimeValue, bool>> what;  // kind, literal, literal on the left
    for (ExprKind k : kinds)
      for (const RuntimeValue& c : vals)
        for (bool left : {false, true}) {
          UOpRef lit = t.is_float() ? lower_float_const(c.floats[0], t) : lower_int_const(c.ints[0], t);
          outs.push_back({is_cmp_op(k) ? DataType::bool_() : t, [k, t, lit, left](const std::vector<UOpRef>& in) {
                            return left ? lower_binary(k, lit, in[0], t) : lower_binary(k, in[0], lit, t);
                          }});
          what.emplace_back(k, c, left);
        }
    auto got = run_lanes({vals}, outs);
    for (size_t o = 0; o < outs.size(); ++o)
      for (size_t i = 0; i < vals.size(); ++i) {
        auto [k, c, left] = what[o];
        const RuntimeValue &a = left ? c : vals[i], &b = left ? vals[i] : c;
        const std::string desc = std::string(expr_kind_name(k)) + "(" + show(a) + ", " + show(b) + ")";
        if (!t.is_float() && is_division(k) && b.ints[0] == 0) {
          EXPECT_EQ(got[o][i].ints[0], 0) << desc;
          continue;
        }
        RuntimeValue want = apply_binary(k, a, b, 1);
        EXPECT_TRUE(same_value(got[o][i], want)) << desc << ": compiled " << show(got[o][i]) << ", interpreted " << show(want);
      }
  }
}
