// Pieces of the C-style renderer (c_renderer.h) shared by its files: literals of each dtype
// (c_types.cpp), the helper functions a kernel may need (c_prelude.cpp) and the expression of each
// elementwise op (c_alu.cpp), each spelled by the kernel's dialect (render/c_dialect.h; the Prelude
// carries it). docs/codegen.md lists the rules they implement.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

#include "render/c_dialect.h"
#include "uop/uop.h"

namespace onegrad::c_render {

// The types (CDialect::value_type, storage_type): bool, index as int64, float16, bfloat16 as float32
// (holding a value rounded to bfloat16); in memory bool is a byte (of any value, read as `!= 0`)
// and bfloat16 its 16 bits.
// A short tag for helper names: i8 .. i64, u8 .. u64, f16, bf16, f32, f64, b (bool); index is i64.
std::string type_tag(DType dt);
// An expression of type value_type(dt) for the constant `v`.
std::string literal(const CDialect& d, const ConstValue& v, DType dt);
// The shortest decimal that reads back as the same double, always with a '.' or an exponent.
std::string double_text(double v);

// The helper functions one kernel uses, written once each ahead of the kernel, in a fixed order.
class Prelude {
 public:
  explicit Prelude(const CDialect& dialect) : d_(dialect) {}
  const CDialect& dialect() const { return d_; }
  // Helpers by family; each returns the function's name and records that it is needed.
  std::string bf16();                   // og_bfr(float): round to bfloat16; also og_f2bf, og_bf2f
  std::string floor_div(DType dt);      // og_fdiv_i32/i64(a, b): floor division, b != 0
  std::string floor_mod(DType dt);      // og_fmod_i32/i64(a, b): floor modulo, b != 0
  std::string shift(bool left, DType dt);  // og_shl_T / og_shr_T: any shift amount
  std::string fmax(DType dt);           // og_fmax_T: NaN-propagating max
  std::string float_to_int(DType dt);   // og_f2i_T(double): truncate, saturate, NaN -> 0
  std::string bitcast(DType from, DType to);  // og_bitcast_F_T
  std::string pow();                    // og_pow(double, double)
  std::string float_mod();              // og_ffmod(double, double): Python float %
  // c_vector.cpp: vector values (codegen/vector_lanes.h)
  std::string vector(DType dt, int64_t lanes);        // the typedef og_f32x8 (GCC vector_size)
  std::string vector_load(DType dt, int64_t lanes);   // og_load_f32x8(const float*): unaligned
  std::string vector_store(DType dt, int64_t lanes);  // og_store_f32x8(float*, og_f32x8): unaligned
  std::string vector_fmax(DType dt, int64_t lanes);   // og_fmax_f32x8: fmax's NaN rule lane by lane
  // og_fmaxr_f32x8(a, c) / og_fmaxl_f32x8(c, a): MAX with a constant operand c that has no NaN lane,
  // right or left (max_by_constant)
  std::string vector_fmax_by_constant(DType dt, int64_t lanes, bool constant_left);
  std::string vector_fma(DType dt, int64_t lanes);    // og_fma_f32x8: fmaf lane by lane (MULACC)
  std::string vector_where(DType dt, int64_t lanes);  // og_where_f32x8(mask, a, b): WHERE lane by lane
  std::string vector_splat(DType dt, int64_t lanes);  // og_splat_f32x8(float): one loaded value in every lane
  std::string vector_type(DType dt, int64_t lanes);   // vector's type, of any dtype (vector_fmax's masks)
  std::string vector_pick2();                         // og_pick2(M, a, b, i...): lanes i of a then b (a shuffle)
  // The text of every recorded helper.
  std::string text() const;

 private:
  std::string need(const std::string& name, std::string body);
  const CDialect& d_;
  std::map<std::string, std::string> helpers_;  // by name (sorted: deterministic text)
  std::vector<std::string> order_;              // first-needed order, dependencies first
};

// Whether the C of op on dt (a comparison's: its operands'; WHERE's: its choices') works lane by
// lane on vector types (c_vector.cpp), whether a BITCAST
// from vectors of `from` to vectors of `to` does (lanes of one size: a vector cast), and the lane
// counts of dt's vector types, preferred first (empty: dt is not vectorized): 32 bytes (AVX2's
// register; CPU_VECTOR_BYTES=16 or 64 instead, ArgumentError for another value), then halves.
bool has_vector_form(Ops op, DType dt);
bool has_vector_bitcast(DType from, DType to);
std::vector<int64_t> vector_widths(DType dt);
// The unsigned int dtype of dt's size (c_prelude.cpp): where a signed dt's shifts and vector
// lanes compute, so that they wrap.
DType unsigned_of(DType dt);
// The signed int dtype of `itemsize` bytes (c_prelude.cpp): the lanes of a vector mask or shuffle
// index vector for lanes of that size.
DType signed_of_size(int64_t itemsize);
// MAX(a, c) or MAX(c, a) of floats where c is a constant without NaN (a CONST, or a STACK of them):
// fmax's rule then needs no NaN test, since a NaN a fails every comparison with c and is chosen
// itself. MAX(a, c) is `a < c ? c : a`, MAX(c, a) `a <= c ? c : a`
// (the tie of +0 and -0 keeps the first operand, as fmax does). The side c is on, if either.
enum class ConstantSide { none, left, right };
ConstantSide max_by_constant(const UOp& u);
// alu_expr for a vector of `lanes` lanes (InternalError for an op without a vector form); the
// dialect's vector_expr where it has one.
std::string vector_alu_expr(const UOp& u, int64_t lanes, const std::vector<std::string>& src, Prelude& prelude);
// A vector comparison lane by lane as C spells it: `expr` is a < b or a != b (operands swapped for
// CMPGT and CMPLE), and `negate` says the op is that mask's complement (CMPGE, CMPLE, CMPEQ: the
// negations C's scalar form writes, true where an operand is NaN as C's !(a < b) is).
struct VectorCompare {
  std::string expr;
  bool negate = false;
};
VectorCompare vector_compare(Ops op, const std::string& a, const std::string& b);
// A vector read from the address of its first element, and the statement writing one there: the
// dialect's vector_load / vector_store, or C's memcpy helpers.
std::string vector_load_expr(const std::string& address, DType dt, int64_t lanes, Prelude& prelude);
std::string vector_store_stmt(const std::string& address, const std::string& value, DType dt, int64_t lanes, Prelude& prelude);

// The C expression of elementwise op `u` (ALU, CAST or BITCAST) over the expressions of its sources.
std::string alu_expr(const UOp& u, const std::vector<std::string>& src, Prelude& prelude);

}  // namespace onegrad::c_render
