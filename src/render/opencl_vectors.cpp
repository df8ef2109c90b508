#include "render/opencl_vectors.h"

#include <algorithm>

#include "uop/errors.h"

namespace onegrad {

namespace {

using c_render::Prelude;
using c_render::unsigned_of;
using Src = std::vector<std::string>;

bool float_lanes(DType dt) { return dt == dtypes::float32 || dt == dtypes::float64; }
bool int_lanes(DType dt) { return dt.is_int() && !dt.is_index(); }

// The ops with a lane-by-lane form on vectors of dt (a comparison: dt is its operands').
bool renders(Ops op, DType dt) {
  if (!float_lanes(dt) && !int_lanes(dt)) return false;
  if (is_comparison(op) || op == Ops::WHERE) return true;
  switch (op) {
    case Ops::ADD: case Ops::SUB: case Ops::MUL: case Ops::NEG: case Ops::MULACC: case Ops::MAX: return true;
    case Ops::DIV: case Ops::RECIP: return dt.is_float();
    case Ops::AND: case Ops::OR: case Ops::XOR: return dt.is_int();
    default: return false;  // IDIV/MOD (floor rules, zero divisors), shifts, math functions: scalar
  }
}

// Casts one OpenCL conversion computes as C does (c_alu.cpp's cast): int to float goes through
// double there, which only an int64 to float32 conversion rounds differently from a direct one
// (it is written through double, where the device has it); float to int truncates and saturates,
// NaN giving 0 (convert_T_sat_rtz); ints wrap.
bool casts(DType from, DType to, bool fp64) {
  if (!(float_lanes(from) || int_lanes(from)) || !(float_lanes(to) || int_lanes(to))) return false;
  if (from.is_int() && to == dtypes::float32 && from.bits() == 64) return fp64;
  return true;
}

// as_T{n}() between vectors of one size: ints and floats of one width (float64 with cl_khr_fp64).
bool bitcasts(DType from, DType to, bool fp64) {
  auto lanes = [fp64](DType dt) { return int_lanes(dt) || dt == dtypes::float32 || (dt == dtypes::float64 && fp64); };
  return from.itemsize() == to.itemsize() && lanes(from) && lanes(to);
}

// The lanes of the device's preferred vector first (float16 on PoCL with AVX-512: a float4 matmul
// block of 8 x 16 needed 64 registers of accumulators and ran at 0.6x the float16 one), capped at
// OpenCL C's 16 lanes; then the others, widest first.
std::vector<int64_t> widths(DType dt, bool fp64, int64_t preferred_bytes) {
  if (!(float_lanes(dt) || int_lanes(dt)) || (dt == dtypes::float64 && !fp64)) return {};
  int64_t preferred = std::clamp<int64_t>(preferred_bytes / dt.itemsize(), 2, 16);
  std::vector<int64_t> out{preferred};
  for (int64_t k : {16, 8, 4, 2})
    if (k != preferred) out.push_back(k);
  return out;
}

std::string paren(const std::string& e) { return "(" + e + ")"; }

class Spelling {
 public:
  Spelling(const UOp& u, int64_t lanes, const Src& src, Prelude& p) : u_(u), k_(lanes), s_(src), p_(p) {}

  std::string expr() {
    if (u_.op == Ops::CAST) return cast();
    if (u_.op == Ops::BITCAST) return as(u_.dtype, s_[0]);  // lanes of one size: the bits kept
    if (is_comparison(u_.op)) return compare();
    if (u_.op == Ops::WHERE) return where();
    DType dt = u_.dtype;
    if (dt.is_float()) return float_op();
    return int_op();
  }

 private:
  std::string vec(DType dt) const { return p_.vector(dt, k_); }
  std::string as(DType dt, const std::string& e) const { return "as_" + vec(dt) + paren(e); }
  std::string convert(DType dt, const std::string& e, const std::string& mode = "") const { return "convert_" + vec(dt) + mode + paren(e); }

  // The C of the scalar op works lane by lane on OpenCL float vectors (a scalar literal operand of
  // RECIP is broadcast; MULACC's fma() is overloaded on vectors); MAX is og_fmax's rule.
  std::string float_op() {
    if (u_.op != Ops::MAX) return c_render::alu_expr(u_, s_, p_);
    const std::string &a = s_[0], &b = s_[1];  // a NaN operand gives a + b, else a < b ? b : a
    return "select(select(" + a + ", " + b + ", " + a + " < " + b + "), " + a + " + " + b + ", isnan(" + a + ") | isnan(" + b + "))";
  }

  // Signed ints compute in their unsigned type and are reinterpreted back: they wrap, as C's rules
  // make the scalar ops wrap (OpenCL does not promote vector lanes, so char lanes wrap at 8 bits
  // as C's cast back of the int result does).
  std::string int_op() {
    DType dt = u_.dtype;
    if (u_.op == Ops::MAX) return "max(" + s_[0] + ", " + s_[1] + ")";
    const char* op = u_.op == Ops::ADD ? " + " : u_.op == Ops::SUB ? " - " : u_.op == Ops::MUL ? " * "
                   : u_.op == Ops::AND ? " & " : u_.op == Ops::OR ? " | " : u_.op == Ops::XOR ? " ^ " : nullptr;
    bool wrap = dt.is_signed_int() && u_.op != Ops::AND && u_.op != Ops::OR && u_.op != Ops::XOR;
    auto lane = [&](const std::string& e) { return wrap ? as(unsigned_of(dt), e) : e; };
    std::string e;
    if (u_.op == Ops::NEG) e = "-" + lane(s_[0]);
    else if (u_.op == Ops::MULACC) e = lane(s_[0]) + " * " + lane(s_[1]) + " + " + lane(s_[2]);
    else if (op) e = lane(s_[0]) + op + lane(s_[1]);
    else throw InternalError("opencl renderer: no vector form of " + u_.brief());
    return wrap ? as(dt, e) : paren(e);
  }

  // A bool vector is an int mask whatever the operands' size (the comparison's own result type is
  // the signed int of their size): -1 true, 0 false. CMPGE, CMPLE and CMPEQ are the negations C
  // writes (true for NaN operands where C's !(a < b) is).
  std::string compare() {
    DType operand = u_.src[0]->dtype;
    c_render::VectorCompare c = c_render::vector_compare(u_.op, s_[0], s_[1]);
    std::string mask = operand.itemsize() == 4 ? paren(c.expr) : convert(dtypes::int32, c.expr);
    return c.negate ? "(~" + mask + ")" : mask;
  }

  // select(b, a, m) takes a where m's lane has its top bit set; m must have the lanes' size.
  std::string where() {
    int size = u_.dtype.itemsize();
    std::string m = size == 4 ? s_[0] : convert(c_render::signed_of_size(size), s_[0]);
    return "select(" + s_[2] + ", " + s_[1] + ", " + m + ")";
  }

  std::string cast() {
    DType to = u_.dtype, from = u_.src[0]->dtype;
    const std::string& a = s_[0];
    if (to == from) return a;
    if (to.is_int() && from.is_float()) return convert(to, a, "_sat_rtz");  // truncate, saturate, NaN -> 0
    if (to == dtypes::float32 && from.is_int() && from.bits() == 64) return convert(to, convert(dtypes::float64, a));
    return convert(to, a);  // rounds to nearest even (int -> float, float64 -> float32); ints wrap
  }

  const UOp& u_;
  int64_t k_;
  const Src& s_;
  Prelude& p_;
};

}  // namespace

VectorUnit opencl_vector_unit(bool fp64, int64_t preferred_bytes) {
  VectorUnit v;
  if (preferred_bytes <= 0) preferred_bytes = 16;
  v.widths = [fp64, preferred_bytes](DType dt) { return widths(dt, fp64, preferred_bytes); };
  v.renders = renders;
  v.casts = [fp64](DType from, DType to) { return casts(from, to, fp64); };
  v.bitcasts = [fp64](DType from, DType to) { return bitcasts(from, to, fp64); };
  return v;
}

std::string opencl_vector_expr(const UOp& u, int64_t lanes, const Src& src, Prelude& prelude) {
  return Spelling(u, lanes, src, prelude).expr();
}

}  // namespace onegrad
