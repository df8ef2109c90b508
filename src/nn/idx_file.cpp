#include "nn/idx_file.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "nn/file_bytes.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

constexpr const char* kFormat = "IDX";

bool is_gzip(std::span<const std::byte> file) {
  return file.size() >= 2 && file[0] == std::byte{0x1f} && file[1] == std::byte{0x8b};
}

std::optional<DType> idx_dtype(uint8_t code) {
  switch (code) {
    case 0x08: return dtypes::uint8;
    case 0x09: return dtypes::int8;
    case 0x0B: return dtypes::int16;
    case 0x0C: return dtypes::int32;
    case 0x0D: return dtypes::float32;
    case 0x0E: return dtypes::float64;
    default: return std::nullopt;
  }
}

std::string hex_byte(uint8_t b) {
  const char* digits = "0123456789ABCDEF";
  return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

uint32_t big_endian_u32(const std::byte* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

// The file stores elements big-endian; the host (x86, ARM) is little-endian.
void swap_elements_to_host(std::byte* data, size_t nbytes, int itemsize) {
  if (std::endian::native == std::endian::big || itemsize == 1) return;
  for (size_t i = 0; i + size_t(itemsize) <= nbytes; i += size_t(itemsize)) std::reverse(data + i, data + i + itemsize);
}

}  // namespace

std::vector<std::byte> gunzip(std::span<const std::byte> gz, const std::string& path) {
  z_stream zs{};
  // 15 + 16: a gzip wrapper (not raw deflate, not zlib).
  if (inflateInit2(&zs, 15 + 16) != Z_OK) throw InternalError("gunzip: inflateInit2 failed");
  struct End {
    z_stream* zs;
    ~End() { inflateEnd(zs); }
  } end{&zs};
  std::vector<std::byte> out;
  // The last member's trailer holds its size mod 2^32: a good first guess, bounded by deflate's
  // largest ratio (1032:1) so a corrupt trailer cannot ask for gigabytes.
  size_t guess = 0;
  for (size_t i = 0; i < 4 && gz.size() >= 4; ++i) guess |= size_t(gz[gz.size() - 4 + i]) << (8 * i);  // little-endian
  out.resize(std::max<size_t>(std::min(guess, gz.size() * 1032), 1 << 16));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(gz.data()));
  size_t in_left = gz.size();
  size_t used = 0;
  for (;;) {
    if (used == out.size()) out.resize(out.size() * 2);
    // zlib counts in uInt: feed and drain at most 1 GiB per call.
    uInt in_chunk = uInt(std::min<size_t>(in_left, 1u << 30));
    uInt out_chunk = uInt(std::min<size_t>(out.size() - used, 1u << 30));
    zs.avail_in = in_chunk;
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + used);
    zs.avail_out = out_chunk;
    int rc = inflate(&zs, Z_NO_FLUSH);
    in_left -= in_chunk - zs.avail_in;
    used += out_chunk - zs.avail_out;
    if (rc == Z_STREAM_END) {
      // Another gzip member may follow (concatenated .gz files are one file to gzip -d).
      if (in_left == 0) break;
      inflateReset(&zs);
      continue;
    }
    if (rc == Z_BUF_ERROR && in_left == 0)
      throw_format_error(kFormat, path, "the gzip data ends early (the file is truncated)");
    if (rc != Z_OK && rc != Z_BUF_ERROR)
      throw_format_error(kFormat, path, std::string("the gzip data is corrupt (zlib: ") + (zs.msg ? zs.msg : "error") + ")");
  }
  out.resize(used);
  return out;
}

HostArray parse_idx(std::span<const std::byte> file, const std::string& path) {
  std::vector<std::byte> inflated;
  if (is_gzip(file)) {
    inflated = gunzip(file, path);
    file = inflated;
  }
  auto fail = [&](const std::string& problem) { throw_format_error(kFormat, path, problem); };
  if (file.size() < 4) fail("the file is " + std::to_string(file.size()) + " bytes, too short for the 4-byte magic number");
  uint8_t code = uint8_t(file[2]);
  int ndim = int(file[3]);
  auto dtype = idx_dtype(code);
  if (file[0] != std::byte{0} || file[1] != std::byte{0} || !dtype) {
    std::string magic;
    for (int i = 0; i < 4; ++i) magic += (i ? " " : "") + hex_byte(uint8_t(file[size_t(i)]));
    fail("bad magic number " + magic + " (expected 0x00 0x00, a type code 0x08/0x09/0x0B/0x0C/0x0D/0x0E, the rank)");
  }
  size_t header = 4 + 4 * size_t(ndim);
  if (file.size() < header)
    fail("the file is " + std::to_string(file.size()) + " bytes, too short for the " + std::to_string(ndim) +
         " dimensions its magic number announces");
  HostArray out{*dtype, {}, {}};
  for (int i = 0; i < ndim; ++i) out.shape.push_back(int64_t(big_endian_u32(file.data() + 4 + 4 * size_t(i))));
  std::optional<uint64_t> need = shape_nbytes(out.shape, dtype->itemsize());
  size_t have = file.size() - header;
  if (need != have) {
    std::string dims;
    for (size_t i = 0; i < out.shape.size(); ++i) dims += (i ? "x" : "") + std::to_string(out.shape[i]);
    fail(std::string(!need || *need > have ? "truncated" : "too long") + ": dimensions " + (ndim ? dims : "()") +
         " of " + dtype->name() + " need " + (need ? std::to_string(*need) : "2^64 or more") +
         " bytes of data, the file has " + std::to_string(have));
  }
  if (file.data() == inflated.data()) {  // the inflated bytes become the data: no second buffer
    inflated.erase(inflated.begin(), inflated.begin() + std::ptrdiff_t(header));
    out.data = std::move(inflated);
  } else {
    out.data.assign(file.begin() + std::ptrdiff_t(header), file.end());
  }
  swap_elements_to_host(out.data.data(), out.data.size(), dtype->itemsize());
  return out;
}

HostArray read_idx(const std::string& path) { return parse_idx(read_file_bytes(path, kFormat), path); }

Tensor load_idx(const std::string& path) {
  return read_idx(path).to_tensor();
}

}  // namespace onegrad::nn
