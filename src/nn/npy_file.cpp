#include "nn/npy_file.h"

#include <cstring>
#include <regex>

#include "nn/file_bytes.h"
#include "uop/errors.h"

namespace onegrad::nn {
namespace {

constexpr const char* kFormat = "npy";

struct Descr {
  const char* code;  // numpy's descr without the byte order
  DType dtype;
};
const Descr kDescrs[] = {{"f4", dtypes::float32}, {"f8", dtypes::float64}, {"f2", dtypes::float16},
                         {"i1", dtypes::int8},    {"i2", dtypes::int16},   {"i4", dtypes::int32},
                         {"i8", dtypes::int64},   {"u1", dtypes::uint8},   {"u2", dtypes::uint16},
                         {"u4", dtypes::uint32},  {"u8", dtypes::uint64},  {"b1", dtypes::bool_}};

}  // namespace

Tensor read_npy(const std::string& path, const std::string& device) {
  auto bytes = read_file_bytes(path, kFormat);
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) throw_format_error(kFormat, path, "no .npy magic");
  int major = int(bytes[6]);
  size_t header_len, start;
  if (major == 1) {
    header_len = size_t(uint8_t(bytes[8])) | size_t(uint8_t(bytes[9])) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw_format_error(kFormat, path, "header cut short");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= size_t(uint8_t(bytes[8 + size_t(i)])) << (8 * i);
    start = 12;
  } else {
    throw_format_error(kFormat, path, "format version " + std::to_string(major) + " is not 1, 2 or 3");
  }
  if (header_len > bytes.size() - start) throw_format_error(kFormat, path, "header runs past the end of the file");
  std::string header(reinterpret_cast<const char*>(bytes.data()) + start, header_len);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([<>|=])([a-z]\d+)')")))
    throw_format_error(kFormat, path, "no 'descr' in the header");
  if (m[1] == ">") throw_format_error(kFormat, path, "big-endian data is not supported");
  std::optional<DType> dt;
  for (const auto& d : kDescrs)
    if (m[2] == d.code) dt = d.dtype;
  if (!dt) throw_format_error(kFormat, path, "dtype '" + m[2].str() + "' is not supported");
  if (std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*True)")))
    throw_format_error(kFormat, path, "Fortran order is not supported");
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
    throw_format_error(kFormat, path, "no 'shape' in the header");
  std::vector<int64_t> shape;
  std::string dims = m[1];
  const std::regex number(R"(\d+)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), number); it != std::sregex_iterator(); ++it)
    shape.push_back(std::stoll(it->str()));
  auto need = shape_nbytes(shape, dt->itemsize());
  size_t data_at = start + header_len;
  if (!need || *need != bytes.size() - data_at)
    throw_format_error(kFormat, path, "holds " + std::to_string(bytes.size() - data_at) + " data bytes, the header's shape needs " +
                                          (need ? std::to_string(*need) : std::string("more than 2^64")));
  return Tensor::from_data(bytes.data() + data_at, bytes.size() - data_at, shape, *dt, device);
}

void write_npy(const std::string& path, const Tensor& t) {
  const char* code = nullptr;
  for (const auto& d : kDescrs)
    if (d.dtype == t.dtype()) code = d.code;
  if (!code) throw DTypeError("write_npy: no .npy dtype for " + t.dtype().name());
  std::string shape;
  for (int64_t d : t.shape()) shape += std::to_string(d) + ", ";
  if (t.ndim() > 1) shape.resize(shape.size() - 2);
  std::string header = std::string("{'descr': '") + (t.dtype().itemsize() == 1 ? "|" : "<") + code +
                       "', 'fortran_order': False, 'shape': (" + shape + "), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');  // data aligned to 64 bytes, as numpy writes
  header += '\n';
  std::string pre = "\x93NUMPY\x01";
  pre += '\0';
  pre += char(header.size() & 0xff);
  pre += char(header.size() >> 8);
  auto data = t.to_bytes();
  std::string head = pre + header;
  write_file_bytes(path, kFormat,
                   {std::as_bytes(std::span(head.data(), head.size())), std::span<const std::byte>(data.data(), data.size())});
}

}  // namespace onegrad::nn
