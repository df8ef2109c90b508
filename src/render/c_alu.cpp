// The C expression of each elementwise op: one rule per op in a table. The rules keep C's
// undefined behaviour out of every kernel (docs/codegen.md, "C rules"):
//   - signed +, -, * wrap: computed in the unsigned type unless min_max proves the result fits;
//   - integer IDIV/MOD are floor ops, by zero give 0 (spec README decisions 2, 3): plain `/` `%`
//     only when min_max proves a >= 0 and b > 0, no zero test when it proves b != 0;
//   - float16 and bfloat16 ops compute in float and round to the dtype after every op (a float
//     holds the exact result of +, -, *, / and sqrt of two such values closely enough that one
//     rounding gives the correctly rounded answer);
//   - float -> int casts truncate and saturate, NaN -> 0 (const_value.h's cast_value).
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "render/c_support.h"
#include "uop/errors.h"

namespace onegrad::c_render {

namespace {

// A constant value with no NaN: a float CONST, or a STACK (a vector) of them.
bool constant_without_nan(const UOp& u) {
  if (u.is_const()) return !std::isnan(u.const_value().as_double());
  if (u.op != Ops::STACK || u.src.empty()) return false;
  return std::all_of(u.src.begin(), u.src.end(), [](const UOpRef& s) { return constant_without_nan(*s); });
}

using Src = std::vector<std::string>;
using Rule = std::function<std::string(const UOp&, const Src&, Prelude&)>;

bool is_f16(DType dt) { return dt.scalar == ScalarType::FLOAT16; }
bool is_bf16(DType dt) { return dt.scalar == ScalarType::BFLOAT16; }
bool is_f64(DType dt) { return dt.scalar == ScalarType::FLOAT64; }
std::string paren(const std::string& e) { return "(" + e + ")"; }

// The dialect's cast to float32 and to float64: "(float)", "(double)".
std::string to_float(const CDialect& d) { return d.cast(dtypes::float32); }
std::string to_double(const CDialect& d) { return d.cast(dtypes::float64); }
// A float16 operand is widened to float, so the op computes in float.
std::string widen(const CDialect& d, DType dt, const std::string& e) { return is_f16(dt) ? to_float(d) + e : e; }
// A float result (of float16/bfloat16 math done in float) rounded to dt.
std::string round_to(DType dt, const std::string& e, Prelude& p) {
  if (is_f16(dt)) return p.dialect().cast(dt) + paren(e);
  if (is_bf16(dt)) return p.bf16() + paren(e);
  return e;
}
// A double result rounded to dt the way exec_alu rounds: through float for the narrow floats.
std::string from_double(DType dt, const std::string& e, Prelude& p) {
  const CDialect& d = p.dialect();
  if (is_f64(dt)) return e;
  if (is_f16(dt)) return d.cast(dt) + to_float(d) + paren(e);
  if (is_bf16(dt)) return p.bf16() + "(" + to_float(d) + paren(e) + ")";
  return to_float(d) + paren(e);
}

i128 lo(const UOpRef& u) { return u->vmin().as_int(); }
i128 hi(const UOpRef& u) { return u->vmax().as_int(); }
bool nonzero(const UOpRef& u) { return lo(u) > 0 || hi(u) < 0; }

// Types narrower than int are promoted by C; their results are cast back (gcc wraps them).
bool narrow(DType dt) { return dt.is_bool() || dt.bits() < 32; }
std::string cast_back(const CDialect& d, DType dt, const std::string& e) { return narrow(dt) ? d.cast(dt) + paren(e) : paren(e); }
std::string unsigned_type(const CDialect& d, DType dt) { return d.value_type(dt.bits() == 64 ? dtypes::uint64 : dtypes::uint32); }

// min_max shows the exact result fits the dtype (an interval that is the whole dtype range is
// what min_max answers when the result may wrap).
bool fits(const UOp& u) {
  i128 l = u.vmin().as_int(), h = u.vmax().as_int(), mn = u.dtype.int_min(), mx = u.dtype.int_max();
  return l >= mn && h <= mx && !(l == mn && h == mx);
}

// a OP b for ints: no signed overflow, no promotion to a signed int that could overflow
std::string int_arith(const CDialect& d, const UOp& u, const char* op, const std::string& a, const std::string& b) {
  DType dt = u.dtype;
  std::string e = a + " " + op + " " + b;
  if (narrow(dt)) {
    // uint16 * uint16 is an int product that can overflow: multiply in uint32_t
    if (dt.is_unsigned() && op[0] == '*') e = d.cast(dtypes::uint32) + a + " * " + d.cast(dtypes::uint32) + b;
    return cast_back(d, dt, e);
  }
  if (dt.is_unsigned() || fits(u)) return paren(e);
  std::string ut = unsigned_type(d, dt);
  return d.cast(dt) + "((" + ut + ")" + a + " " + op + " (" + ut + ")" + b + ")";
}

std::string arith(const UOp& u, const char* op, const Src& s, Prelude& p) {
  DType dt = u.dtype;
  const CDialect& d = p.dialect();
  if (dt.is_float()) return round_to(dt, widen(d, dt, s[0]) + " " + op + " " + widen(d, dt, s[1]), p);
  return int_arith(d, u, op, s[0], s[1]);
}

std::string neg(const UOp& u, const Src& s, Prelude& p) {
  DType dt = u.dtype;
  const CDialect& d = p.dialect();
  if (dt.is_float() || narrow(dt) || dt.is_unsigned() || fits(u)) return cast_back(d, dt, "-" + s[0]);
  return d.cast(dt) + "(0 - (" + unsigned_type(d, dt) + ")" + s[0] + ")";
}

// floor division / modulo; 0 for a zero divisor (spec README decisions 2, 3)
std::string divmod(const UOp& u, const Src& s, Prelude& p, bool div) {
  DType dt = u.dtype;
  const CDialect& d = p.dialect();
  const std::string &a = s[0], &b = s[1];
  if (dt.is_float()) {  // Python's float // and % (exec_alu), computed in double
    std::string da = to_double(d) + a, db = to_double(d) + b;
    std::string e = div ? d.math_fn("floor", dtypes::float64) + "(" + da + " / " + db + ")" : p.float_mod() + "(" + da + ", " + db + ")";
    return from_double(dt, e, p);
  }
  if (dt.is_ptr || !(dt.is_int() || dt.is_bool())) throw InternalError("c renderer: IDIV/MOD of " + dt.name());
  const char* op = div ? " / " : " % ";
  const UOpRef &x = u.src[0], &y = u.src[1];
  if (lo(y) > 0 && (lo(x) >= 0 || dt.is_unsigned() || dt.is_bool())) return cast_back(d, dt, a + op + b);
  std::string e = dt.is_signed_int() ? (div ? p.floor_div(dt) : p.floor_mod(dt)) + "(" + a + ", " + b + ")" : a + op + b;
  if (!nonzero(y)) e = b + " != 0 ? " + e + " : 0";
  return cast_back(d, dt, e);
}

std::string unary_math(const UOp& u, const Src& s, Prelude& p, const char* fn) {
  DType dt = u.dtype;
  if (!dt.is_float()) throw InternalError("c renderer: " + std::string(op_name(u.op)) + " of " + dt.name() + " (cast to a float first)");
  return round_to(dt, p.dialect().math_fn(fn, dt) + "(" + widen(p.dialect(), dt, s[0]) + ")", p);
}

std::string cast(const UOp& u, const Src& s, Prelude& p) {
  DType to = u.dtype, from = u.src[0]->dtype;
  const CDialect& d = p.dialect();
  const std::string& a = s[0];
  if (to == from) return a;
  if (to.is_bool()) return paren(a + " != 0");
  if (to.is_int()) {
    if (from.is_float()) return p.float_to_int(to) + "(" + to_double(d) + a + ")";
    return d.cast(to) + a;  // ints wrap (gcc: modulo 2^n)
  }
  if (!to.is_float()) throw InternalError("c renderer: CAST to " + to.name());
  // as exec_alu: via double. An int of 32 bits or fewer is exact in double, so its float32 is the
  // direct conversion's (one rounding), which vectorizes without double lanes.
  if ((from.is_int() || from.is_bool()) && to.scalar == ScalarType::FLOAT32 && from.itemsize() <= 4) return to_float(d) + a;
  if (from.is_int() || from.is_bool()) return from_double(to, to_double(d) + a, p);
  if (is_f64(to)) return to_double(d) + a;
  if (is_f64(from)) return from_double(to, a, p);
  // between float32, float16 and bfloat16 (held as float): widening is exact, narrowing rounds once
  if (to.scalar == ScalarType::FLOAT32) return to_float(d) + a;
  return round_to(to, a, p);
}

std::string bitcast(const UOp& u, const Src& s, Prelude& p) {
  DType to = u.dtype, from = u.src[0]->dtype;
  if (to == from) return s[0];
  if (to.itemsize() != from.itemsize()) throw InternalError("c renderer: BITCAST between sizes: " + from.name() + " -> " + to.name());
  return p.bitcast(from, to) + "(" + s[0] + ")";
}

std::string maximum(const UOp& u, const Src& s, Prelude& p) {
  ConstantSide side = max_by_constant(u);
  if (side == ConstantSide::left) return "(" + s[1] + " <= " + s[0] + " ? " + s[0] + " : " + s[1] + ")";
  // floats with a NaN-free constant on the right, or ints: no NaN test
  if (u.dtype.is_float() && side == ConstantSide::none) return p.fmax(u.dtype) + "(" + s[0] + ", " + s[1] + ")";
  return "(" + s[0] + " < " + s[1] + " ? " + s[1] + " : " + s[0] + ")";
}

std::string mulacc(const UOp& u, const Src& s, Prelude& p) {
  DType dt = u.dtype;
  const CDialect& d = p.dialect();
  if (dt.is_float())  // the fused multiply-add, one rounding (float16/bfloat16: fmaf, then rounded to dt)
    return round_to(dt, d.math_fn("fma", dt) + "(" + widen(d, dt, s[0]) + ", " + widen(d, dt, s[1]) + ", " + widen(d, dt, s[2]) + ")", p);
  if (narrow(dt)) return int_arith(d, u, "+", int_arith(d, u, "*", s[0], s[1]), s[2]);
  std::string t = d.value_type(dt), ut = unsigned_type(d, dt);
  return "(" + t + ")((" + ut + ")" + s[0] + " * (" + ut + ")" + s[1] + " + (" + ut + ")" + s[2] + ")";
}

std::string bits(const UOp& u, const Src& s, Prelude& p, const char* op) {
  if (u.dtype.is_float()) throw InternalError("c renderer: " + std::string(op_name(u.op)) + " of " + u.dtype.name());
  return cast_back(p.dialect(), u.dtype, s[0] + " " + op + " " + s[1]);
}

// a comparison; `negate` writes !(...) as the spec's decompositions of CMPGE, CMPLE, CMPEQ do
std::string compare(const std::string& a, const char* op, const std::string& b, bool negate = false) {
  std::string e = a + " " + op + " " + b;
  return negate ? "(!(" + e + "))" : paren(e);
}

const std::array<Rule, kNumOps>& rules() {
  static const std::array<Rule, kNumOps> table = [] {
    std::array<Rule, kNumOps> t;
    auto set = [&](Ops op, Rule r) { t[size_t(op)] = std::move(r); };
    set(Ops::ADD, [](const UOp& u, const Src& s, Prelude& p) { return arith(u, "+", s, p); });
    set(Ops::SUB, [](const UOp& u, const Src& s, Prelude& p) { return arith(u, "-", s, p); });
    set(Ops::MUL, [](const UOp& u, const Src& s, Prelude& p) { return arith(u, "*", s, p); });
    set(Ops::DIV, [](const UOp& u, const Src& s, Prelude& p) {
      if (!u.dtype.is_float()) throw InternalError("c renderer: DIV of " + u.dtype.name() + " (IDIV is integer division)");
      return arith(u, "/", s, p);
    });
    set(Ops::NEG, neg);
    set(Ops::MAX, maximum);
    set(Ops::MULACC, mulacc);
    set(Ops::IDIV, [](const UOp& u, const Src& s, Prelude& p) { return divmod(u, s, p, true); });
    set(Ops::MOD, [](const UOp& u, const Src& s, Prelude& p) { return divmod(u, s, p, false); });
    // comparisons as the spec decomposes them, so NaN behaves as the lowered forms would
    set(Ops::CMPLT, [](const UOp&, const Src& s, Prelude&) { return compare(s[0], "<", s[1]); });
    set(Ops::CMPNE, [](const UOp&, const Src& s, Prelude&) { return compare(s[0], "!=", s[1]); });
    set(Ops::CMPGT, [](const UOp&, const Src& s, Prelude&) { return compare(s[1], "<", s[0]); });
    set(Ops::CMPGE, [](const UOp&, const Src& s, Prelude&) { return compare(s[0], "<", s[1], true); });
    set(Ops::CMPLE, [](const UOp&, const Src& s, Prelude&) { return compare(s[1], "<", s[0], true); });
    set(Ops::CMPEQ, [](const UOp&, const Src& s, Prelude&) { return compare(s[0], "!=", s[1], true); });
    set(Ops::NOT, [](const UOp& u, const Src& s, Prelude& p) {  // spec: CMPNE(A, 1)
      return u.dtype.is_bool() ? paren(s[0] + " != 1") : p.dialect().cast(u.dtype) + "(" + s[0] + " != 1)";
    });
    set(Ops::XOR, [](const UOp& u, const Src& s, Prelude& p) { return bits(u, s, p, "^"); });
    set(Ops::OR, [](const UOp& u, const Src& s, Prelude& p) { return bits(u, s, p, "|"); });
    set(Ops::AND, [](const UOp& u, const Src& s, Prelude& p) { return bits(u, s, p, "&"); });
    set(Ops::SHL, [](const UOp& u, const Src& s, Prelude& p) { return p.shift(true, u.dtype) + "(" + s[0] + ", " + s[1] + ")"; });
    set(Ops::SHR, [](const UOp& u, const Src& s, Prelude& p) { return p.shift(false, u.dtype) + "(" + s[0] + ", " + s[1] + ")"; });
    set(Ops::WHERE, [](const UOp&, const Src& s, Prelude&) { return "(" + s[0] + " ? " + s[1] + " : " + s[2] + ")"; });
    set(Ops::RECIP, [](const UOp& u, const Src& s, Prelude& p) {
      if (!u.dtype.is_float()) throw InternalError("c renderer: RECIP of " + u.dtype.name());
      return round_to(u.dtype, (is_f64(u.dtype) ? "1.0" : "1.0" + p.dialect().float_suffix) + " / " + widen(p.dialect(), u.dtype, s[0]), p);
    });
    set(Ops::TRUNC, [](const UOp& u, const Src& s, Prelude& p) { return u.dtype.is_float() ? unary_math(u, s, p, "trunc") : s[0]; });
    set(Ops::SQRT, [](const UOp& u, const Src& s, Prelude& p) { return unary_math(u, s, p, "sqrt"); });
    set(Ops::EXP2, [](const UOp& u, const Src& s, Prelude& p) { return unary_math(u, s, p, "exp2"); });
    set(Ops::LOG2, [](const UOp& u, const Src& s, Prelude& p) { return unary_math(u, s, p, "log2"); });
    set(Ops::SIN, [](const UOp& u, const Src& s, Prelude& p) { return unary_math(u, s, p, "sin"); });
    set(Ops::POW, [](const UOp& u, const Src& s, Prelude& p) {
      if (!u.dtype.is_float()) throw InternalError("c renderer: POW of " + u.dtype.name());
      const CDialect& d = p.dialect();
      return from_double(u.dtype, p.pow() + "(" + to_double(d) + s[0] + ", " + to_double(d) + s[1] + ")", p);
    });
    set(Ops::CAST, cast);
    set(Ops::BITCAST, bitcast);
    return t;
  }();
  return table;
}

}  // namespace

ConstantSide max_by_constant(const UOp& u) {
  if (u.op != Ops::MAX || !u.dtype.is_float() || u.src.size() != 2) return ConstantSide::none;
  if (constant_without_nan(*u.src[1])) return ConstantSide::right;
  return constant_without_nan(*u.src[0]) ? ConstantSide::left : ConstantSide::none;
}

std::string alu_expr(const UOp& u, const std::vector<std::string>& src, Prelude& prelude) {
  const Rule& rule = rules()[size_t(u.op)];
  if (!rule) throw InternalError("c renderer: no C for " + std::string(op_name(u.op)) + " (" + u.brief() + ")");
  if (src.size() != u.src.size()) throw InternalError("c renderer: " + u.brief() + " has the wrong number of sources");
  return rule(u, src, prelude);
}

}  // namespace onegrad::c_render
