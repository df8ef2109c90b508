// IDX files, the format of MNIST and Fashion-MNIST (docs/nn.md "Data and files"): two zero bytes, a
// type code (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64), the number
// of dimensions, each dimension as a big-endian uint32, then the elements, big-endian, row-major.
// Files may be gzipped (recognised by the gzip magic bytes, whatever the name).
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "nn/host_array.h"

namespace onegrad::nn {

// Reads and checks the file (elements come back in host byte order): missing or unreadable is a FileError; a bad magic number, a size that
// does not match the dimensions, or gzip data that does not inflate is a FormatError naming the file.
HostArray read_idx(const std::string& path);
// The same as a CPU tensor of the file's dtype and shape.
Tensor load_idx(const std::string& path);

// The checks and decoding of read_idx on bytes in memory (gzipped or not); `path` names the source
// in messages. The fuzz test drives it directly.
HostArray parse_idx(std::span<const std::byte> file, const std::string& path);

// gzip data inflated (several members are read one after another); bad data is a FormatError.
std::vector<std::byte> gunzip(std::span<const std::byte> gz, const std::string& path);

}  // namespace onegrad::nn
