// numpy's .npy files (format versions 1-3, little-endian, C order): read into a Tensor and written
// from one. The CLI's `onnx run --input name=file.npy` reads them (docs/onnx.md).
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace onegrad::nn {

// FileError when unreadable; FormatError (naming the file) for a bad magic, a header that does not
// parse, Fortran order, a big-endian or unknown dtype, or data that does not fill the shape.
Tensor read_npy(const std::string& path, const std::string& device = "CPU");
void write_npy(const std::string& path, const Tensor& t);

}  // namespace onegrad::nn
