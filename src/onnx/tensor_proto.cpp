// TensorProto -> Tensor. ONNX stores the same values in several ways: raw little-endian bytes, or
// one of the typed repeated fields (int32_data carries the narrow ints, bool and the 16-bit floats'
// bit patterns), or a file beside the model named in external_data.
#include "onnx/tensor_proto.h"

#include <cstring>
#include <filesystem>
#include <limits>

#include "nn/file_bytes.h"
#include "onnx.pb.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

struct ElemType {
  int code;
  const char* name;
  std::optional<DType> dtype;  // none: onegrad has no such type
};

// TensorProto.DataType, in onnx.proto's order.
const ElemType kElemTypes[] = {
    {0, "UNDEFINED", std::nullopt},   {1, "FLOAT", dtypes::float32},    {2, "UINT8", dtypes::uint8},
    {3, "INT8", dtypes::int8},        {4, "UINT16", dtypes::uint16},    {5, "INT16", dtypes::int16},
    {6, "INT32", dtypes::int32},      {7, "INT64", dtypes::int64},      {8, "STRING", std::nullopt},
    {9, "BOOL", dtypes::bool_},       {10, "FLOAT16", dtypes::float16}, {11, "DOUBLE", dtypes::float64},
    {12, "UINT32", dtypes::uint32},   {13, "UINT64", dtypes::uint64},   {14, "COMPLEX64", std::nullopt},
    {15, "COMPLEX128", std::nullopt}, {16, "BFLOAT16", dtypes::bfloat16},
};

const ElemType* find_elem_type(int code) {
  for (const auto& e : kElemTypes)
    if (e.code == code) return &e;
  return nullptr;
}

[[noreturn]] void bad_data(const std::string& what, const std::string& problem) {
  throw FormatError("onnx: tensor '" + what + "': " + problem);
}

// Copies the typed field `src` into `out` as `T` elements (narrowing as ONNX specifies: int32_data
// holds int8/uint8/int16/uint16/bool values and the float16/bfloat16 bit patterns).
template <class T, class Field>
void copy_field(const Field& src, std::vector<std::byte>& out) {
  out.resize(size_t(src.size()) * sizeof(T));
  for (int i = 0; i < src.size(); ++i) {
    T v = static_cast<T>(src.Get(i));
    std::memcpy(out.data() + size_t(i) * sizeof(T), &v, sizeof(T));
  }
}

std::vector<std::byte> typed_field_bytes(const ::onnx::TensorProto& t, DType dt, const std::string& what) {
  std::vector<std::byte> out;
  switch (dt.scalar) {
    case ScalarType::FLOAT32: copy_field<float>(t.float_data(), out); break;
    case ScalarType::FLOAT64: copy_field<double>(t.double_data(), out); break;
    case ScalarType::INT64: copy_field<int64_t>(t.int64_data(), out); break;
    case ScalarType::INT32: copy_field<int32_t>(t.int32_data(), out); break;
    case ScalarType::INT16: copy_field<int16_t>(t.int32_data(), out); break;
    case ScalarType::INT8: copy_field<int8_t>(t.int32_data(), out); break;
    case ScalarType::UINT16:
    case ScalarType::FLOAT16:
    case ScalarType::BFLOAT16: copy_field<uint16_t>(t.int32_data(), out); break;
    case ScalarType::UINT8:
    case ScalarType::BOOL: copy_field<uint8_t>(t.int32_data(), out); break;
    case ScalarType::UINT32: copy_field<uint32_t>(t.uint64_data(), out); break;
    case ScalarType::UINT64: copy_field<uint64_t>(t.uint64_data(), out); break;
    default: bad_data(what, "no data field for " + dt.name());
  }
  return out;
}

std::vector<std::byte> external_bytes(const ::onnx::TensorProto& t, const std::string& base_dir,
                                      const std::string& what) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : t.external_data()) {
    try {
      if (kv.key() == "location") location = kv.value();
      else if (kv.key() == "offset") offset = std::stoll(kv.value());
      else if (kv.key() == "length") length = std::stoll(kv.value());
    } catch (const std::exception&) {
      bad_data(what, "external_data " + kv.key() + " '" + kv.value() + "' is not a number");
    }
  }
  if (location.empty()) bad_data(what, "external data without a location");
  std::filesystem::path rel(location);
  if (rel.is_absolute() || location.find("..") != std::string::npos)
    bad_data(what, "external data location '" + location + "' must be a path inside the model's folder");
  std::string path = (std::filesystem::path(base_dir) / rel).string();
  auto bytes = nn::read_file_bytes(path, "onnx external data for tensor '" + what + "'");
  if (offset < 0 || uint64_t(offset) > bytes.size())
    bad_data(what, "external data offset " + std::to_string(offset) + " is past the end of '" + path + "' (" +
                       std::to_string(bytes.size()) + " bytes)");
  uint64_t len = length < 0 ? bytes.size() - uint64_t(offset) : uint64_t(length);
  if (len > bytes.size() - uint64_t(offset))
    bad_data(what, "external data [" + std::to_string(offset) + ", +" + std::to_string(len) + ") leaves '" + path +
                       "' (" + std::to_string(bytes.size()) + " bytes)");
  return {bytes.begin() + offset, bytes.begin() + offset + int64_t(len)};
}

}  // namespace

DType dtype_of(int elem_type, const std::string& what) {
  const ElemType* e = find_elem_type(elem_type);
  if (!e) throw FormatError("onnx: " + what + " has element type " + std::to_string(elem_type) + ", which ONNX does not define");
  if (!e->dtype) throw UnsupportedError("onnx: " + what + " has element type " + e->name + ", which onegrad does not support");
  return *e->dtype;
}

int elem_type_of(DType dtype) {
  for (const auto& e : kElemTypes)
    if (e.dtype && *e.dtype == dtype) return e.code;
  throw DTypeError("onnx: no ONNX element type for dtype " + dtype.name());
}

std::string elem_type_name(int elem_type) {
  const ElemType* e = find_elem_type(elem_type);
  return e ? e->name : "type " + std::to_string(elem_type);
}

Tensor tensor_from_proto(const ::onnx::TensorProto& t, const std::string& base_dir, const std::string& device) {
  std::string what = t.name().empty() ? "(unnamed)" : t.name();
  DType dt = dtype_of(t.data_type(), "tensor '" + what + "'");
  std::vector<int64_t> shape(t.dims().begin(), t.dims().end());
  for (int64_t d : shape)
    if (d < 0) bad_data(what, "negative dimension " + std::to_string(d));
  auto nbytes = nn::shape_nbytes(shape, dt.itemsize());
  if (!nbytes) bad_data(what, "its dimensions hold more than 2^64 bytes");
  std::vector<std::byte> bytes;
  if (t.data_location() == ::onnx::TensorProto::EXTERNAL) {
    bytes = external_bytes(t, base_dir, what);
  } else if (t.has_raw_data()) {
    const std::string& raw = t.raw_data();
    bytes.resize(raw.size());
    std::memcpy(bytes.data(), raw.data(), raw.size());
  } else {
    bytes = typed_field_bytes(t, dt, what);
  }
  if (bytes.size() != *nbytes)
    bad_data(what, "holds " + std::to_string(bytes.size()) + " bytes of data, but its shape and type " + dt.name() +
                       " need " + std::to_string(*nbytes));
  if (dt == dtypes::bool_)  // any non-zero byte is true; onegrad's bools are 0 or 1
    for (auto& b : bytes) b = std::byte(b != std::byte(0));
  return Tensor::from_data(bytes.data(), bytes.size(), shape, dt, device);
}

Tensor read_tensor_file(const std::string& path, const std::string& device, std::string* name) {
  auto bytes = nn::read_file_bytes(path, "onnx tensor");
  ::onnx::TensorProto t;
  if (bytes.size() > size_t(std::numeric_limits<int>::max()) || !t.ParseFromArray(bytes.data(), int(bytes.size())))
    nn::throw_format_error("onnx tensor", path, "not a TensorProto (protobuf parse failed)");
  if (name) *name = t.name();
  auto base = std::filesystem::path(path).parent_path().string();
  return tensor_from_proto(t, base, device);
}

}  // namespace onegrad::onnx
