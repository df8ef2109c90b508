// Running lowered scalar ops (tir_compile/lower_ops.h) in a real kernel and comparing them with
// the interpreter lane by lane. A kernel in kernel form (docs/kernel-form.md) loads its inputs
// from PARAM buffers over one RANGE of lanes, computes every op under test and stores each result
// in its own output buffer; it goes through the engine's whole lowering with the opts the engine would
// give it (lower_kernel with default_opts: optimize, simplify, instruction selection, render to C)
// and runs on the CPU.
#pragma once
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "render/render_test_util.h"
#include "tir/interpret/interpret_value.h"
#include "tir_compile/lower_ops.h"

namespace onegrad::tir::testing {

using onegrad::testing::HostBuffer;

// One output of a kernel: its dtype and how it is computed from the loaded inputs (one lane each).
struct LaneOutput {
  DataType type;
  std::function<UOpRef(const std::vector<UOpRef>& inputs)> compute;
};

// Every element type the UOp dialect has (lower_ops.h, uop_dtype).
inline std::vector<DataType> lowerable_types() {
  return {DataType::bool_(),  DataType::int_(8),    DataType::int_(16), DataType::int_(32),
          DataType::int_(64), DataType::uint(8),    DataType::uint(16), DataType::uint(32),
          DataType::uint(64), DataType::float_(16), {DataType::Code::BFloat, 16, 1},
          DataType::float_(32), DataType::float_(64)};
}

inline ConstValue to_const(const RuntimeValue& v) {
  if (v.dtype.is_float()) return ConstValue::from_float(v.floats.at(0));
  if (v.dtype.code == DataType::Code::UInt) return ConstValue::from_int(i128(static_cast<uint64_t>(v.ints.at(0))));
  return ConstValue::from_int(v.ints.at(0));
}

inline RuntimeValue from_const(const ConstValue& c, DataType t) {
  if (t.is_float()) return RuntimeValue{t, {}, {c.as_double()}};
  return RuntimeValue{t, {wrap_int(static_cast<int64_t>(static_cast<uint64_t>(c.as_int())), t)}, {}};
}

// Runs one kernel over the lanes: inputs[k][i] is input k of lane i (all inputs one length), the
// result [o][i] output o of lane i, as the interpreter's values.
inline std::vector<std::vector<RuntimeValue>> run_lanes(const std::vector<std::vector<RuntimeValue>>& inputs,
                                                        const std::vector<LaneOutput>& outputs) {
  const int64_t n = int64_t(inputs.at(0).size());
  UOpRef r = UOp::range(n, 0);
  std::vector<HostBuffer> bufs;
  std::vector<UOpRef> loaded;
  int64_t slot = 0;
  for (const auto& in : inputs) {
    DataType t = in.at(0).dtype;
    DType dt = uop_dtype(t);
    HostBuffer b{dt, {}};
    for (const RuntimeValue& v : in) b.values.push_back(to_const(v));
    bufs.push_back(std::move(b));
    loaded.push_back(onegrad::testing::load(onegrad::testing::param(slot++, dt, n), r));
  }
  std::vector<UOpRef> stores;
  for (const LaneOutput& o : outputs) {
    DType dt = uop_dtype(o.type);
    UOpRef value = o.compute(loaded);
    if (value->dtype != dt) throw std::runtime_error("lowered value has dtype " + value->dtype.name() + ", expected " + dt.name());
    stores.push_back(onegrad::testing::store(onegrad::testing::param(slot++, dt, n), r, value));
    bufs.push_back(onegrad::testing::zeros(dt, size_t(n)));
  }
  UOpRef sink = onegrad::testing::sink_over(r, stores);
  LoweredKernel k = lower_kernel(sink, "lanes", default_opts(sink));
  std::vector<HostBuffer*> ptrs;
  for (HostBuffer& b : bufs) ptrs.push_back(&b);
  onegrad::testing::run(k, ptrs);
  std::vector<std::vector<RuntimeValue>> out;
  for (size_t o = 0; o < outputs.size(); ++o) {
    out.emplace_back();
    for (const ConstValue& c : bufs[inputs.size() + o].values) out.back().push_back(from_const(c, outputs[o].type));
  }
  return out;
}

// Interesting values of an element type, as the interpreter holds them: zero, ±1, small numbers,
// the extremes, and for floats -0, halfway cases, subnormals, inf and NaN.
inline std::vector<RuntimeValue> interesting_values(DataType t) {
  std::vector<RuntimeValue> out;
  if (t.is_float()) {
    const double lim = std::numeric_limits<double>::max();
    for (double v : std::initializer_list<double>{0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.0, 0.1, 1.0 / 3, 100.7, -100.7, 65504.0,
                     65520.0, 1e10, -1e10, 3e38, 1e-30, 1e-310, 9.3e18, -9.3e18, 2e19, lim, -lim, INFINITY, -INFINITY, NAN})
      out.push_back(RuntimeValue::of_float(t, v));
    return out;
  }
  const int64_t mn = t.is_int() ? (t.bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (t.bits - 1))) : 0;
  const int64_t mx = t.is_bool() ? 1 : t.bits == 64 ? (t.is_int() ? std::numeric_limits<int64_t>::max() : -1)
                                                     : (t.is_int() ? (int64_t{1} << (t.bits - 1)) - 1 : (int64_t{1} << t.bits) - 1);
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{2}, int64_t{-2}, int64_t{3}, int64_t{-3}, int64_t{7},
                    int64_t{-7}, int64_t{100}, int64_t{-100}, mn, mn + 1, mx, mx - 1})
    out.push_back(RuntimeValue::of_int(t, v));
  return out;
}

// Equal as stored: ints exactly, floats bit for bit except that any NaN equals any NaN.
inline bool same_value(const RuntimeValue& a, const RuntimeValue& b) {
  if (!a.dtype.is_float()) return a.ints.at(0) == b.ints.at(0);
  double x = a.floats.at(0), y = b.floats.at(0);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y && std::signbit(x) == std::signbit(y);
}

inline std::string show(const RuntimeValue& v) {
  if (!v.dtype.is_float()) return std::to_string(v.ints.at(0));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.floats.at(0));
  return buf;
}

// The distance in units in the last place of t between two values of t (NaN vs NaN: 0; NaN vs a
// number, or an infinity vs a finite number: a huge distance).
inline double ulp_distance(double a, double b, DataType t) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e30;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return 1e30;
  // the spacing of t's values at the larger magnitude (subnormal spacing below the normal range)
  int mant = t.code == DataType::Code::BFloat ? 8 : t.bits == 16 ? 11 : t.bits == 32 ? 24 : 53;
  int min_exp = t.code == DataType::Code::BFloat ? -126 : t.bits == 16 ? -14 : t.bits == 32 ? -126 : -1022;
  int e = std::max(std::ilogb(std::max(std::fabs(a), std::fabs(b))), min_exp);
  return std::fabs(a - b) / std::ldexp(1.0, e - (mant - 1));
}

}  // namespace onegrad::tir::testing
