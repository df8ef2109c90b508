#include "nn/safetensors.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "nn/file_bytes.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

using Json = nlohmann::ordered_json;  // keeps the header's order, so a load returns the file's order

constexpr const char* kFormat = "safetensors";
constexpr const char* kMetadataKey = "__metadata__";

// The format's dtype names (the published layout; F8 variants have no onegrad dtype).
constexpr std::pair<const char*, DType> kDTypeNames[] = {
    {"BOOL", dtypes::bool_},   {"U8", dtypes::uint8},     {"I8", dtypes::int8},      {"U16", dtypes::uint16},
    {"I16", dtypes::int16},    {"U32", dtypes::uint32},   {"I32", dtypes::int32},    {"U64", dtypes::uint64},
    {"I64", dtypes::int64},    {"F16", dtypes::float16},  {"BF16", dtypes::bfloat16}, {"F32", dtypes::float32},
    {"F64", dtypes::float64},
};

std::string dims_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

// One header entry, checked against the data section.
struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

// Reads the header of `file` and checks it; every problem is a FormatError naming `path`.
class HeaderReader {
 public:
  HeaderReader(std::span<const std::byte> file, const std::string& path) : file_(file), path_(path) {}

  // The entries in header order, the metadata, and where the data section starts.
  void read(std::vector<Entry>& entries, std::map<std::string, std::string>& metadata, size_t& data_start) {
    if (file_.size() < 8) fail("the file is " + std::to_string(file_.size()) + " bytes, too short for the 8-byte header length");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | uint64_t(file_[size_t(i)]);
    if (n > file_.size() - 8)
      fail("header length " + std::to_string(n) + " goes past the end of the file (" +
           std::to_string(file_.size() - 8) + " bytes follow the length)");
    data_start = 8 + size_t(n);
    const char* text = reinterpret_cast<const char*>(file_.data()) + 8;
    Json header = parse_json(text, text + n);
    if (!header.is_object()) fail(std::string("the header is a JSON ") + header.type_name() + ", not an object");
    data_size_ = file_.size() - data_start;
    for (auto& [key, value] : header.items()) {
      if (key == kMetadataKey) metadata = read_metadata(value);
      else entries.push_back(read_entry(key, value));
    }
    check_no_overlap(entries);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const { throw_format_error(kFormat, path_, problem); }

  Json parse_json(const char* first, const char* last) const {
    // The header's keys are watched as they are parsed: a JSON object keeps only the last of two
    // equal keys, and a file with two tensors of one name is ambiguous, so it is refused.
    std::set<std::string> seen;
    std::string duplicate;
    auto watch_keys = [&](int depth, Json::parse_event_t event, Json& parsed) {
      if (depth == 1 && event == Json::parse_event_t::key && duplicate.empty() &&
          !seen.insert(parsed.get<std::string>()).second)
        duplicate = parsed.get<std::string>();
      return true;
    };
    Json header;
    try {
      header = Json::parse(first, last, watch_keys);
    } catch (const Json::exception& e) {
      fail(std::string("the header is not valid JSON (") + e.what() + ")");
    }
    if (!duplicate.empty()) fail("the header names '" + duplicate + "' twice");
    return header;
  }

  std::map<std::string, std::string> read_metadata(const Json& value) const {
    if (!value.is_object()) fail(std::string("__metadata__ is a JSON ") + value.type_name() + ", not an object");
    std::map<std::string, std::string> out;
    for (auto& [k, v] : value.items()) {
      if (!v.is_string()) fail("__metadata__ maps strings to strings, but '" + k + "' is a JSON " + v.type_name());
      out[k] = v.get<std::string>();
    }
    return out;
  }

  uint64_t read_unsigned(const Json& v, const std::string& what) const {
    if (!v.is_number_unsigned()) fail(what + " must be a non-negative integer, not " + v.dump());
    return v.get<uint64_t>();
  }

  Entry read_entry(const std::string& name, const Json& value) const {
    std::string where = "tensor '" + name + "': ";
    if (!value.is_object()) fail(where + "the entry is a JSON " + value.type_name() + ", not an object");
    for (const char* field : {"dtype", "shape", "data_offsets"})
      if (!value.contains(field)) fail(where + "the entry has no " + field);
    Entry e{name, {}, {}, 0, 0};
    const Json& dtype = value["dtype"];
    if (!dtype.is_string()) fail(where + "dtype must be a string, not " + dtype.dump());
    auto dt = safetensors_dtype(dtype.get<std::string>());
    if (!dt) fail(where + "unknown dtype '" + dtype.get<std::string>() + "'");
    e.dtype = *dt;
    const Json& shape = value["shape"];
    if (!shape.is_array()) fail(where + "shape must be a list, not " + shape.dump());
    for (const Json& d : shape) {
      uint64_t dim = read_unsigned(d, where + "a shape entry");
      if (dim > uint64_t(INT64_MAX)) fail(where + "shape entry " + std::to_string(dim) + " is too large");
      e.shape.push_back(int64_t(dim));
    }
    std::optional<uint64_t> nbytes = shape_nbytes(e.shape, e.dtype.itemsize());
    const Json& offsets = value["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2) fail(where + "data_offsets must be [begin, end], not " + offsets.dump());
    e.begin = read_unsigned(offsets[0], where + "data_offsets[0]");
    e.end = read_unsigned(offsets[1], where + "data_offsets[1]");
    std::string range = "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
    if (e.begin > e.end) fail(where + range + " end before they begin");
    if (e.end > data_size_)
      fail(where + range + " go past the end of the data (" + std::to_string(data_size_) + " bytes)");
    if (e.end - e.begin != nbytes)
      fail(where + range + " hold " + std::to_string(e.end - e.begin) + " bytes, but shape " + dims_text(e.shape) +
           " of " + dtype.get<std::string>() + " needs " + (nbytes ? std::to_string(*nbytes) : "2^64 or more") + " bytes");
    return e;
  }

  void check_no_overlap(const std::vector<Entry>& entries) const {
    std::vector<const Entry*> by_start;
    for (const Entry& e : entries)
      if (e.end > e.begin) by_start.push_back(&e);  // an empty tensor occupies no bytes
    std::sort(by_start.begin(), by_start.end(), [](const Entry* a, const Entry* b) { return a->begin < b->begin; });
    for (size_t i = 1; i < by_start.size(); ++i) {
      const Entry& a = *by_start[i - 1];
      const Entry& b = *by_start[i];
      if (b.begin < a.end)
        fail("tensors '" + a.name + "' and '" + b.name + "' overlap (bytes [" + std::to_string(a.begin) + ", " +
             std::to_string(a.end) + ") and [" + std::to_string(b.begin) + ", " + std::to_string(b.end) + "))");
    }
  }

  std::span<const std::byte> file_;
  const std::string& path_;
  uint64_t data_size_ = 0;
};

}  // namespace

std::optional<DType> safetensors_dtype(const std::string& name) {
  for (const auto& [n, dt] : kDTypeNames)
    if (name == n) return dt;
  return std::nullopt;
}

std::optional<std::string> safetensors_dtype_name(DType dtype) {
  for (const auto& [n, dt] : kDTypeNames)
    if (dtype == dt) return std::string(n);
  return std::nullopt;
}

SafetensorsContents parse_safetensors(std::span<const std::byte> file, const std::string& path) {
  std::vector<Entry> entries;
  SafetensorsContents out;
  size_t data_start = 0;
  HeaderReader(file, path).read(entries, out.metadata, data_start);
  for (const Entry& e : entries) {
    const std::byte* data = file.data() + data_start + e.begin;
    size_t nbytes = size_t(e.end - e.begin);
    if (e.dtype == dtypes::bool_) {
      // Any other byte would be a bool that is neither true nor false in the kernels that read it.
      for (size_t i = 0; i < nbytes; ++i)
        if (uint8_t(data[i]) > 1)
          throw_format_error(kFormat, path, "tensor '" + e.name + "': BOOL element " + std::to_string(i) + " is byte " +
                                                std::to_string(int(data[i])) + ", neither 0 nor 1");
    }
    out.tensors.emplace_back(e.name, Tensor::from_data(data, nbytes, e.shape, e.dtype));
  }
  return out;
}

std::vector<std::byte> serialize_safetensors(const NamedTensors& tensors,
                                             const std::map<std::string, std::string>& metadata) {
  Json header = Json::object();
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  std::set<std::string> names;
  std::vector<Tensor> realized;
  for (const auto& [name, t] : tensors) {
    if (name == kMetadataKey) throw ArgumentError("save_safetensors: a tensor cannot be named '__metadata__' (the format reserves it)");
    if (!names.insert(name).second) throw ArgumentError("save_safetensors: the tensor name '" + name + "' appears twice");
    if (!safetensors_dtype_name(t.dtype()))
      throw DTypeError("save_safetensors: tensor '" + name + "' has dtype " + t.dtype().name() +
                       ", which the safetensors format cannot store");
    realized.push_back(t);
  }
  std::vector<Tensor*> to_realize;
  for (Tensor& t : realized) to_realize.push_back(&t);
  Tensor::realize_all(to_realize);  // one schedule for every tensor, not one per copy

  uint64_t offset = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = realized[i];
    uint64_t nbytes = uint64_t(t.numel()) * uint64_t(t.dtype().itemsize());
    header[tensors[i].first] = {{"dtype", *safetensors_dtype_name(t.dtype())},
                                {"shape", t.shape()},
                                {"data_offsets", {offset, offset + nbytes}}};
    offset += nbytes;
  }
  std::string text;
  try {
    text = header.dump();
  } catch (const Json::exception& e) {  // a name or metadata string that is not UTF-8
    throw ArgumentError(std::string("save_safetensors: a tensor name or metadata string is not valid UTF-8 (") +
                        e.what() + ")");
  }
  // Spaces pad the header so the data starts 8-byte aligned, as the published layout recommends.
  text.append((8 - text.size() % 8) % 8, ' ');
  std::vector<std::byte> out(8 + text.size() + offset);
  uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) out[size_t(i)] = std::byte((n >> (8 * i)) & 0xff);
  std::memcpy(out.data() + 8, text.data(), text.size());
  std::byte* data = out.data() + 8 + text.size();
  for (const Tensor& t : realized) {
    size_t nbytes = size_t(t.numel()) * size_t(t.dtype().itemsize());
    t.copy_out(data, nbytes);
    data += nbytes;
  }
  return out;
}

void save_safetensors(const std::string& path, const NamedTensors& tensors,
                      const std::map<std::string, std::string>& metadata) {
  std::vector<std::byte> bytes = serialize_safetensors(tensors, metadata);
  write_file_bytes(path, kFormat, {std::span<const std::byte>(bytes)});
}

SafetensorsContents load_safetensors_with_metadata(const std::string& path) {
  return parse_safetensors(read_file_bytes(path, kFormat), path);
}

NamedTensors load_safetensors(const std::string& path) { return load_safetensors_with_metadata(path).tensors; }

}  // namespace onegrad::nn
