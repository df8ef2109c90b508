#include "tir/interpret/interpret_arith.h"

#include <cmath>
#include <limits>

#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

namespace {

bool is_unsigned(DataType t) { return t.code == DataType::Code::UInt; }

// Signed division with C's truncation, defined for INT64_MIN / -1 (wraps like the hardware would
// after widening).
int64_t trunc_div(int64_t a, int64_t b) {
  if (b == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(a));
  return a / b;
}
int64_t trunc_mod(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }

int64_t integer_lane(ExprKind k, int64_t a, int64_t b, DataType t, int line) {
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  const bool u = is_unsigned(t);
  switch (k) {
    case ExprKind::Add: return wrap_int(static_cast<int64_t>(ua + ub), t);
    case ExprKind::Sub: return wrap_int(static_cast<int64_t>(ua - ub), t);
    case ExprKind::Mul: return wrap_int(static_cast<int64_t>(ua * ub), t);
    case ExprKind::Min: return u ? (ua < ub ? a : b) : std::min(a, b);
    case ExprKind::Max: return u ? (ua > ub ? a : b) : std::max(a, b);
    default: break;
  }
  if (b == 0)
    throw TirDivisionByZero(division_by_zero_message(k, t).with(std::to_string(a)), line);
  if (u) {  // unsigned: truncating and flooring agree
    bool div = k == ExprKind::Div || k == ExprKind::FloorDiv;
    return wrap_int(static_cast<int64_t>(div ? ua / ub : ua % ub), t);
  }
  int64_t q = trunc_div(a, b), r = trunc_mod(a, b);
  bool floor_adjust = r != 0 && ((r < 0) != (b < 0));
  switch (k) {
    case ExprKind::Div: return wrap_int(q, t);
    case ExprKind::Mod: return wrap_int(r, t);
    case ExprKind::FloorDiv: return wrap_int(floor_adjust ? q - 1 : q, t);
    default: return wrap_int(floor_adjust ? r + b : r, t);  // FloorMod
  }
}

double float_lane(ExprKind k, double a, double b) {
  switch (k) {
    case ExprKind::Add: return a + b;
    case ExprKind::Sub: return a - b;
    case ExprKind::Mul: return a * b;
    case ExprKind::Div: return a / b;
    case ExprKind::Mod: return std::fmod(a, b);
    case ExprKind::FloorDiv: return std::floor(a / b);
    case ExprKind::FloorMod: return a - std::floor(a / b) * b;
    case ExprKind::Min: return std::fmin(a, b);
    default: return std::fmax(a, b);  // Max
  }
}

// Comparisons read integers mathematically: unsigned lanes as unsigned (is_cmp_op(kind) holds).
template <class T>
bool compare(ExprKind k, T a, T b) { return *compare_values(k, a, b); }

}  // namespace

RuntimeValue apply_binary(ExprKind kind, const RuntimeValue& a, const RuntimeValue& b, int line) {
  const DataType t = a.dtype;
  if (a.dtype != b.dtype)  // the type checker rejects this; unchecked programs get an error, not a crash
    throw TirRuntimeError(std::string(expr_kind_name(kind)) + ": operands have different dtypes " + a.dtype.name() +
                              " and " + b.dtype.name(), line);
  if (is_cmp_op(kind)) {
    RuntimeValue r{DataType::bool_(a.lanes()), {}, {}};
    for (int i = 0; i < a.lanes(); ++i) {
      bool c = t.is_float() ? compare(kind, a.floats[i], b.floats[i])
               : is_unsigned(t) ? compare(kind, static_cast<uint64_t>(a.ints[i]), static_cast<uint64_t>(b.ints[i]))
                                : compare(kind, a.ints[i], b.ints[i]);
      r.ints.push_back(c);
    }
    return r;
  }
  RuntimeValue r{t, {}, {}};
  for (int i = 0; i < a.lanes(); ++i) {
    if (t.is_float()) r.floats.push_back(round_float(float_lane(kind, a.floats[i], b.floats[i]), t));
    else r.ints.push_back(integer_lane(kind, a.ints[i], b.ints[i], t, line));
  }
  return r;
}

}  // namespace onegrad::tir
