// Every dtype through the C renderer, checked against the reference semantics of the uop layer:
// casts against cast_value, integer and float ops against exec_alu (the constant folder, which
// defines what a kernel of each dtype computes: wraparound, floor division, division by zero
// giving 0, shifts by any amount, NaN-propagating max, float16/bfloat16 rounding after every op).
// One kernel per dtype computes every op over a grid of operand pairs, so few compiles cover all.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "render_test_util.h"
#include "uop/exec_alu.h"

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

// Every binary integer op over a grid of operand pairs (zero, ±1, the extremes, shift amounts at
// and past the width), against exec_alu; a division or modulo by zero must give 0.
TEST(RenderDtypes, IntegerOpsAgreeWithExecAlu) {
  const std::vector<Ops> ops = {Ops::ADD,   Ops::SUB,   Ops::MUL,   Ops::MAX,   Ops::IDIV,  Ops::MOD,
                                Ops::CMPLT, Ops::CMPNE, Ops::CMPGT, Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ,
                                Ops::XOR,   Ops::OR,    Ops::AND,   Ops::SHL,   Ops::SHR};
  for (DType dt : kIntTypes) {
    std::vector<i128> grid = {0, 1, -1, 2, -2, 3, -3, 7, -7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 100, -100,
                              dt.int_min(), dt.int_max(), dt.int_min() + 1, dt.int_max() - 1};
    std::vector<ConstValue> av, bv;
    for (i128 a : grid)
      for (i128 b : grid) {
        av.push_back(cast_value(I(a), dt));
        bv.push_back(cast_value(I(b), dt));
      }
    const int64_t n = int64_t(av.size());
    UOpRef pa = param(0, dt, n), pb = param(1, dt, n);
    UOpRef r = UOp::range(n, 0);
    UOpRef a = load(pa, r), b = load(pb, r);
    std::vector<UOpRef> stores;
    std::vector<HostBuffer> outs;
    int64_t slot = 2;
    for (Ops op : ops) {
      UOpRef v = UOp::alu(op, {a, b});
      stores.push_back(store(param(slot++, v->dtype, n), r, v));
      outs.push_back(zeros(v->dtype, size_t(n)));
    }
    // division by constants: proven non-zero divisors skip the zero test
    std::vector<i128> divisors = {3, 4, dt.is_unsigned() ? 5 : -4, dt.is_unsigned() ? 1 : -1};
    for (i128 d : divisors)
      for (Ops op : {Ops::IDIV, Ops::MOD}) {
        UOpRef v = UOp::alu(op, {a, UOp::const_int(dt, d)});
        stores.push_back(store(param(slot++, dt, n), r, v));
        outs.push_back(zeros(dt, size_t(n)));
      }
    HostBuffer ha = host(dt, av), hb = host(dt, bv);
    std::vector<HostBuffer*> bufs{&ha, &hb};
    for (HostBuffer& o : outs) bufs.push_back(&o);
    run(lower_kernel(sink_over(r, stores)), bufs);
    auto expect = [&](Ops op, const ConstValue& x, const ConstValue& y) {
      ConstValue args[2] = {x, y};
      std::optional<ConstValue> v = exec_alu(op, dt, args);
      return v ? *v : ConstValue::from_int(0);  // by zero: 0 (spec README decision 3)
    };
    for (size_t k = 0; k < ops.size(); k++)
      for (size_t i = 0; i < av.size(); i++) {
        ConstValue want = expect(ops[k], av[i], bv[i]);
        EXPECT_EQ(outs[k].values[i].as_int(), want.as_int())
            << dt.name() << " " << op_name(ops[k]) << "(" << show(av[i]) << ", " << show(bv[i]) << ")";
      }
    size_t k = ops.size();
    for (i128 d : divisors)
      for (Ops op : {Ops::IDIV, Ops::MOD}) {
        for (size_t i = 0; i < av.size(); i++)
          EXPECT_EQ(outs[k].values[i].as_int(), expect(op, av[i], cast_value(I(d), dt)).as_int())
              << dt.name() << " " << op_name(op) << "(" << show(av[i]) << ", " << i128_to_string(d) << ")";
        k++;
      }
  }
}

// Float ops against exec_alu: +, -, *, /, max, comparisons, RECIP, SQRT, TRUNC, NEG, POW exactly;
// EXP2, LOG2, SIN (libm's float versions against double ones) within one unit in the last place.
// For float16 and bfloat16 this is their arithmetic against dtype.h's rounding functions.
TEST(RenderDtypes, FloatOpsAgreeWithExecAlu) {
  const std::vector<Ops> exact_binary = {Ops::ADD,   Ops::SUB,   Ops::MUL,   Ops::DIV,   Ops::MAX,  Ops::POW,
                                         Ops::CMPLT, Ops::CMPNE, Ops::CMPGE, Ops::CMPEQ, Ops::CMPLE};
  const std::vector<Ops> exact_unary = {Ops::RECIP, Ops::SQRT, Ops::TRUNC, Ops::NEG};
  const std::vector<Ops> approx_unary = {Ops::EXP2, Ops::LOG2, Ops::SIN};
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
    const int64_t n = int64_t(av.size());
    UOpRef pa = param(0, dt, n), pb = param(1, dt, n);
    UOpRef r = UOp::range(n, 0);
    UOpRef a = load(pa, r), b = load(pb, r);
    std::vector<std::pair<Ops, UOpRef>> computed;
    for (Ops op : exact_binary) computed.push_back({op, UOp::alu(op, {a, b})});
    for (Ops op : exact_unary) computed.push_back({op, UOp::alu(op, {a})});
    for (Ops op : approx_unary) computed.push_back({op, UOp::alu(op, {a})});
    std::vector<UOpRef> stores;
    std::vector<HostBuffer> outs;
    int64_t slot = 2;
    for (auto& [op, v] : computed) {
      stores.push_back(store(param(slot++, v->dtype, n), r, v));
      outs.push_back(zeros(v->dtype, size_t(n)));
    }
    HostBuffer ha = host(dt, av), hb = host(dt, bv);
    std::vector<HostBuffer*> bufs{&ha, &hb};
    for (HostBuffer& o : outs) bufs.push_back(&o);
    run(lower_kernel(sink_over(r, stores)), bufs);
    for (size_t k = 0; k < computed.size(); k++) {
      Ops op = computed[k].first;
      bool unary = k >= exact_binary.size();
      bool approx = k >= exact_binary.size() + exact_unary.size();
      for (size_t i = 0; i < av.size(); i++) {
        ConstValue args[2] = {av[i], bv[i]};
        std::optional<ConstValue> want = exec_alu(op, dt, std::span<const ConstValue>(args, unary ? 1 : 2));
        ASSERT_TRUE(want.has_value());
        const ConstValue& got = outs[k].values[i];
        std::string what = dt.name() + " " + std::string(op_name(op)) + "(" + show(av[i]) + (unary ? "" : ", " + show(bv[i])) +
                           "): got " + show(got) + ", want " + show(*want);
        DType out_dt = computed[k].second->dtype;
        if (!approx) {
          EXPECT_TRUE(same(got, *want, out_dt)) << what;
          continue;
        }
        double g = got.as_double(), w = want->as_double();
        if (std::isnan(w) || std::isinf(w)) {
          EXPECT_TRUE(same(got, *want, out_dt)) << what;
          continue;
        }
        // one unit in the last place of dt at the wanted value
        int mant = dt == dtypes::float16 ? 10 : dt == dtypes::bfloat16 ? 7 : dt == dtypes::float32 ? 23 : 52;
        double ulp = std::ldexp(1.0, std::max(std::ilogb(w == 0 ? 1e-300 : w), -1022) - mant);
        EXPECT_LE(std::abs(g - w), ulp) << what;
      }
    }
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
