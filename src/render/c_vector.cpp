// GCC/clang vector extension types for the vector values of codegen/vector_lanes.h: a typedef per
// (dtype, lane count), which -march=native maps to SSE/AVX registers, and unaligned loads and stores
// through memcpy (the compiler emits one vmovups; a buffer's elements need only their own alignment).
// Int lanes are not promoted (a uint8 lane wraps at 8 bits, as C's cast back of the scalar's int
// result does), and signed ones compute in their unsigned type, so every lane wraps as the scalar
// C of c_alu.cpp does.
#include "render/c_support.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad::c_render {

// C's vectors are float32/float64 and ints (GCC typedefs), a bool vector an int32 mask (-1 true, 0
// false: what GCC's comparison of 4-byte lanes gives); a dialect with built-in vector types (OpenCL
// C) has them for every int and float type, and a bool vector is a vector of its mask type.
std::string Prelude::vector(DType dt, int64_t lanes) {
  bool builtin = d_.vector_typedef.empty();
  if (dt.is_bool() && !builtin && !d_.vector_mask.empty()) return vector_type(dtypes::int32, lanes);  // C: og_i32x8
  if (dt.is_bool() && !d_.vector_mask.empty()) return fill(d_.vector_name, {{"T", d_.vector_mask}, {"n", std::to_string(lanes)}, {"tag", "b"}});
  if (dt.is_bool() || dt.scalar == ScalarType::BFLOAT16 || (!builtin && dt.scalar == ScalarType::FLOAT16))
    throw InternalError("c renderer: no vector type for " + dt.name());
  return vector_type(dt, lanes);
}

std::string Prelude::vector_type(DType dt, int64_t lanes) {
  std::string t = d_.value_type(dt), n = std::to_string(lanes);
  std::string name = fill(d_.vector_name, {{"tag", type_tag(dt)}, {"n", n}, {"T", t}});
  if (d_.vector_typedef.empty()) return name;  // a built-in vector type
  return need(name, fill(d_.vector_typedef, {{"T", t}, {"V", name}, {"bytes", std::to_string(dt.itemsize() * lanes)}}));
}

namespace {
// The part of a vector helper's name after its family: "f32x8".
std::string lanes_tag(DType dt, int64_t lanes) { return type_tag(dt) + "x" + std::to_string(lanes); }
}  // namespace

std::string vector_load_expr(const std::string& address, DType dt, int64_t lanes, Prelude& prelude) {
  const CDialect& d = prelude.dialect();
  if (!d.vector_load.empty()) return fill(d.vector_load, {{"n", std::to_string(lanes)}, {"p", address}});
  return prelude.vector_load(dt, lanes) + "(" + address + ")";
}

std::string vector_store_stmt(const std::string& address, const std::string& value, DType dt, int64_t lanes, Prelude& prelude) {
  const CDialect& d = prelude.dialect();
  if (!d.vector_store.empty()) return fill(d.vector_store, {{"n", std::to_string(lanes)}, {"p", address}, {"v", value}});
  return prelude.vector_store(dt, lanes) + "(" + address + ", " + value + ");";
}

std::string Prelude::vector_load(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), t = d_.value_type(dt), name = "og_load_" + lanes_tag(dt, lanes);
  return need(name, d_.helper_prefix + v + " " + name + "(const " + t + "* p) { " + v + " v; memcpy(&v, p, sizeof v); return v; }\n");
}

std::string Prelude::vector_store(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), t = d_.value_type(dt), name = "og_store_" + lanes_tag(dt, lanes);
  return need(name, d_.helper_prefix + "void " + name + "(" + t + "* p, " + v + " v) { memcpy(p, &v, sizeof v); }\n");
}

namespace {

// The body line that returns x where the mask (-1 or 0 in every lane, of the int type m of the
// lanes' size) is set and y where it is not: C has no ?: on vectors, so the choices' bits are
// blended (a vector cast between types of one size reinterprets them).
std::string blend_return(const std::string& v, const std::string& m, const std::string& mask, const std::string& x, const std::string& y) {
  return "  return (" + v + ")((" + mask + " & (" + m + ")" + x + ") | (~" + mask + " & (" + m + ")" + y + "));\n";
}

}  // namespace

// MAX as og_fmax does it (b where a < b or b is NaN, else a), lane by lane.
std::string Prelude::vector_fmax(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), m = vector_type(signed_of_size(int64_t(dt.itemsize())), lanes), name = "og_fmax_" + lanes_tag(dt, lanes);
  return need(name, d_.helper_prefix + v + " " + name + "(" + v + " a, " + v + " b) {  /* a NaN operand gives NaN */\n"
                    "  " + m + " pick_b = (" + m + ")((a < b) | (b != b));\n" +
                    blend_return(v, m, "pick_b", "b", "a") + "}\n");
}

// MAX by a constant without NaN lanes (max_by_constant): one comparison and a blend of bits.
std::string Prelude::vector_fmax_by_constant(DType dt, int64_t lanes, bool constant_left) {
  std::string v = vector(dt, lanes), m = vector_type(signed_of_size(int64_t(dt.itemsize())), lanes);
  std::string name = std::string(constant_left ? "og_fmaxl_" : "og_fmaxr_") + lanes_tag(dt, lanes);
  std::string head = constant_left ? "(" + v + " c, " + v + " a) {  /* c has no NaN lane: max(c, a) */\n  " + m + " pick_c = (" + m + ")(a <= c);\n"
                                   : "(" + v + " a, " + v + " c) {  /* c has no NaN lane: max(a, c) */\n  " + m + " pick_c = (" + m + ")(a < c);\n";
  return need(name, d_.helper_prefix + v + " " + name + head + blend_return(v, m, "pick_c", "c", "a") + "}\n");
}

// WHERE lane by lane, the mask's bits blending the two choices.
std::string Prelude::vector_where(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), m = vector(dtypes::bool_, lanes), name = "og_where_" + lanes_tag(dt, lanes);
  return need(name, d_.helper_prefix + v + " " + name + "(" + m + " c, " + v + " a, " + v + " b) {\n" +
                    blend_return(v, m, "c", "a", "b") + "}\n");
}

// MULACC's fused multiply-add lane by lane: C has no fma on vector types. The lanes are written as
// one vector of fmaf calls, which GCC's SLP vectorizer turns into one vfmadd per register under
// -march=native where the host has FMA (libm's fmaf, as exact, where it has not); a loop over the
// lanes would stay scalar in a kernel compiled with no-tree-loop-vectorize (c_renderer.cpp).
std::string Prelude::vector_fma(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), name = "og_fma_" + lanes_tag(dt, lanes), fn = d_.math_fn("fma", dt), body;
  for (int64_t i = 0; i < lanes; i++) {
    std::string x = "[" + std::to_string(i) + "]";
    body += (i ? ", " : "") + fn + "(a" + x + ", b" + x + ", c" + x + ")";
  }
  return need(name, d_.helper_prefix + v + " " + name + "(" + v + " a, " + v + " b, " + v + " c) {\n"
                    "  return (" + v + "){" + body + "};\n"
                    "}\n");
}

// A loaded scalar in every lane. Written as a vector literal of one value, GCC's SLP vectorizer may
// load a whole vector from the scalar's address and broadcast its first lane (two instructions, and
// a read past the scalar); the empty asm makes the vector opaque once built, so the broadcast stays
// the one vbroadcastss from memory that the literal means.
std::string Prelude::vector_splat(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), t = d_.value_type(dt), name = "og_splat_" + lanes_tag(dt, lanes), all;
  for (int64_t i = 0; i < lanes; i++) all += (i ? ", x" : "x");
  return need(name, d_.helper_prefix + v + " " + name + "(" + t + " x) {\n"
                    "  " + v + " v = (" + v + "){" + all + "};\n"
                    "#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))\n"
                    "  __asm__(\"\" : \"+v\"(v));\n"
                    "#endif\n"
                    "  return v;\n"
                    "}\n");
}

// Lanes of two vectors of one type picked by constant indices (0..k-1 the first's, k..2k-1 the
// second's) as one shuffle: GCC's __builtin_shuffle takes them as a vector of type M, clang's
// __builtin_shufflevector as constants. A vector literal of the lanes (v[0], v[2], ...) would be
// built lane by lane.
std::string Prelude::vector_pick2() {
  return need("og_pick2",
              "#if defined(__clang__)\n"
              "#define og_pick2(M, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)\n"
              "#else\n"
              "#define og_pick2(M, a, b, ...) __builtin_shuffle(a, b, (M){__VA_ARGS__})\n"
              "#endif\n");
}

namespace {

bool float_lanes(DType dt) { return dt == dtypes::float32 || dt == dtypes::float64; }
bool int_lanes(DType dt) { return dt.is_int() && !dt.is_index(); }

// An int op on vectors: signed lanes are reinterpreted as unsigned ones (a vector cast between
// types of one size keeps the bits), computed there, where overflow wraps, and reinterpreted back.
std::string int_vector_expr(const UOp& u, int64_t lanes, const std::vector<std::string>& src, Prelude& prelude) {
  const char* op = u.op == Ops::ADD ? " + " : u.op == Ops::SUB ? " - " : u.op == Ops::MUL ? " * "
                 : u.op == Ops::AND ? " & " : u.op == Ops::OR ? " | " : u.op == Ops::XOR ? " ^ " : nullptr;
  bool wrap = u.dtype.is_signed_int() && (u.op == Ops::ADD || u.op == Ops::SUB || u.op == Ops::MUL || u.op == Ops::NEG || u.op == Ops::MULACC);
  std::string un = wrap ? "(" + prelude.vector(unsigned_of(u.dtype), lanes) + ")" : "";
  std::string e;
  if (u.op == Ops::NEG) e = "-" + un + src[0];
  else if (u.op == Ops::MULACC) e = un + src[0] + " * " + un + src[1] + " + " + un + src[2];
  else if (op) e = un + src[0] + op + un + src[1];
  else throw InternalError("c renderer: no vector form of " + u.brief());
  return wrap ? "(" + prelude.vector(u.dtype, lanes) + ")(" + e + ")" : "(" + e + ")";
}

// A comparison's mask: GCC compares vectors lane by lane into -1 (true) or 0 (false) of the
// operands' lane size (4 bytes here).
std::string compare_expr(const UOp& u, int64_t lanes, const std::vector<std::string>& src, Prelude& prelude) {
  VectorCompare c = vector_compare(u.op, src[0], src[1]);
  std::string mask = "(" + prelude.vector(dtypes::bool_, lanes) + ")(" + c.expr + ")";
  return c.negate ? "(~" + mask + ")" : mask;
}

}  // namespace

std::string vector_alu_expr(const UOp& u, int64_t lanes, const std::vector<std::string>& src, Prelude& prelude) {
  if (prelude.dialect().vector_expr) return prelude.dialect().vector_expr(u, lanes, src, prelude);
  if (u.op == Ops::BITCAST) {
    DType from = u.src[0]->dtype;
    if (!has_vector_bitcast(from, u.dtype)) throw InternalError("c renderer: no vector form of " + u.brief() + " (vectorize leaves it scalar)");
    return "(" + prelude.vector(u.dtype, lanes) + ")(" + src[0] + ")";  // same size: the bits reinterpreted
  }
  DType operand = u.op == Ops::WHERE ? u.dtype : u.src.empty() ? u.dtype : u.src[0]->dtype;
  if (!has_vector_form(u.op, operand)) throw InternalError("c renderer: no vector form of " + u.brief() + " (vectorize leaves it scalar)");
  if (is_comparison(u.op)) return compare_expr(u, lanes, src, prelude);
  if (u.op == Ops::WHERE) return prelude.vector_where(u.dtype, lanes) + "(" + src[0] + ", " + src[1] + ", " + src[2] + ")";
  if (u.dtype.is_bool()) return "(" + src[0] + (u.op == Ops::AND ? " & " : u.op == Ops::OR ? " | " : " ^ ") + src[1] + ")";  // masks
  if (int_lanes(u.dtype)) return int_vector_expr(u, lanes, src, prelude);
  if (ConstantSide side = max_by_constant(u); side != ConstantSide::none)
    return prelude.vector_fmax_by_constant(u.dtype, lanes, side == ConstantSide::left) + "(" + src[0] + ", " + src[1] + ")";
  if (u.op == Ops::MAX) return prelude.vector_fmax(u.dtype, lanes) + "(" + src[0] + ", " + src[1] + ")";
  if (u.op == Ops::MULACC) return prelude.vector_fma(u.dtype, lanes) + "(" + src[0] + ", " + src[1] + ", " + src[2] + ")";
  return alu_expr(u, src, prelude);
}

bool has_vector_form(Ops op, DType dt) {
  // comparisons (dt: the operands') and WHERE (dt: the choices') of 4-byte lanes, whose masks are
  // the int32 lanes of a bool vector; AND, OR, XOR of masks
  if (is_comparison(op) || op == Ops::WHERE) return (float_lanes(dt) || int_lanes(dt)) && dt.itemsize() == 4;
  if (dt.is_bool()) return op == Ops::AND || op == Ops::OR || op == Ops::XOR;
  if (int_lanes(dt)) {
    switch (op) {
      case Ops::ADD: case Ops::SUB: case Ops::MUL: case Ops::NEG: case Ops::MULACC:  // wrapping (int_vector_expr)
      case Ops::AND: case Ops::OR: case Ops::XOR:
        return true;
      // MAX (C has no ?: on vectors), IDIV/MOD (floor rules, zero divisors), shifts (any amount:
      // og_shl's tests): scalar
      default: return false;
    }
  }
  if (!float_lanes(dt)) return false;
  switch (op) {
    // the same C text as on scalars: GCC applies them lane by lane (a scalar operand of RECIP's
    // `1.0f / v` is broadcast)
    case Ops::ADD: case Ops::SUB: case Ops::MUL: case Ops::DIV: case Ops::NEG: case Ops::RECIP:
    case Ops::MAX:     // og_fmax_f32x16 (vector_fmax)
    case Ops::MULACC:  // og_fma_f32x16 (vector_fma)
      return true;
    default: return false;  // casts, libm calls: scalar
  }
}

bool has_vector_bitcast(DType from, DType to) {
  return from.itemsize() == to.itemsize() && (float_lanes(from) || int_lanes(from)) && (float_lanes(to) || int_lanes(to));
}

namespace {

// The widest vector the kernels use: 32 bytes (AVX2's registers; where registers are narrower GCC
// splits the vector types), or CPU_VECTOR_BYTES (16, 32 or 64). 32 on an AVX-512 host too: the
// heuristics size their register blocks in 8-lane vectors, and with 16 lanes the real models ran up
// to 2.8x slower (AMD EPYC Zen 4, 2026-11-30, bench/onnx_latency.py: PaddleOCR rec at batch 1
// 28.8 ms with 64-byte vectors, 10.2-10.4 ms with 32; BENCHMARKS.md, "Vector width on an AVX-512 host").
int64_t kernel_vector_bytes() {
  int64_t bytes = setting("CPU_VECTOR_BYTES", 32);
  if (bytes != 16 && bytes != 32 && bytes != 64)
    throw ArgumentError("CPU_VECTOR_BYTES: the widest vector of the C kernels is 16, 32 or 64 bytes, got " + std::to_string(bytes));
  return bytes;
}

}  // namespace

std::vector<int64_t> vector_widths(DType dt) {
  if (!float_lanes(dt) && !int_lanes(dt)) return {};
  std::vector<int64_t> out;  // one register of the widest kind, then halves down to 16 bytes
  for (int64_t bytes = kernel_vector_bytes(); bytes >= 16; bytes /= 2) out.push_back(bytes / dt.itemsize());
  return out;
}

VectorCompare vector_compare(Ops op, const std::string& a, const std::string& b) {
  switch (op) {
    case Ops::CMPLT: return {a + " < " + b, false};
    case Ops::CMPNE: return {a + " != " + b, false};
    case Ops::CMPGT: return {b + " < " + a, false};
    case Ops::CMPGE: return {a + " < " + b, true};
    case Ops::CMPLE: return {b + " < " + a, true};
    default: return {a + " != " + b, true};  // CMPEQ
  }
}

}  // namespace onegrad::c_render
