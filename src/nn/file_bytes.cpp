#include "nn/file_bytes.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <memory>

#include "uop/errors.h"

namespace onegrad::nn {

namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

[[noreturn]] void throw_file_error(const std::string& format, const std::string& verb, const std::string& path,
                                   const std::string& why) {
  throw FileError(format + ": cannot " + verb + " '" + path + "': " + why);
}

}  // namespace

std::vector<std::byte> read_file_bytes(const std::string& path, const std::string& format) {
  std::error_code ec;
  // fopen succeeds on a directory on Linux; reading it then fails with a less helpful errno.
  if (std::filesystem::is_directory(path, ec)) throw_file_error(format, "read", path, "it is a directory");
  File f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw_file_error(format, "read", path, std::strerror(errno));
  std::vector<std::byte> bytes;
  // One read of the whole file when its size is known (one byte more, to see the end); the loop
  // grows the buffer for files whose size is not known ahead (pipes, /proc) or that grew meanwhile.
  size_t known = std::filesystem::is_regular_file(path, ec) ? size_t(std::filesystem::file_size(path, ec)) : 0;
  if (ec) known = 0;
  size_t used = 0;
  for (size_t chunk = std::max(known + 1, size_t(1) << 16);; chunk = std::min(chunk * 2, size_t(1) << 26)) {
    bytes.resize(used + chunk);
    size_t got = std::fread(bytes.data() + used, 1, chunk, f.get());
    used += got;
    if (got < chunk) break;
  }
  if (std::ferror(f.get())) throw_file_error(format, "read", path, std::strerror(errno));
  bytes.resize(used);
  return bytes;
}

void write_file_bytes(const std::string& path, const std::string& format,
                      const std::vector<std::span<const std::byte>>& pieces) {
  std::string tmp = path + ".tmp";
  File f(std::fopen(tmp.c_str(), "wb"), &std::fclose);
  if (!f) throw_file_error(format, "write", path, std::strerror(errno));
  auto fail = [&] {  // leaves no half-written temporary behind
    std::string why = std::strerror(errno);
    f.reset();
    std::remove(tmp.c_str());
    throw_file_error(format, "write", path, why);
  };
  for (const auto& piece : pieces)
    if (!piece.empty() && std::fwrite(piece.data(), 1, piece.size(), f.get()) != piece.size()) fail();
  if (std::fclose(f.release()) != 0) fail();
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail();
}

std::optional<uint64_t> shape_nbytes(const std::vector<int64_t>& shape, int itemsize) {
  // Capped at 2^64 as it grows: the 128-bit product of the cap and a dim (< 2^63) cannot overflow,
  // and a zero dim still makes it zero.
  const unsigned __int128 cap = (unsigned __int128)1 << 64;
  unsigned __int128 n = unsigned(itemsize);
  for (int64_t d : shape) n = std::min(n * (unsigned __int128)d, cap);
  if (n == cap) return std::nullopt;
  return uint64_t(n);
}

void throw_format_error(const std::string& format, const std::string& path, const std::string& problem) {
  throw FormatError(format + " file '" + path + "': " + problem);
}

}  // namespace onegrad::nn
