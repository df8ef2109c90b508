// TIR's value types (spec: "DataType", "Finer-Grained Types"): a DataType is a type code, a width in
// bits and a lane count; Bool is a 1-bit UInt and Void a 0-bit Handle. Type refines a DataType for
// Vars: PrimType, PointerType (the element type and storage scope of a buffer's data) and TupleType
// (only ever empty: the void return type).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onegrad::tir {

struct DataType {
  enum class Code : uint8_t { Int, UInt, Float, BFloat, Handle };
  Code code = Code::Int;
  int bits = 32;
  int lanes = 1;

  static DataType int_(int bits, int lanes = 1) { return {Code::Int, bits, lanes}; }
  static DataType uint(int bits, int lanes = 1) { return {Code::UInt, bits, lanes}; }
  static DataType float_(int bits, int lanes = 1) { return {Code::Float, bits, lanes}; }
  static DataType bool_(int lanes = 1) { return {Code::UInt, 1, lanes}; }
  static DataType handle() { return {Code::Handle, 64, 1}; }
  static DataType void_() { return {Code::Handle, 0, 1}; }

  bool is_int() const { return code == Code::Int; }
  bool is_uint() const { return code == Code::UInt && bits != 1; }
  bool is_bool() const { return code == Code::UInt && bits == 1; }
  // Int or UInt (bool included): what indices, extents and Mod take.
  bool is_integer() const { return code == Code::Int || code == Code::UInt; }
  bool is_float() const { return code == Code::Float || code == Code::BFloat; }
  bool is_handle() const { return code == Code::Handle && bits != 0; }
  bool is_void() const { return code == Code::Handle && bits == 0; }
  bool is_scalar() const { return lanes == 1; }
  bool is_vector() const { return lanes > 1; }
  DataType element() const { return {code, bits, 1}; }
  DataType with_lanes(int n) const { return {code, bits, n}; }
  bool operator==(const DataType& o) const { return code == o.code && bits == o.bits && lanes == o.lanes; }
  bool operator!=(const DataType& o) const { return !(*this == o); }

  // "int32", "float32x4", "bool", "handle", "void" (spec: "String Notation").
  std::string name() const;
};

// Parses the names name() writes, plus "bfloat16"; nullopt for anything else.
std::optional<DataType> parse_data_type(std::string_view text);

// v truncated to t's bit width, then sign- or zero-extended by t's code (spec: integers wrap around).
int64_t wrap_int(int64_t v, DataType t);
// An integer of type t held as int64 (a uint64 above 2^63 - 1 as its two's-complement bits, as
// IntImm and the interpreter hold it), as the nearest double: uint64 reads as unsigned.
double int_as_double(int64_t v, DataType t);

struct Type {
  enum class Kind : uint8_t { Prim, Pointer, Tuple };
  Kind kind = Kind::Prim;
  DataType dtype;                       // Prim
  std::shared_ptr<const Type> element;  // Pointer: a PrimType
  std::string storage_scope;            // Pointer: "global", "shared", "local", ...
  std::vector<Type> fields;             // Tuple

  static Type prim(DataType t) { return {Kind::Prim, t, nullptr, "", {}}; }
  static Type pointer(DataType element, std::string scope) {
    return {Kind::Pointer, DataType::handle(), std::make_shared<const Type>(prim(element)), std::move(scope), {}};
  }
  static Type tuple() { return {Kind::Tuple, DataType::void_(), nullptr, "", {}}; }

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }
  // The DataType of a Var annotated with this type (spec: "Rules for Assigning Datatypes", Var).
  DataType value_dtype() const;
  std::string to_string() const;
};

}  // namespace onegrad::tir
