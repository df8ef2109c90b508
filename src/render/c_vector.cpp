// GCC/clang vector extension types for the vector values of codegen/vector_lanes.h: a typedef per
// (dtype, lane count), which -march=native maps to SSE/AVX registers, and unaligned loads and stores
// through memcpy (the compiler emits one vmovups; a buffer's elements need only their own alignment).
#include "render/c_support.h"
#include "uop/errors.h"

namespace onegrad::c_render {

std::string Prelude::vector(DType dt, int64_t lanes) {
  if (!dt.is_float() || dt.scalar == ScalarType::FLOAT16 || dt.scalar == ScalarType::BFLOAT16)
    throw InternalError("c renderer: no vector type for " + dt.name());
  std::string t = value_type(dt), name = "og_" + type_tag(dt) + "x" + std::to_string(lanes);
  return need(name, "typedef " + t + " " + name + " __attribute__((vector_size(" + std::to_string(dt.itemsize() * lanes) + ")));\n");
}

std::string Prelude::vector_load(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), t = value_type(dt), name = "og_load_" + v.substr(3);
  return need(name, "static inline " + v + " " + name + "(const " + t + "* p) { " + v + " v; memcpy(&v, p, sizeof v); return v; }\n");
}

std::string Prelude::vector_store(DType dt, int64_t lanes) {
  std::string v = vector(dt, lanes), t = value_type(dt), name = "og_store_" + v.substr(3);
  return need(name, "static inline void " + name + "(" + t + "* p, " + v + " v) { memcpy(p, &v, sizeof v); }\n");
}

bool has_vector_form(Ops op, DType dt) {
  if (dt != dtypes::float32 && dt != dtypes::float64) return false;
  switch (op) {
    // the same C text as on scalars: GCC applies them lane by lane (a scalar operand of RECIP's
    // `1.0f / v` is broadcast); -ffp-contract=off keeps MULACC two roundings there too
    case Ops::ADD: case Ops::SUB: case Ops::MUL: case Ops::DIV: case Ops::NEG: case Ops::RECIP: case Ops::MULACC:
      return true;
    default: return false;  // comparisons (vector masks), MAX (NaN rule), casts, libm calls: scalar
  }
}

namespace {

// The widest vector register of this host, which the kernels are compiled for (-march=native):
// 64 bytes with AVX-512, else 32 (AVX2; where registers are narrower GCC splits the vector types).
int64_t host_vector_bytes() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const int64_t bytes = __builtin_cpu_supports("avx512f") ? 64 : 32;
  return bytes;
#else
  return 32;
#endif
}

}  // namespace

std::vector<int64_t> vector_widths(DType dt) {
  if (dt != dtypes::float32 && dt != dtypes::float64) return {};
  std::vector<int64_t> out;  // one register of the widest kind, then halves down to 16 bytes
  for (int64_t bytes = host_vector_bytes(); bytes >= 16; bytes /= 2) out.push_back(bytes / dt.itemsize());
  return out;
}

}  // namespace onegrad::c_render
