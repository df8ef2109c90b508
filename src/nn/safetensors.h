// The safetensors format (docs/nn.md "Data and files"), written and read by our own code: an 8-byte
// little-endian header length, a JSON header {name: {dtype, shape, data_offsets: [begin, end]},
// "__metadata__": {string: string}}, then the raw little-endian bytes of every tensor, offsets
// counted from the end of the header.
//
// Saving realizes the tensors and copies their bytes out (the tensors are not changed). Loading
// checks the whole file before it makes anything (every size, offset, dtype and name; a bad one is a
// FormatError naming the file and the problem) and makes CPU tensors that own a copy of the bytes.
#pragma once
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::nn {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

struct SafetensorsContents {
  NamedTensors tensors;  // in the header's order
  std::map<std::string, std::string> metadata;
};

// Names must be unique and not "__metadata__" (ArgumentError); dtypes without a safetensors name
// (index, void) are a DTypeError. A file that cannot be written is a FileError.
void save_safetensors(const std::string& path, const NamedTensors& tensors,
                      const std::map<std::string, std::string>& metadata = {});
NamedTensors load_safetensors(const std::string& path);
SafetensorsContents load_safetensors_with_metadata(const std::string& path);

// The same, in memory: the file's bytes, and the checks of a load (`path` only names the source in
// messages). The fuzz test drives parse_safetensors directly.
std::vector<std::byte> serialize_safetensors(const NamedTensors& tensors,
                                             const std::map<std::string, std::string>& metadata = {});
SafetensorsContents parse_safetensors(std::span<const std::byte> file, const std::string& path);

// "F32" <-> float32, ... (the format's names); an unknown name or dtype gives nullopt.
std::optional<DType> safetensors_dtype(const std::string& name);
std::optional<std::string> safetensors_dtype_name(DType dtype);

}  // namespace onegrad::nn
