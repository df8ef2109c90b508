// The helper functions of the C renderer. Each is written out only when a kernel uses it, so a
// kernel's source stays short. They define what C leaves undefined (docs/codegen.md, "C rules"):
// floor division and modulo (spec README decision 2), shifts by any amount, float-to-int
// conversion of any value, NaN-propagating max, bfloat16 rounding (dtype.h's float_to_bfloat16_bits).
#include "render/c_support.h"
#include "uop/errors.h"

namespace onegrad::c_render {

// (bool: a byte)
DType unsigned_of(DType dt) {
  switch (dt.bits()) {
    case 8: return dtypes::uint8;
    case 16: return dtypes::uint16;
    case 32: return dtypes::uint32;
    default: return dtypes::uint64;
  }
}

DType signed_of_size(int64_t itemsize) {
  switch (itemsize) {
    case 1: return dtypes::int8;
    case 2: return dtypes::int16;
    case 4: return dtypes::int32;
    default: return dtypes::int64;
  }
}

std::string Prelude::need(const std::string& name, std::string body) {
  if (helpers_.emplace(name, std::move(body)).second) order_.push_back(name);
  return name;
}

std::string Prelude::bf16() {
  std::string u16 = d_.value_type(dtypes::uint16), u32 = d_.value_type(dtypes::uint32), f32 = d_.value_type(dtypes::float32);
  auto bits = [&](const std::string& type, const char* dst, const char* src) {
    return fill(d_.reinterpret, {{"D", type}, {"dst", dst}, {"src", src}, {"size", "4"}, {"sep", " "}});
  };
  need("og_f2bf",
       d_.helper_prefix + u16 + " og_f2bf(" + f32 + " f) {  /* round to nearest even; NaN keeps its top bits */\n"
       "  " + bits(u32, "x", "f") + "\n"
       "  if ((x & 0x7fffffffu) > 0x7f800000u) return (" + u16 + ")((x >> 16) | (((x >> 16) & 0x7fu) ? 0u : 0x40u));\n"
       "  x += 0x7fffu + ((x >> 16) & 1u);\n"
       "  return (" + u16 + ")(x >> 16);\n"
       "}\n");
  need("og_bf2f",
       d_.helper_prefix + f32 + " og_bf2f(" + u16 + " b) { " + u32 + " x = (" + u32 + ")b << 16; " + bits(f32, "f", "x") + " return f; }\n");
  return need("og_bfr", d_.helper_prefix + f32 + " og_bfr(" + f32 + " f) { return og_bf2f(og_f2bf(f)); }\n");
}

std::string Prelude::floor_div(DType dt) {
  // int8/int16 operands are promoted to int: the 32-bit helper serves them
  bool wide = dt.bits() == 64;
  std::string t = d_.value_type(wide ? dtypes::int64 : dtypes::int32), name = wide ? "og_fdiv_i64" : "og_fdiv_i32";
  std::string u = d_.value_type(wide ? dtypes::uint64 : dtypes::uint32);
  return need(name, d_.helper_prefix + t + " " + name + "(" + t + " a, " + t + " b) {  /* floor(a / b), b != 0 */\n"
                    "  if (b == -1) return (" + t + ")(0 - (" + u + ")a);  /* MIN / -1 wraps instead of trapping */\n"
                    "  " + t + " q = a / b;\n"
                    "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n"
                    "}\n");
}

std::string Prelude::floor_mod(DType dt) {
  bool wide = dt.bits() == 64;
  std::string t = d_.value_type(wide ? dtypes::int64 : dtypes::int32), name = wide ? "og_fmod_i64" : "og_fmod_i32";
  return need(name, d_.helper_prefix + t + " " + name + "(" + t + " a, " + t + " b) {  /* a - floor(a / b) * b, b != 0 */\n"
                    "  if (b == -1) return 0;\n"
                    "  " + t + " r = a % b;\n"
                    "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n"
                    "}\n");
}

std::string Prelude::shift(bool left, DType dt) {
  // exec_alu's rule: an amount outside [0, bits) (negative counts as huge) shifts every bit out.
  std::string t = d_.value_type(dt), name = std::string(left ? "og_shl_" : "og_shr_") + type_tag(dt);
  std::string bits = std::to_string(dt.is_bool() ? 1 : dt.bits());
  std::string out_of_range = d_.cast(dtypes::uint64) + d_.cast(dtypes::int64) + "b >= " + bits;
  std::string body;
  if (left)  // through the unsigned type: a left shift of a negative value is undefined in C
    body = "  return " + out_of_range + " ? (" + t + ")0 : (" + t + ")((" + d_.value_type(unsigned_of(dt)) + ")a << b);\n";
  else if (dt.is_signed_int())  // gcc shifts negative values arithmetically
    body = "  return " + out_of_range + " ? (" + t + ")(a < 0 ? -1 : 0) : (" + t + ")(a >> b);\n";
  else
    body = "  return " + out_of_range + " ? (" + t + ")0 : (" + t + ")(a >> b);\n";
  return need(name, d_.helper_prefix + t + " " + name + "(" + t + " a, " + t + " b) {\n" + body + "}\n");
}

std::string Prelude::fmax(DType dt) {
  std::string t = d_.value_type(dt), name = "og_fmax_" + type_tag(dt.scalar == ScalarType::BFLOAT16 ? dtypes::float32 : dt);
  // b where a < b or b is NaN, else a (a NaN a too, which fails a < b): a NaN operand is the
  // result itself, not a + b's quiet NaN (the same NaN unless it is signaling, which GCC assumes
  // away by default). `|`, not `||`: no branch, so GCC's loop vectorizer if-converts it.
  return need(name, d_.helper_prefix + t + " " + name + "(" + t + " a, " + t + " b) {  /* a NaN operand gives NaN */\n"
                    "  return ((a < b) | (b != b)) ? b : a;\n"
                    "}\n");
}

std::string Prelude::float_to_int(DType dt) {
  std::string t = d_.value_type(dt), name = "og_f2i_" + type_tag(dt);
  i128 lo = dt.int_min(), hi = dt.int_max();
  std::string f64 = d_.value_type(dtypes::float64);
  return need(name, d_.helper_prefix + t + " " + name + "(" + f64 + " x) {  /* truncate; saturate; NaN -> 0 */\n"
                    "  if (x != x) return 0;\n"
                    "  " + f64 + " t = " + d_.math_fn("trunc", dtypes::float64) + "(x);\n"
                    "  if (t <= " + double_text(double(lo)) + ") return " + literal(d_, ConstValue::from_int(lo), dt) + ";\n"
                    "  if (t >= " + double_text(double(hi)) + ") return " + literal(d_, ConstValue::from_int(hi), dt) + ";\n"
                    // + 0.0 turns trunc(-0.5) = -0.0 into +0.0: with -fno-trapping-math GCC folds a cast
                    // of this integer back to float into trunc(x) itself, which would keep the sign
                    "  return (" + t + ")(t + 0.0);\n"
                    "}\n");
}

std::string Prelude::bitcast(DType from, DType to) {
  if (from.scalar == ScalarType::BFLOAT16 || to.scalar == ScalarType::BFLOAT16) bf16();
  auto encode = [&](DType d) -> std::string {  // value -> its bits in memory
    if (d.scalar == ScalarType::BFLOAT16) return "og_f2bf(x)";
    if (d.is_bool()) return d_.cast(dtypes::uint8) + "x";
    return "x";
  };
  auto decode = [](DType d) -> std::string {  // bits in memory -> value
    if (d.scalar == ScalarType::BFLOAT16) return "og_bf2f(d)";
    if (d.is_bool()) return "(d != 0)";
    return "d";
  };
  std::string name = "og_bitcast_" + type_tag(from) + "_" + type_tag(to);
  return need(name, d_.helper_prefix + d_.value_type(to) + " " + name + "(" + d_.value_type(from) + " x) {\n"
                    "  " + d_.storage_type(from) + " s = " + encode(from) + ";\n"
                    "  " + fill(d_.reinterpret, {{"D", d_.storage_type(to)}, {"dst", "d"}, {"src", "s"}, {"size", "sizeof d"}, {"sep", "\n  "}}) + "\n"
                    "  return " + decode(to) + ";\n"
                    "}\n");
}

std::string Prelude::pow() {
  // spec: POW is EXP2(LOG2(a) * b); its special values decided that way, pow() elsewhere (exec_alu)
  std::string f = d_.value_type(dtypes::float64);
  auto fn = [&](const char* name) { return d_.math_fn(name, dtypes::float64); };
  return need("og_pow",
              d_.helper_prefix + f + " og_pow(" + f + " a, " + f + " b) {\n"
              "  if (a != a || a < 0) return " + d_.nan64 + ";\n"
              "  " + f + " p = " + fn("log2") + "(a) * b;\n"
              "  if (p != p) return p;\n"
              "  if (" + fn("isinf") + "(p)) return " + fn("exp2") + "(p);\n"
              "  return " + fn("pow") + "(a, b);\n"
              "}\n");
}

std::string Prelude::float_mod() {
  std::string f = d_.value_type(dtypes::float64);
  return need("og_ffmod",
              d_.helper_prefix + f + " og_ffmod(" + f + " a, " + f + " b) {  /* Python's float %: the sign of b */\n"
              "  " + f + " r = " + d_.math_fn("fmod", dtypes::float64) + "(a, b);\n"
              "  if (r != 0 && ((r < 0) != (b < 0))) r += b;\n"
              "  return r;\n"
              "}\n");
}

std::string Prelude::text() const {
  std::string out;
  for (const std::string& name : order_) out += helpers_.at(name);
  return out;
}

}  // namespace onegrad::c_render
