// An array held in host memory: what file readers produce and data loaders gather rows from with
// memcpy, without a kernel (docs/nn.md "Data and files").
#pragma once
#include <cstddef>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::nn {

struct HostArray {
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<std::byte> data;  // numel(shape) * itemsize bytes, row-major, host byte order

  // A CPU tensor holding a copy of the bytes.
  Tensor to_tensor() const { return Tensor::from_data(data.data(), data.size(), shape, dtype); }
  // The tensor realized and copied out (the tensor itself is not changed).
  static HostArray from_tensor(const Tensor& t) { return {t.dtype(), t.shape(), t.to_bytes()}; }
};

}  // namespace onegrad::nn
