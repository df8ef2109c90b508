// Every dtype through the C renderer, checked against the reference semantics of the uop layer:
// casts against cast_value, integer and float ops against exec_alu (the constant folder, which
// defines what a kernel of each dtype computes: wraparound, floor division, division by zero
// giving 0, shifts by any amount, NaN-propagating max, float16/bfloat16 rounding after every op).
// One kernel per dtype computes every op over a grid of operand pairs, so few compiles cover all.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "codegen/isel.h"
#include "render_test_util.h"
#include "uop/exec_alu.h"
#include "uop/ops.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

const std::vector<DType> kMemoryTypes = {dtypes::bool_,  dtypes::int8,    dtypes::int16,  dtypes::int32,  dtypes::int64,
                                         dtypes::uint8,  dtypes::uint16,  dtypes::uint32, dtypes::uint64, dtypes::float16,
                                         dtypes::bfloat16, dtypes::float32, dtypes::float64};
const std::vector<DType> kIntTypes = {dtypes::int8,  dtypes::int16,  dtypes::int32,  dtypes::int64,
                                      dtypes::uint8, dtypes::uint16, dtypes::uint32, dtypes::uint64};
const std::vector<DType> kFloatTypes = {dtypes::float16, dtypes::bfloat16, dtypes::float32, dtypes::float64};

ConstValue I(i128 v) { return ConstValue::from_int(v); }
ConstValue F(double v) { return ConstValue::from_float(v); }

// Values worth converting from: edges of every integer range, halfway cases, float specials.
std::vector<ConstValue> cast_inputs(DType dt) {
  std::vector<ConstValue> raw = {I(0), I(1), I(-1), I(2), I(-2), I(7), I(-7), I(100), I(-100), I(127), I(128), I(-128),
                                 I(-129), I(255), I(256), I(32767), I(32768), I(-32768), I(65535), I(65536),
                                 I(2147483647), I(-2147483647 - 1), I(4294967295ll), I((i128(1) << 53) + 1),
                                 I(INT64_MAX), I(INT64_MIN), I(UINT64_MAX), F(0.0), F(-0.0), F(0.5), F(-0.5), F(1.5),
                                 F(2.5), F(-2.5), F(1.00390625), F(100.7), F(-100.7), F(65504), F(65520), F(1e-8),
                                 F(3e38), F(1e300), F(-1e300), F(2147483648.0), F(9.3e18), F(1.9e19), F(INFINITY),
                                 F(-INFINITY), F(NAN), F(0.1), F(1.0 / 3.0)};
  std::vector<ConstValue> out;
  for (const ConstValue& v : raw) out.push_back(cast_value(v, dt));
  return out;
}

// Equal as a kernel would store them: floats bit for bit, except that any NaN equals any NaN.
bool same(const ConstValue& a, const ConstValue& b, DType dt) {
  if (dt.is_float()) {
    double x = a.as_double(), y = b.as_double();
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  }
  return a.as_int() == b.as_int();
}

std::string show(const ConstValue& v) { return v.str(); }

}  // namespace

// CAST from each dtype to every dtype, and back: the kernel must agree with cast_value (ints wrap,
// float -> int truncates and saturates with NaN -> 0, int -> float goes through double, narrow
// floats round to nearest even).
TEST(RenderDtypes, CastsAndRoundTrips) {
  for (DType from : kMemoryTypes) {
    std::vector<ConstValue> in = cast_inputs(from);
    const int64_t n = int64_t(in.size());
    UOpRef src = param(0, from, n);
    UOpRef r = UOp::range(n, 0);
    UOpRef x = load(src, r);
    std::vector<UOpRef> stores;
    std::vector<HostBuffer> outs;
    int64_t slot = 1;
    for (DType to : kMemoryTypes) {
      UOpRef fwd = param(slot++, to, n), back = param(slot++, from, n);
      UOpRef c = cast(x, to);
      stores.push_back(store(fwd, r, c));
      stores.push_back(store(back, r, cast(c, from)));
      outs.push_back(zeros(to, size_t(n)));
      outs.push_back(zeros(from, size_t(n)));
    }
    HostBuffer hin = host(from, in);
    std::vector<HostBuffer*> bufs{&hin};
    for (HostBuffer& o : outs) bufs.push_back(&o);
    run(lower_kernel(sink_over(r, stores)), bufs);
    for (size_t t = 0; t < kMemoryTypes.size(); t++) {
      DType to = kMemoryTypes[t];
      for (size_t i = 0; i < in.size(); i++) {
        ConstValue want = cast_value(in[i], to), back = cast_value(want, from);
        EXPECT_TRUE(same(outs[2 * t].values[i], want, to))
            << from.name() << " " << show(in[i]) << " -> " << to.name() << ": got " << show(outs[2 * t].values[i])
            << ", want " << show(want);
        EXPECT_TRUE(same(outs[2 * t + 1].values[i], back, from))
            << from.name() << " " << show(in[i]) << " -> " << to.name() << " -> back: got "
            << show(outs[2 * t + 1].values[i]) << ", want " << show(back);
      }
    }
  }
}

namespace {

// One op of the op tests: how to build it from the loaded operands, and its reference value.
struct Case {
  std::string name;
  std::function<UOpRef(const UOpRef&, const UOpRef&)> build;
  std::function<std::optional<ConstValue>(DType, const ConstValue&, const ConstValue&)> reference;
  bool approx = false;  // libm's float function against the double one: within one ulp
};

std::optional<ConstValue> eval(Ops op, DType dt, std::initializer_list<ConstValue> args) {
  std::vector<ConstValue> v(args);
  return exec_alu(op, dt, v);
}

Case binary(Ops op) {
  return {std::string(op_name(op)), [op](const UOpRef& a, const UOpRef& b) { return UOp::alu(op, {a, b}); },
          [op](DType dt, const ConstValue& a, const ConstValue& b) { return eval(op, dt, {a, b}); }};
}
Case unary(Ops op, bool approx = false) {
  return {std::string(op_name(op)), [op](const UOpRef& a, const UOpRef&) { return UOp::alu(op, {a}); },
          [op](DType dt, const ConstValue& a, const ConstValue&) { return eval(op, dt, {a}); }, approx};
}
// WHERE(a < b, a, b) and MULACC(a, b, a): the ternary ops
std::vector<Case> ternaries() {
  return {{"WHERE", [](const UOpRef& a, const UOpRef& b) { return where(a < b, a, b); },
           [](DType dt, const ConstValue& a, const ConstValue& b) {
             return eval(Ops::WHERE, dt, {*eval(Ops::CMPLT, dt, {a, b}), a, b});
           }},
          {"MULACC", [](const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MULACC, {a, b, a}); },
           [](DType dt, const ConstValue& a, const ConstValue& b) { return eval(Ops::MULACC, dt, {a, b, a}); }}};
}

// Runs every case over the operand pairs (av[i], bv[i]) in one kernel and checks each value.
// `simplified`: through lower_kernel; otherwise without simplify_kernel, so the decomposed ops
// (SUB, NEG, CMPGT, CMPGE, ...) reach the renderer as themselves rather than as the primitives
// the simplifier rewrites them to.
// `Lowering::DecomposeAll`: unsimplified, then Instruction Selection for a C backend that lacks
// every decomposable op (CPU_DECOMPOSE_ALL=1): each decomposition of codegen/isel.h computes the
// op end to end. Exact ones stay bit for bit; DIV (a rounded RECIP times a) and SQRT, POW (through
// a rounded LOG2) get the error bound of their formula (docs/codegen.md, "Instruction Selection").
enum class Lowering { Simplified, Unsimplified, DecomposeAll };
const char* lowering_name(Lowering l) {
  return l == Lowering::Simplified ? "" : l == Lowering::Unsimplified ? " (unsimplified)" : " (decompose all)";
}

// The bound, in ulps of dt at `want`, of a decomposition that is not exact (negative: exact).
double decomposed_ulps(const std::string& name, DType dt, double want) {
  if (!dt.is_float()) return -1;
  if (name == "DIV") return 2;  // MUL(a, RECIP(b)): two roundings
  // EXP2(y) with y = LOG2(a) * b (or 0.5 * LOG2(a)) rounded to dt: an error of |y| ulps of y's
  // scale becomes ln 2 · |y| relative ulps of the result, twice over (LOG2's and the product's rounding).
  if (name == "SQRT" || name == "POW") return 3 + 2 * std::abs(std::log2(std::abs(want)));
  return -1;
}

void check_cases(DType dt, const std::vector<Case>& cases, const std::vector<ConstValue>& av,
                 const std::vector<ConstValue>& bv, Lowering lowering) {
  const bool simplified = lowering == Lowering::Simplified;
  const int64_t n = int64_t(av.size());
  UOpRef pa = param(0, dt, n), pb = param(1, dt, n);
  UOpRef r = UOp::range(n, 0);
  UOpRef a = load(pa, r), b = load(pb, r);
  std::vector<UOpRef> stores;
  std::vector<HostBuffer> outs;
  int64_t slot = 2;
  for (const Case& c : cases) {
    UOpRef v = c.build(a, b);
    stores.push_back(store(param(slot++, v->dtype, n), r, v));
    outs.push_back(zeros(v->dtype, size_t(n)));
  }
  HostBuffer ha = host(dt, av), hb = host(dt, bv);
  std::vector<HostBuffer*> bufs{&ha, &hb};
  for (HostBuffer& o : outs) bufs.push_back(&o);
  UOpRef sink = sink_over(r, stores);
  if (lowering == Lowering::DecomposeAll) {
    ScopedSetting all("CPU_DECOMPOSE_ALL", 1);
    LoweredKernel k = lower_unsimplified(select_instructions(sink, c_capabilities()), "decompose_all");
    for (const UOp* u : k.linear->toposort()) {  // nothing decomposable is left (float64 EXP2/LOG2/SIN: libm)
      DType operand = u->src.empty() ? u->dtype : u->src[0]->dtype;
      EXPECT_FALSE(has_decomposition(u->op, operand)) << dt.name() << ": " << u->brief();
    }
    run(k, bufs);
  } else {
    run(simplified ? lower_kernel(sink) : lower_unsimplified(sink), bufs);
  }
  for (size_t k = 0; k < cases.size(); k++) {
    DType out_dt = outs[k].dtype;
    for (size_t i = 0; i < av.size(); i++) {
      // no value: an integer division or modulo by zero, which gives 0 (spec README decision 3)
      ConstValue want = cases[k].reference(dt, av[i], bv[i]).value_or(ConstValue::from_int(0));
      const ConstValue& got = outs[k].values[i];
      std::string what = dt.name() + " " + cases[k].name + "(" + show(av[i]) + ", " + show(bv[i]) + "): got " +
                         show(got) + ", want " + show(want) + lowering_name(lowering);
      double w = want.as_double();
      double bound = lowering == Lowering::DecomposeAll ? decomposed_ulps(cases[k].name, dt, w) : -1;
      if (bound >= 0 && w == 0 && cases[k].name == "SQRT") {  // EXP2(0.5 * -inf) is +0 for -0 too
        EXPECT_EQ(got.as_double(), 0.0) << what;
        continue;
      }
      if (bound >= 0 && std::isfinite(w) && w != 0) {
        int mant = dt == dtypes::float16 ? 10 : dt == dtypes::bfloat16 ? 7 : dt == dtypes::float32 ? 23 : 52;
        int min_exp = dt == dtypes::float16 ? -14 : dt == dtypes::float64 ? -1022 : -126;
        double ulp = std::ldexp(1.0, std::max(std::ilogb(w), min_exp) - mant);
        double g = got.as_double();
        if (std::isinf(g) && std::isinf(round_to_float_dtype(std::abs(w) + bound * ulp, dt)) && (g > 0) == (w > 0))
          continue;  // within the bound of the overflow threshold: inf is one of the allowed results
        EXPECT_LE(std::abs(g - w), bound * ulp) << what;
        continue;
      }
      if (!cases[k].approx || std::isnan(w) || std::isinf(w)) {
        EXPECT_TRUE(same(got, want, out_dt)) << what;
        continue;
      }
      int mant = dt == dtypes::float16 ? 10 : dt == dtypes::bfloat16 ? 7 : dt == dtypes::float32 ? 23 : 52;
      // the dtype's own ulp at w: a float32 subnormal result is spaced 2^-149, not 2^-23 * w
      int min_exp = dt == dtypes::float16 ? -14 : dt == dtypes::float64 ? -1022 : -126;
      double ulp = std::ldexp(1.0, std::max(std::ilogb(w == 0 ? 1e-300 : w), min_exp) - mant);
      EXPECT_LE(std::abs(got.as_double() - w), ulp) << what;
    }
  }
}

}  // namespace

// Every integer op over a grid of operand pairs (zero, ±1, the extremes, shift amounts at and
// past the width), against exec_alu: wraparound, floor division, a zero divisor giving 0,
// INT_MIN // -1, shifts by any amount. Division by constants takes the no-zero-test paths.
TEST(RenderDtypes, IntegerOpsAgreeWithExecAlu) {
  std::vector<Case> cases;
  for (Ops op : {Ops::ADD, Ops::SUB, Ops::MUL, Ops::MAX, Ops::IDIV, Ops::MOD, Ops::CMPLT, Ops::CMPNE, Ops::CMPGT,
                 Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ, Ops::XOR, Ops::OR, Ops::AND, Ops::SHL, Ops::SHR})
    cases.push_back(binary(op));
  for (Ops op : {Ops::NEG, Ops::NOT, Ops::TRUNC}) cases.push_back(unary(op));
  for (const Case& c : ternaries()) cases.push_back(c);
  for (DType dt : kIntTypes) {
    std::vector<Case> all = cases;
    for (i128 d : {i128(3), i128(4), dt.is_unsigned() ? i128(5) : i128(-4), dt.is_unsigned() ? i128(1) : i128(-1)})
      for (Ops op : {Ops::IDIV, Ops::MOD})
        all.push_back({std::string(op_name(op)) + " by " + i128_to_string(d),
                       [op, d, dt](const UOpRef& a, const UOpRef&) { return UOp::alu(op, {a, UOp::const_int(dt, d)}); },
                       [op, d](DType t, const ConstValue& a, const ConstValue&) {
                         return eval(op, t, {a, cast_value(ConstValue::from_int(d), t)});
                       }});
    std::vector<i128> grid = {0, 1, -1, 2, -2, 3, -3, 7, -7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 100, -100,
                              dt.int_min(), dt.int_max(), dt.int_min() + 1, dt.int_max() - 1};
    std::vector<ConstValue> av, bv;
    for (i128 a : grid)
      for (i128 b : grid) {
        av.push_back(cast_value(I(a), dt));
        bv.push_back(cast_value(I(b), dt));
      }
    for (Lowering l : {Lowering::Simplified, Lowering::Unsimplified, Lowering::DecomposeAll}) check_cases(dt, all, av, bv, l);
  }
}

// Float ops against exec_alu bit for bit: + - * /, max, comparisons, RECIP, SQRT, TRUNC, NEG, POW,
// WHERE, MULACC; EXP2, LOG2, SIN against the double ones within one ulp (through lower_kernel the
// decompositions of codegen/decompositions.h, unsimplified the renderer's libm calls). For
// float16 and bfloat16 this is their arithmetic against dtype.h's rounding (exec_alu rounds with
// round_to_float_dtype), checked once more directly for ADD and MUL.
TEST(RenderDtypes, FloatOpsAgreeWithExecAlu) {
  std::vector<Case> cases;
  for (Ops op : {Ops::ADD, Ops::SUB, Ops::MUL, Ops::DIV, Ops::MAX, Ops::POW, Ops::CMPLT, Ops::CMPNE, Ops::CMPGT,
                 Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ})
    cases.push_back(binary(op));
  for (Ops op : {Ops::RECIP, Ops::SQRT, Ops::TRUNC, Ops::NEG}) cases.push_back(unary(op));
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN}) cases.push_back(unary(op, true));
  for (const Case& c : ternaries()) cases.push_back(c);
  cases.push_back({"ADD vs dtype.h", [](const UOpRef& a, const UOpRef& b) { return a + b; },
                   [](DType dt, const ConstValue& a, const ConstValue& b) {
                     return ConstValue::from_float(round_to_float_dtype(a.as_double() + b.as_double(), dt));
                   }});
  cases.push_back({"MUL vs dtype.h", [](const UOpRef& a, const UOpRef& b) { return a * b; },
                   [](DType dt, const ConstValue& a, const ConstValue& b) {
                     return ConstValue::from_float(round_to_float_dtype(a.as_double() * b.as_double(), dt));
                   }});
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> uni(-300.0, 300.0);
  for (DType dt : kFloatTypes) {
    std::vector<double> grid = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.25, 3.0, 1e-3, 65504.0, 1e10, 1.0 / 3.0, 2.0,
                                INFINITY, -INFINITY, NAN};
    std::vector<ConstValue> av, bv;
    for (double a : grid)
      for (double b : grid) {
        av.push_back(cast_value(F(a), dt));
        bv.push_back(cast_value(F(b), dt));
      }
    for (int i = 0; i < 300; i++) {  // random operands: rounding cases the grid misses
      av.push_back(cast_value(F(uni(rng)), dt));
      bv.push_back(cast_value(F(uni(rng) / 7.0), dt));
    }
    for (Lowering l : {Lowering::Simplified, Lowering::Unsimplified, Lowering::DecomposeAll}) check_cases(dt, cases, av, bv, l);
  }
}

// BITCAST between same-sized types keeps the bits.
TEST(RenderDtypes, Bitcasts) {
  const std::vector<std::pair<DType, DType>> pairs = {
      {dtypes::float32, dtypes::int32},  {dtypes::int32, dtypes::float32},   {dtypes::float32, dtypes::uint32},
      {dtypes::float16, dtypes::int16},  {dtypes::uint16, dtypes::float16},  {dtypes::bfloat16, dtypes::uint16},
      {dtypes::int16, dtypes::bfloat16}, {dtypes::float16, dtypes::bfloat16}, {dtypes::float64, dtypes::int64},
      {dtypes::uint64, dtypes::float64}, {dtypes::int8, dtypes::uint8}};
  for (auto [from, to] : pairs) {
    std::vector<ConstValue> in = cast_inputs(from);
    const int64_t n = int64_t(in.size());
    UOpRef src = param(0, from, n), dst = param(1, to, n);
    UOpRef r = UOp::range(n, 0);
    UOpRef v = UOp::create(Ops::BITCAST, to, {load(src, r)}, to);
    HostBuffer hin = host(from, in), hout = zeros(to, size_t(n));
    run(lower_kernel(sink_over(r, {store(dst, r, v)})), {&hin, &hout});
    for (size_t i = 0; i < in.size(); i++) {
      std::byte bytes[8];
      encode_one(from, in[i], bytes);
      ConstValue want = decode_one(to, bytes);
      if (from.is_float() && std::isnan(in[i].as_double())) continue;  // a NaN's payload may be quietened
      EXPECT_TRUE(same(hout.values[i], want, to)) << from.name() << " " << show(in[i]) << " -> " << to.name();
    }
  }
}

// A bool buffer is bytes: any non-zero byte reads as true, and a stored true is the byte 1.
TEST(RenderDtypes, BoolBytes) {
  UOpRef src = param(0, dtypes::bool_, 4), dst = param(1, dtypes::uint8, 4);
  UOpRef r = UOp::range(4, 0);
  LoweredKernel k = lower_kernel(sink_over(r, {store(dst, r, cast(load(src, r), dtypes::uint8))}));
  std::shared_ptr<Program> prog = test_cache().get(get_device("CPU"), k.spec);
  Buffer in("CPU", dtypes::bool_, 4), out("CPU", dtypes::uint8, 4);
  uint8_t raw[4] = {0, 1, 2, 255}, got[4];
  in.copyin(raw, 4);
  std::vector<Buffer*> bufs{&in, &out};
  prog->run(bufs, {});
  out.copyout(got, 4);
  EXPECT_EQ(std::vector<int>(got, got + 4), (std::vector<int>{0, 1, 1, 1}));
}
