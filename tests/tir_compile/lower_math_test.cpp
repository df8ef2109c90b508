// The builtins lowered to UOps (lower_builtin) against the interpreter's apply_builtin, lane by
// lane in a compiled kernel. Integer builtins and the exact float ones (fabs, floor, round, fmod,
// copysign, nextafter, isnan...) must match exactly; the transcendental ones within the ulps of
// kFloat64Ulps for float64 (they are compositions of libm's exp2, log2, sin, pow) and 1 ulp for the
// narrower types (computed in float64 and rounded once, as the interpreter does), except exp and
// sigmoid there, which are the interpreter's bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "lower_ops_test_util.h"
#include "tir/interpret/interpret_builtin.h"
#include "tir_compile/not_lowerable.h"

using namespace onegrad;
using namespace onegrad::tir;
using namespace onegrad::tir::testing;

namespace {

const DataType kBF16{DataType::Code::BFloat, 16, 1};
const std::vector<DataType> kFloatTypes = {DataType::float_(16), kBF16, DataType::float_(32), DataType::float_(64)};
const std::vector<DataType> kIntTypes = {DataType::bool_(), DataType::int_(8),  DataType::int_(16), DataType::int_(32),
                                         DataType::int_(64), DataType::uint(8), DataType::uint(16), DataType::uint(32),
                                         DataType::uint(64)};

// The documented float64 tolerance of each lowered builtin in ulps (docs/tir.md, "Compiling:
// scalar semantics"); 0 is exact. Narrower float types: at most 1 ulp for all of them.
const std::map<std::string, double> kFloat64Ulps = {
    {"tir.exp", 2},   {"tir.exp2", 0},    {"tir.exp10", 2},   {"tir.log", 2},      {"tir.log2", 0},   {"tir.log10", 2},
    {"tir.log1p", 4}, {"tir.expm1", 4},   {"tir.sqrt", 0},    {"tir.rsqrt", 0},    {"tir.sin", 0},    {"tir.cos", 4},
    {"tir.tan", 4},   {"tir.sinh", 6},    {"tir.cosh", 4},    {"tir.tanh", 6},     {"tir.asinh", 6},  {"tir.acosh", 6},
    {"tir.atanh", 6}, {"tir.sigmoid", 3}, {"tir.fabs", 0},    {"tir.floor", 0},    {"tir.ceil", 0},   {"tir.trunc", 0},
    {"tir.round", 0}, {"tir.nearbyint", 0}, {"tir.pow", 0},   {"tir.fmod", 0},     {"tir.hypot", 2},  {"tir.copysign", 0},
    {"tir.nextafter", 0}, {"tir.atan", 3}, {"tir.asin", 4}, {"tir.acos", 3}, {"tir.atan2", 4}, {"tir.erf", 5},
};

std::vector<RuntimeValue> math_inputs(DataType t) {
  std::vector<RuntimeValue> out = interesting_values(t);
  for (double v : {1e-300, 1e-20, 1e-8, 1e-5, 1e-3, 0.01, 0.2, 0.3, 0.7, 0.9, 0.99, 1.01, 1.1, 1.5707963267948966, 2.0,
                   3.14159265358979, 4.0, 5.0, 10.0, 19.9, 20.5, 21.0, 30.0, 50.0, 88.0, 89.0, 700.0, 709.7, 710.3, 1000.0,
                   1e5, 12345.678, 1e15, 1e22, 2.5e8, 1e300})
    for (double s : {1.0, -1.0}) out.push_back(RuntimeValue::of_float(t, s * v));
  return out;
}

bool exact_everywhere(const std::string& op) { return kFloat64Ulps.at(op) == 0 && op != "tir.pow"; }

void expect_close(const std::string& op, const RuntimeValue& got, const RuntimeValue& want, DataType t,
                  const std::string& args, double& worst) {
  double tol = t.bits == 64 && t.code == DataType::Code::Float ? kFloat64Ulps.at(op) : exact_everywhere(op) ? 0 : 1;
  double d = ulp_distance(got.floats[0], want.floats[0], t);
  if (d < 1e30) worst = std::max(worst, d);
  if (tol == 0) EXPECT_TRUE(same_value(got, want)) << op << args << ": compiled " << show(got) << ", interpreted " << show(want);
  else EXPECT_LE(d, tol) << op << args << " (" << t.name() << "): compiled " << show(got) << ", interpreted " << show(want);
}

const std::vector<std::string> kUnary = {"tir.exp",   "tir.exp2",    "tir.exp10", "tir.log",       "tir.log2",
                                         "tir.log10", "tir.log1p",   "tir.expm1", "tir.sqrt",      "tir.rsqrt",
                                         "tir.sin",   "tir.cos",     "tir.tan",   "tir.sinh",      "tir.cosh",
                                         "tir.tanh",  "tir.asinh",   "tir.acosh", "tir.atanh",     "tir.sigmoid",
                                         "tir.fabs",  "tir.floor",   "tir.ceil",  "tir.trunc",     "tir.round",
                                         "tir.nearbyint", "tir.atan", "tir.asin", "tir.acos", "tir.erf"};
const std::vector<std::string> kBinary = {"tir.pow", "tir.fmod", "tir.hypot", "tir.copysign", "tir.nextafter", "tir.atan2"};

}  // namespace

TEST(LowerMath, UnaryBuiltinsMatchTheInterpreter) {
  for (DataType t : kFloatTypes) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> in = math_inputs(t);
    std::vector<LaneOutput> outs;
    for (const std::string& op : kUnary)
      outs.push_back({t, [op, t](const std::vector<UOpRef>& x) { return lower_builtin(op, {x[0]}, {t}, t); }});
    auto got = run_lanes({in}, outs);
    for (size_t o = 0; o < kUnary.size(); ++o) {
      double worst = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        // cos and tan of |x| > 2^1020 have an absolute, not a relative, error bound (docs/tir.md)
        if ((kUnary[o] == "tir.cos" || kUnary[o] == "tir.tan") && std::fabs(in[i].floats[0]) > 0x1p1020) continue;
        expect_close(kUnary[o], got[o][i], apply_builtin(kUnary[o], {in[i]}, t, 1), t, "(" + show(in[i]) + ")", worst);
      }
      std::printf("%-14s %-9s worst %.2f ulp\n", kUnary[o].c_str(), t.name().c_str(), worst);
    }
  }
}

TEST(LowerMath, BinaryBuiltinsMatchTheInterpreter) {
  for (DataType t : kFloatTypes) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> vals = interesting_values(t), as, bs;
    for (double v : {2.0, -2.0, 3.0, -3.0, 0.25, 1e300, 1e-300, 4.5, -4.5})
      vals.push_back(RuntimeValue::of_float(t, v));
    for (const RuntimeValue& a : vals)
      for (const RuntimeValue& b : vals) {
        as.push_back(a);
        bs.push_back(b);
      }
    std::vector<LaneOutput> outs;
    for (const std::string& op : kBinary)
      outs.push_back({t, [op, t](const std::vector<UOpRef>& x) { return lower_builtin(op, {x[0], x[1]}, {t, t}, t); }});
    auto got = run_lanes({as, bs}, outs);
    for (size_t o = 0; o < kBinary.size(); ++o) {
      double worst = 0;
      for (size_t i = 0; i < as.size(); ++i)
        expect_close(kBinary[o], got[o][i], apply_builtin(kBinary[o], {as[i], bs[i]}, t, 1), t,
                     "(" + show(as[i]) + ", " + show(bs[i]) + ")", worst);
      std::printf("%-14s %-9s worst %.2f ulp\n", kBinary[o].c_str(), t.name().c_str(), worst);
    }
  }
}

TEST(LowerMath, ClassifyingBuiltinsGiveBools) {
  for (DataType t : kFloatTypes) {
    std::vector<RuntimeValue> in = interesting_values(t);
    std::vector<LaneOutput> outs;
    const std::vector<std::string> ops = {"tir.isnan", "tir.isinf", "tir.isfinite"};
    for (const std::string& op : ops)
      outs.push_back({DataType::bool_(), [op, t](const auto& x) { return lower_builtin(op, {x[0]}, {t}, DataType::bool_()); }});
    auto got = run_lanes({in}, outs);
    for (size_t o = 0; o < ops.size(); ++o)
      for (size_t i = 0; i < in.size(); ++i)
        EXPECT_EQ(got[o][i].ints[0], apply_builtin(ops[o], {in[i]}, DataType::bool_(), 1).ints[0]) << ops[o] << "(" << show(in[i]) << ")";
  }
  // of an integer: a constant
  EXPECT_EQ(lower_builtin("tir.isnan", {UOp::const_int(dtypes::int32, 3)}, {DataType::int_(32)}, DataType::bool_()),
            UOp::const_bool(false));
  EXPECT_EQ(lower_builtin("tir.isfinite", {UOp::const_int(dtypes::int32, 3)}, {DataType::int_(32)}, DataType::bool_()),
            UOp::const_bool(true));
}

// popcount, clz, the bitwise operations and the shifts of every integer type, with shift amounts
// of every sign and size (of another type too), exactly as the interpreter.
TEST(LowerMath, IntegerBuiltinsMatchTheInterpreter) {
  const std::vector<std::string> unary = {"tir.popcount", "tir.clz", "tir.bitwise_not"};
  const std::vector<std::string> binary = {"tir.bitwise_and", "tir.bitwise_or", "tir.bitwise_xor", "tir.shift_left",
                                           "tir.shift_right"};
  for (DataType t : kIntTypes) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> vals = interesting_values(t), as, bs, amounts;
    const DataType amount_type = DataType::int_(32);
    std::vector<int64_t> amount_values = {0, 1, 3, 7, 8, 15, 16, 31, 32, 63, 64, 65, -1, 200};
    for (const RuntimeValue& a : vals)
      for (size_t k = 0; k < vals.size(); ++k) {
        as.push_back(a);
        bs.push_back(vals[k]);
        amounts.push_back(RuntimeValue::of_int(amount_type, amount_values[k % amount_values.size()]));
      }
    std::vector<LaneOutput> outs;
    for (const std::string& op : unary)
      outs.push_back({t, [op, t](const auto& x) { return lower_builtin(op, {x[0]}, {t}, t); }});
    for (const std::string& op : binary)
      outs.push_back({t, [op, t](const auto& x) { return lower_builtin(op, {x[0], x[1]}, {t, t}, t); }});
    for (const std::string& op : {std::string("tir.shift_left"), std::string("tir.shift_right")})
      outs.push_back({t, [op, t, amount_type](const auto& x) { return lower_builtin(op, {x[0], x[2]}, {t, amount_type}, t); }});
    auto got = run_lanes({as, bs, amounts}, outs);
    for (size_t i = 0; i < as.size(); ++i) {
      size_t o = 0;
      for (const std::string& op : unary) {
        RuntimeValue want = apply_builtin(op, {as[i]}, t, 1);
        EXPECT_EQ(got[o++][i].ints[0], want.ints[0]) << op << "(" << show(as[i]) << ")";
      }
      for (const std::string& op : binary) {
        RuntimeValue want = apply_builtin(op, {as[i], bs[i]}, t, 1);
        EXPECT_EQ(got[o++][i].ints[0], want.ints[0]) << op << "(" << show(as[i]) << ", " << show(bs[i]) << ")";
      }
      for (const std::string& op : {std::string("tir.shift_left"), std::string("tir.shift_right")}) {
        RuntimeValue want = apply_builtin(op, {as[i], amounts[i]}, t, 1);
        EXPECT_EQ(got[o++][i].ints[0], want.ints[0]) << op << "(" << show(as[i]) << ", " << show(amounts[i]) << ")";
      }
    }
  }
}

TEST(LowerMath, BadBuiltinCallsNameTheOp) {
  const UOpRef x = UOp::const_float(dtypes::float32, 0.5);
  const DataType f32 = DataType::float_(32);
  auto message = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const TirNotLowerable& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { lower_builtin("tir.atan2", {x}, {f32}, f32, 3); }),
            "line 3: tir.atan2 cannot be compiled: takes 2 arguments, got 1");
  EXPECT_EQ(message([&] { lower_builtin("tir.popcount", {x}, {f32}, f32, 4); }),
            "line 4: tir.popcount cannot be compiled: of float32: integers only");
  EXPECT_EQ(message([&] { lower_builtin("tir.exp", {UOp::const_int(dtypes::int32, 1)}, {DataType::int_(32)}, DataType::int_(32), 2); }),
            "line 2: tir.exp cannot be compiled: of int32: float operands only");
  EXPECT_EQ(message([&] { lower_builtin("tir.call_extern", {x}, {f32}, f32, 7); }),
            "line 7: tir.call_extern cannot be compiled: not a pure builtin the compiled code knows");
  EXPECT_EQ(message([&] { lower_builtin("tir.exp", {x}, {f32, f32}, f32, 1); }),
            "line 1: tir.exp cannot be compiled: takes its arguments with their types (1 arguments, 2 types)");
}

// A seeded sweep over many magnitudes for float64 and float32 (a few thousand arguments each),
// where the fixed grid above could miss a cancellation or a badly reduced argument.
TEST(LowerMath, RandomArgumentsStayWithinTheTolerances) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-40, 40), near(-12, 12), sign(-1, 1);
  for (DataType t : {DataType::float_(32), DataType::float_(64)}) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> in, second;
    for (int i = 0; i < 3000; ++i) {
      double v = i % 2 ? std::exp(exponent(rng)) : near(rng);
      in.push_back(RuntimeValue::of_float(t, sign(rng) < 0 ? -v : v));
      second.push_back(RuntimeValue::of_float(t, i % 3 ? near(rng) : std::round(near(rng))));
    }
    std::vector<LaneOutput> outs;
    for (const std::string& op : kUnary)
      outs.push_back({t, [op, t](const std::vector<UOpRef>& x) { return lower_builtin(op, {x[0]}, {t}, t); }});
    for (const std::string& op : kBinary)
      outs.push_back({t, [op, t](const std::vector<UOpRef>& x) { return lower_builtin(op, {x[0], x[1]}, {t, t}, t); }});
    auto got = run_lanes({in, second}, outs);
    for (size_t o = 0; o < outs.size(); ++o) {
      const bool unary = o < kUnary.size();
      const std::string& op = unary ? kUnary[o] : kBinary[o - kUnary.size()];
      double worst = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        std::vector<RuntimeValue> args = unary ? std::vector<RuntimeValue>{in[i]} : std::vector<RuntimeValue>{in[i], second[i]};
        expect_close(op, got[o][i], apply_builtin(op, args, t, 1), t,
                     "(" + show(in[i]) + (unary ? "" : ", " + show(second[i])) + ")", worst);
      }
      std::printf("random %-14s %-8s worst %.2f ulp\n", op.c_str(), t.name().c_str(), worst);
    }
  }
}

// float32/float16/bfloat16 exp and sigmoid use the branch-free float64 exp, not a float64 EXP2 that
// the backend renders as a libm call; float64 exp keeps the libm EXP2 (the polynomial does not round
// as libm's exp does in float64).
TEST(LowerMath, NarrowExpHasNoLibmCall) {
  auto float64_exp2s = [](const UOpRef& g) {
    int n = 0;
    for (const UOp* u : g->toposort()) n += u->op == Ops::EXP2 && u->dtype == dtypes::float64;
    return n;
  };
  for (DataType t : {DataType::float_(32), DataType::float_(16), kBF16})
    for (const char* op : {"tir.exp", "tir.sigmoid"}) {
      UOpRef x = UOp::const_float(uop_dtype(t), 0.5);
      EXPECT_EQ(float64_exp2s(lower_builtin(op, {x}, {t}, t)), 0) << op << " " << t.name();
    }
  const DataType f64 = DataType::float_(64);
  EXPECT_EQ(float64_exp2s(lower_builtin("tir.exp", {UOp::const_float(dtypes::float64, 0.5)}, {f64}, f64)), 1);
}

namespace {

// Every float32 argument class of exp: a dense sweep of [-20, 20], the results that underflow into
// the subnormals (x in [-104, -87.3]) and those that overflow ([88, 89]), random bit patterns
// (huge, tiny, NaN) and the boundaries themselves.
std::vector<RuntimeValue> exp_arguments_f32() {
  const DataType f32 = DataType::float_(32);
  std::vector<RuntimeValue> out;
  auto add = [&](float v) { out.push_back(RuntimeValue::of_float(f32, v)); };
  const int dense = 1 << 20;
  for (int i = 0; i <= dense; ++i) add(float(-20.0 + 40.0 * i / dense));
  for (int i = 0; i <= 100000; ++i) add(float(-104.0 + (104.0 - 87.3) * i / 100000));
  for (int i = 0; i <= 20000; ++i) add(float(88.0 + 1.0 * i / 20000));
  std::mt19937 rng(11);
  for (int i = 0; i < 200000; ++i) {
    uint32_t bits = rng();
    float v;
    std::memcpy(&v, &bits, 4);
    add(v);
  }
  for (float v : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 0x1p-149f, -0x1p-149f, 0x1p-126f, 3.4028235e38f, -3.4028235e38f,
                  88.72283935546875f, 88.72284f, -87.33654f, -103.97208f, -103.27893f, 1e-8f, -1e-8f})
    add(v);
  return out;
}

// Every value of a 16-bit float type.
std::vector<RuntimeValue> every_value(DataType t) {
  std::vector<RuntimeValue> out;
  for (uint32_t b = 0; b < 0x10000; ++b)
    out.push_back(RuntimeValue::of_float(t, t.code == DataType::Code::BFloat ? bfloat16_bits_to_float(uint16_t(b))
                                                                              : half_bits_to_float(uint16_t(b))));
  return out;
}

}  // namespace

// The narrow exp and sigmoid round what the interpreter rounds: bit for bit equal to it (NaN as
// NaN) on about 1.4 million float32 arguments and on every float16 and bfloat16 value.
TEST(LowerMath, NarrowExpAndSigmoidAreTheInterpretersBitForBit) {
  for (DataType t : {DataType::float_(32), DataType::float_(16), kBF16}) {
    SCOPED_TRACE(t.name());
    std::vector<RuntimeValue> in = t.bits == 32 ? exp_arguments_f32() : every_value(t);
    const std::vector<std::string> ops = {"tir.exp", "tir.sigmoid"};
    std::vector<LaneOutput> outs;
    for (const std::string& op : ops)
      outs.push_back({t, [op, t](const std::vector<UOpRef>& x) { return lower_builtin(op, {x[0]}, {t}, t); }});
    auto got = run_lanes({in}, outs);
    for (size_t o = 0; o < ops.size(); ++o) {
      size_t differ = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        RuntimeValue want = apply_builtin(ops[o], {in[i]}, t, 1);
        if (same_value(got[o][i], want)) continue;
        if (++differ <= 5) ADD_FAILURE() << ops[o] << "(" << show(in[i]) << "): compiled " << show(got[o][i]) << ", interpreted " << show(want);
      }
      EXPECT_EQ(differ, 0u) << ops[o] << " of " << in.size() << " arguments";
      std::printf("%-12s %-9s %zu arguments, %zu differ\n", ops[o].c_str(), t.name().c_str(), in.size(), differ);
    }
  }
}
