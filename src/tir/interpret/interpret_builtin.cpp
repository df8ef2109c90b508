#include "tir/interpret/interpret_builtin.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

namespace {

struct UnaryMath {
  std::string_view op;
  double (*fn)(double);
};
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double rsqrt(double x) { return 1 / std::sqrt(x); }
double exp10(double x) { return std::pow(10.0, x); }
const UnaryMath kUnaryMath[] = {
    {"tir.exp", std::exp},     {"tir.exp2", std::exp2},   {"tir.exp10", exp10},       {"tir.log", std::log},
    {"tir.log2", std::log2},   {"tir.log10", std::log10}, {"tir.log1p", std::log1p},  {"tir.expm1", std::expm1},
    {"tir.sqrt", std::sqrt},   {"tir.rsqrt", rsqrt},      {"tir.sin", std::sin},      {"tir.cos", std::cos},
    {"tir.tan", std::tan},     {"tir.sinh", std::sinh},   {"tir.cosh", std::cosh},    {"tir.tanh", std::tanh},
    {"tir.asin", std::asin},   {"tir.acos", std::acos},   {"tir.atan", std::atan},    {"tir.asinh", std::asinh},
    {"tir.acosh", std::acosh}, {"tir.atanh", std::atanh}, {"tir.sigmoid", sigmoid},   {"tir.erf", std::erf},
    {"tir.fabs", std::fabs},   {"tir.floor", std::floor}, {"tir.ceil", std::ceil},    {"tir.round", std::nearbyint},
    {"tir.trunc", std::trunc}, {"tir.nearbyint", std::nearbyint},
};

struct BinaryMath {
  std::string_view op;
  double (*fn)(double, double);
};
const BinaryMath kBinaryMath[] = {
    {"tir.pow", std::pow},           {"tir.atan2", std::atan2},        {"tir.fmod", std::fmod},
    {"tir.hypot", std::hypot},       {"tir.copysign", std::copysign},  {"tir.nextafter", std::nextafter},
};

const UnaryMath* unary_math(std::string_view op) {
  for (const UnaryMath& m : kUnaryMath)
    if (m.op == op) return &m;
  return nullptr;
}
const BinaryMath* binary_math(std::string_view op) {
  for (const BinaryMath& m : kBinaryMath)
    if (m.op == op) return &m;
  return nullptr;
}
bool is_classify(std::string_view op) { return op == "tir.isnan" || op == "tir.isinf" || op == "tir.isfinite"; }
bool is_bit_count(std::string_view op) { return op == "tir.popcount" || op == "tir.clz"; }
bool is_bit_op(std::string_view op) {
  return op.rfind("tir.bitwise_", 0) == 0 || op == "tir.shift_left" || op == "tir.shift_right";
}

// Integer bit operations on wrapped lanes; shifts by the element width or more give 0 (or the
// sign for >> of negative signed values) rather than C's undefined behaviour.
int64_t bit_lane(std::string_view op, int64_t a, int64_t b, DataType t) {
  const uint64_t ua = static_cast<uint64_t>(a);
  if (op == "tir.bitwise_and") return a & b;
  if (op == "tir.bitwise_or") return a | b;
  if (op == "tir.bitwise_xor") return a ^ b;
  if (op == "tir.bitwise_not") return wrap_int(~a, t);
  if (b < 0 || b >= 64) b = 63 + (op == "tir.shift_left" || t.code == DataType::Code::UInt);
  if (op == "tir.shift_left") return b >= 64 ? 0 : wrap_int(static_cast<int64_t>(ua << b), t);
  if (t.code == DataType::Code::UInt) return b >= 64 ? 0 : static_cast<int64_t>(ua >> b);
  return a >> std::min<int64_t>(b, 63);
}

// Elementwise application of a float function to each lane, rounded to the result dtype.
template <class F>
RuntimeValue map_float(const RuntimeValue& a, DataType t, F fn) {
  RuntimeValue r{t.with_lanes(a.lanes()), {}, {}};
  for (int i = 0; i < a.lanes(); ++i) r.floats.push_back(round_float(fn(i), t));
  return r;
}

}  // namespace

bool is_pure_builtin(const std::string& op) {
  return unary_math(op) || binary_math(op) || is_classify(op) || is_bit_count(op) || is_bit_op(op);
}

size_t pure_builtin_arity(const std::string& op) {
  return binary_math(op) || (is_bit_op(op) && op != "tir.bitwise_not") ? 2 : 1;
}

RuntimeValue apply_builtin(const std::string& op, const std::vector<RuntimeValue>& args, DataType result, int line) {
  if (const UnaryMath* m = unary_math(op)) {
    const RuntimeValue& a = args.at(0);
    return map_float(a, result, [&](int i) { return m->fn(a.float_at(i)); });
  }
  if (const BinaryMath* m = binary_math(op)) {
    const RuntimeValue &a = args.at(0), &b = args.at(1);
    return map_float(a, result, [&](int i) { return m->fn(a.float_at(i), b.float_at(b.lanes() == 1 ? 0 : i)); });
  }
  if (is_classify(op)) {
    const RuntimeValue& a = args.at(0);
    RuntimeValue r{DataType::bool_(a.lanes()), {}, {}};
    for (int i = 0; i < a.lanes(); ++i) {
      double x = a.float_at(i);
      r.ints.push_back(op == "tir.isnan" ? std::isnan(x) : op == "tir.isinf" ? std::isinf(x) : std::isfinite(x));
    }
    return r;
  }
  if (is_bit_count(op)) {
    RuntimeValue a = args.at(0);
    if (a.dtype.is_float()) throw TirRuntimeError(op + " of " + a.dtype.name() + ": integers only", line);
    const int bits = a.dtype.bits;
    for (int64_t& x : a.ints) {
      uint64_t u = static_cast<uint64_t>(x) & (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
      x = op == "tir.popcount" ? __builtin_popcountll(u) : (u == 0 ? bits : __builtin_clzll(u) - (64 - bits));
    }
    return a;
  }
  if (is_bit_op(op)) {
    RuntimeValue a = args.at(0);
    const RuntimeValue& b = op == "tir.bitwise_not" ? args.at(0) : args.at(1);
    if (a.dtype.is_float() || b.dtype.is_float() || (b.lanes() != 1 && b.lanes() != a.lanes()))
      throw TirRuntimeError(op + " of " + a.dtype.name() + " and " + b.dtype.name() + ": integers of matching lanes only",
                            line);
    for (int i = 0; i < a.lanes(); ++i) a.ints[i] = bit_lane(op, a.ints[i], b.ints[b.lanes() == 1 ? 0 : i], a.dtype);
    return a;
  }
  throw TirRuntimeError("the interpreter does not implement builtin " + op, line);
}

}  // namespace onegrad::tir
