// torch.nn's pooling layers over the Tensor pools (src/tensor/pool.cpp): MaxPool1d/2d/3d,
// AvgPool1d/2d/3d, AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool1d/2d/3d, one class per kind with the
// number of spatial axes as an argument. No parameters or buffers. A max pool built with
// return_indices gives (values, int64 indices in each input plane) from forward_outputs, as torch's
// module returns the pair.
#pragma once
#include <optional>
#include <vector>

#include "nn/module.h"

namespace onegrad::nn {

// An empty stride means stride = kernel_size (torch's stride=None).
class MaxPool : public Module {
 public:
  MaxPool(int64_t nd, std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
          std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1}, bool return_indices = false,
          bool ceil_mode = false);
  Tensor forward(const Tensor& x) override;
  std::vector<Tensor> forward_outputs(const std::vector<Tensor>& inputs) override;
  std::string name() const override { return "MaxPool" + std::to_string(nd) + "d"; }
  int64_t nd;
  std::vector<int64_t> kernel_size, stride, padding, dilation;
  bool return_indices, ceil_mode;
};

// The C++ API's spelling from before MaxPool took nd (torch's order without return_indices).
class MaxPool2d : public MaxPool {
 public:
  explicit MaxPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1}, bool ceil_mode = false)
      : MaxPool(2, std::move(kernel_size), std::move(stride), std::move(padding), std::move(dilation), false,
                ceil_mode) {}
};

class AvgPool : public Module {
 public:
  AvgPool(int64_t nd, std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
          std::vector<int64_t> padding = {0}, bool ceil_mode = false, bool count_include_pad = true,
          std::optional<int64_t> divisor_override = std::nullopt)
      : nd(nd), kernel_size(std::move(kernel_size)), stride(std::move(stride)), padding(std::move(padding)),
        ceil_mode(ceil_mode), count_include_pad(count_include_pad), divisor_override(divisor_override) {}
  Tensor forward(const Tensor& x) override {
    return x.avg_pool(nd, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  }
  std::string name() const override { return "AvgPool" + std::to_string(nd) + "d"; }
  int64_t nd;
  std::vector<int64_t> kernel_size, stride, padding;
  bool ceil_mode, count_include_pad;
  std::optional<int64_t> divisor_override;
};

class AvgPool2d : public AvgPool {
 public:
  explicit AvgPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0}, bool ceil_mode = false, bool count_include_pad = true,
                     std::optional<int64_t> divisor_override = std::nullopt)
      : AvgPool(2, std::move(kernel_size), std::move(stride), std::move(padding), ceil_mode, count_include_pad,
                divisor_override) {}
};

// output_size: one value for every axis or one per axis; -1 keeps that axis's size (torch's None).
// Another count is an ArgumentError "AdaptiveAvgPool2d: output_size must be one int or 2 values, got
// (1, 2, 3)".
class AdaptivePool : public Module {
 public:
  AdaptivePool(int64_t nd, bool max, std::vector<int64_t> output_size, bool return_indices = false);
  Tensor forward(const Tensor& x) override;
  std::vector<Tensor> forward_outputs(const std::vector<Tensor>& inputs) override;
  std::string name() const override {
    return std::string("Adaptive") + (max ? "Max" : "Avg") + "Pool" + std::to_string(nd) + "d";
  }
  int64_t nd;
  bool max;
  std::vector<int64_t> output_size;  // nd values
  bool return_indices;
};

}  // namespace onegrad::nn
