#include "tir/ast/data_type.h"

#include <charconv>

namespace onegrad::tir {

int64_t wrap_int(int64_t v, DataType t) {
  if (t.bits >= 64 || t.bits <= 0) return v;
  const uint64_t mask = (uint64_t{1} << t.bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (t.is_int() && (u >> (t.bits - 1)) != 0) u |= ~mask;  // sign-extend
  return static_cast<int64_t>(u);
}

double int_as_double(int64_t v, DataType t) {
  if (t.code == DataType::Code::UInt && t.bits == 64) return static_cast<double>(static_cast<uint64_t>(v));
  return static_cast<double>(v);
}

std::string DataType::name() const {
  std::string base;
  if (is_bool()) {
    base = "bool";
  } else if (is_void()) {
    return "void";
  } else if (code == Code::Handle) {
    return "handle";
  } else {
    static const char* const kCodeNames[] = {"int", "uint", "float", "bfloat", "handle"};
    base = kCodeNames[static_cast<int>(code)] + std::to_string(bits);
  }
  return lanes == 1 ? base : base + "x" + std::to_string(lanes);
}

namespace {

std::optional<int> parse_positive(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

std::optional<DataType> parse_scalar(std::string_view s) {
  if (s == "bool") return DataType::bool_();
  if (s == "handle") return DataType::handle();
  if (s == "void") return DataType::void_();
  struct Prefix {
    std::string_view text;
    DataType::Code code;
  };
  // "uint" before "int": the longer prefix wins.
  static const Prefix kPrefixes[] = {{"uint", DataType::Code::UInt},
                                     {"int", DataType::Code::Int},
                                     {"bfloat", DataType::Code::BFloat},
                                     {"float", DataType::Code::Float}};
  for (const Prefix& p : kPrefixes) {
    if (s.substr(0, p.text.size()) != p.text) continue;
    auto bits = parse_positive(s.substr(p.text.size()));
    if (!bits) return std::nullopt;
    bool ok = p.code == DataType::Code::Float    ? (*bits == 16 || *bits == 32 || *bits == 64)
              : p.code == DataType::Code::BFloat ? *bits == 16
                                                 : (*bits == 8 || *bits == 16 || *bits == 32 || *bits == 64);
    if (!ok) return std::nullopt;
    return DataType{p.code, *bits, 1};
  }
  return std::nullopt;
}

}  // namespace

std::optional<DataType> parse_data_type(std::string_view text) {
  size_t x = text.rfind('x');
  if (x == std::string_view::npos) return parse_scalar(text);
  auto lanes = parse_positive(text.substr(x + 1));
  auto scalar = parse_scalar(text.substr(0, x));
  // spec/README decision 9: any lane count >= 2; handles have no vectors.
  if (!lanes || !scalar || *lanes < 2 || scalar->code == DataType::Code::Handle) return std::nullopt;
  return scalar->with_lanes(*lanes);
}

bool Type::operator==(const Type& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Prim: return dtype == o.dtype;
    case Kind::Pointer: return storage_scope == o.storage_scope && *element == *o.element;
    case Kind::Tuple: return fields == o.fields;
  }
  return false;
}

DataType Type::value_dtype() const {
  switch (kind) {
    case Kind::Prim: return dtype;
    case Kind::Pointer: return DataType::handle();
    case Kind::Tuple: return DataType::void_();
  }
  return dtype;
}

std::string Type::to_string() const {
  switch (kind) {
    case Kind::Prim: return dtype.name();
    case Kind::Pointer: return "ptr(" + element->to_string() + ", \"" + storage_scope + "\")";
    case Kind::Tuple: {
      std::string s = "tuple(";
      for (size_t i = 0; i < fields.size(); ++i) s += (i ? ", " : "") + fields[i].to_string();
      return s + ")";
    }
  }
  return "";
}

}  // namespace onegrad::tir
