#include "render/c_dialect.h"

#include "uop/errors.h"

namespace onegrad {

namespace {

CDialect make_c() {
  CDialect d;
  d.name = "C";
  auto set = [&](ScalarType s, const char* t) { d.types[size_t(s)] = t; };
  set(ScalarType::BOOL, "_Bool");
  set(ScalarType::INT8, "int8_t");
  set(ScalarType::INT16, "int16_t");
  set(ScalarType::INT32, "int32_t");
  set(ScalarType::INT64, "int64_t");  // index math is 64-bit (docs/codegen.md)
  set(ScalarType::UINT8, "uint8_t");
  set(ScalarType::UINT16, "uint16_t");
  set(ScalarType::UINT32, "uint32_t");
  set(ScalarType::UINT64, "uint64_t");
  set(ScalarType::FLOAT16, "_Float16");
  set(ScalarType::FLOAT32, "float");
  set(ScalarType::FLOAT64, "double");
  d.header = "#include <math.h>\n#include <stdint.h>\n#include <string.h>\n";
  d.helper_prefix = "static inline ";
  d.kernel_prefix = "__attribute__((noinline)) static void ";
  // aligned to a cache line, so a panel's rows of whole vectors do not straddle lines
  d.local_array = "{T} {name}[{size}] __attribute__((aligned(64)));";
  d.buffer_param = "{T}* restrict {name}";
  d.vars_param = "const int64_t* vars";
  d.var_value = "vars[{slot}]";
  d.thread_param = "int64_t thread";
  d.thread_id = "thread";
  d.entry = "void {name}(void** bufs, const int64_t* vars{thread}) {\n  {kernel}({args}vars{thread_arg});\n}\n";
  d.entry_arg = "({T}*)bufs[{slot}]";
  d.reinterpret = "{D} {dst};{sep}memcpy(&{dst}, &{src}, {size});";
  d.no_loop_vectorize = "#if defined(__GNUC__) && !defined(__clang__)\n__attribute__((optimize(\"no-tree-loop-vectorize\")))\n#endif\n";
  d.float_suffix = "f";
  d.uint32_suffix = "u";
  d.uint64_suffix = "ull";
  d.int64_suffix = "LL";
  d.nan32 = "__builtin_nanf(\"\")";
  d.nan64 = "__builtin_nan(\"\")";
  d.inf32 = "__builtin_inff()";
  d.inf64 = "__builtin_inf()";
  d.math32 = "{fn}f";
  d.math64 = "{fn}";
  d.vector_name = "og_{tag}x{n}";
  d.vector_typedef = "typedef {T} {V} __attribute__((vector_size({bytes})));\n";
  d.vector_open = "({V}){";
  d.vector_close = "}";
  d.vector_lane = "{v}[{i}]";
  d.vector_mask = "int32_t";  // comparisons of 4-byte lanes only (c_vector.cpp): GCC's mask has the operands' lane size
  return d;
}

}  // namespace

std::string CDialect::value_type(DType dt) const {
  if (dt.is_ptr) throw InternalError(name + " renderer: no value type for pointer " + dt.name());
  ScalarType s = dt.scalar == ScalarType::INDEX ? ScalarType::INT64 : dt.scalar == ScalarType::BFLOAT16 ? ScalarType::FLOAT32 : dt.scalar;
  const std::string& t = types[size_t(s)];
  if (t.empty()) throw InternalError(name + " renderer: no value type for " + dt.name());
  return t;
}

std::string CDialect::storage_type(DType dt) const {
  DType base = dt.base();
  if (base.is_bool()) return value_type(dtypes::uint8);
  if (base.scalar == ScalarType::BFLOAT16) return value_type(dtypes::uint16);
  return value_type(base);
}

std::string CDialect::math_fn(const std::string& fn, DType dt) const {
  return fill(dt.scalar == ScalarType::FLOAT64 ? math64 : math32, {{"fn", fn}});
}

const CDialect& c_dialect() {
  static const CDialect d = make_c();
  return d;
}

std::string fill(std::string_view tmpl, std::initializer_list<std::pair<std::string_view, std::string_view>> parts) {
  std::string out;
  out.reserve(tmpl.size() + 32);
  for (size_t i = 0; i < tmpl.size();) {
    if (tmpl[i] == '{') {
      size_t close = tmpl.find('}', i);
      if (close != std::string_view::npos) {
        std::string_view key = tmpl.substr(i + 1, close - i - 1);
        const std::pair<std::string_view, std::string_view>* hit = nullptr;
        for (const auto& p : parts)
          if (p.first == key) hit = &p;
        if (hit) {
          out += hit->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += tmpl[i++];
  }
  return out;
}

}  // namespace onegrad
