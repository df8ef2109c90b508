// Helpers of the engine tests on the CL device: skip naming why where no OpenCL platform exists,
// float tensors on a device, their values back on the host.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/opencl/cl_device.h"
#include "tensor/tensor.h"

#define SKIP_WITHOUT_OPENCL()                                                                    \
  do {                                                                                           \
    if (std::string why = ::onegrad::opencl_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

namespace onegrad::testing {

inline std::vector<float> values(const Tensor& t) {
  std::vector<float> out(size_t(t.numel()));
  t.copy_out(out.data(), out.size() * sizeof(float));
  return out;
}

inline Tensor on(const std::string& device, const std::vector<float>& v, std::vector<int64_t> shape) {
  return Tensor::from_data(v.data(), v.size() * sizeof(float), std::move(shape), dtypes::float32, device);
}

}  // namespace onegrad::testing
