// Whole files as bytes, and the error messages every file format here shares (docs/nn.md "Data and
// files"). A reader takes the file in one read and checks every size against what it holds, so no
// malformed file makes it read past the end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onegrad::nn {

// The whole file. Missing, a directory, unreadable: FileError "<format>: cannot read '<path>': why".
std::vector<std::byte> read_file_bytes(const std::string& path, const std::string& format);

// Writes the pieces in order to a temporary file beside `path`, then renames it over `path`: a failed
// save leaves an existing file as it was. Cannot write: FileError naming the path.
void write_file_bytes(const std::string& path, const std::string& format,
                      const std::vector<std::span<const std::byte>>& pieces);

// numel(shape) * itemsize, or nullopt when that is 2^64 or more: a file's dimensions can multiply past
// any fixed width, and no file holds that many bytes. The dims must be non-negative.
std::optional<uint64_t> shape_nbytes(const std::vector<int64_t>& shape, int itemsize);

// FormatError "<format> file '<path>': <problem>".
[[noreturn]] void throw_format_error(const std::string& format, const std::string& path, const std::string& problem);

}  // namespace onegrad::nn
