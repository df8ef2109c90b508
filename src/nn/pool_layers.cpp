// The pooling layers' checks and their two-output forward (pool_layers.h).
#include "nn/pool_layers.h"

#include "tensor/shape_util.h"

namespace onegrad::nn {

MaxPool::MaxPool(int64_t nd, std::vector<int64_t> kernel_size, std::vector<int64_t> stride,
                 std::vector<int64_t> padding, std::vector<int64_t> dilation, bool return_indices, bool ceil_mode)
    : nd(nd), kernel_size(std::move(kernel_size)), stride(std::move(stride)), padding(std::move(padding)),
      dilation(std::move(dilation)), return_indices(return_indices), ceil_mode(ceil_mode) {}

Tensor MaxPool::forward(const Tensor& x) { return x.max_pool(nd, kernel_size, stride, padding, dilation, ceil_mode); }

std::vector<Tensor> MaxPool::forward_outputs(const std::vector<Tensor>& inputs) {
  Tensor values = forward_inputs(inputs);
  if (!return_indices) return {values};
  return {values, inputs[0].max_pool_indices(nd, kernel_size, stride, padding, dilation, ceil_mode)};
}

AdaptivePool::AdaptivePool(int64_t nd, bool max, std::vector<int64_t> size, bool return_indices)
    : nd(nd), max(max), output_size(std::move(size)), return_indices(return_indices) {
  if (output_size.size() == 1) output_size.assign(size_t(nd), output_size[0]);
  if (int64_t(output_size.size()) != nd)
    throw ArgumentError(name() + ": output_size must be one int or " + std::to_string(nd) + " values, got " +
                        shape_text(output_size));
  if (return_indices && !max) throw ArgumentError(name() + ": an average pool has no indices to return");
}

Tensor AdaptivePool::forward(const Tensor& x) {
  return max ? x.adaptive_max_pool(output_size) : x.adaptive_avg_pool(output_size);
}

std::vector<Tensor> AdaptivePool::forward_outputs(const std::vector<Tensor>& inputs) {
  Tensor values = forward_inputs(inputs);
  if (!return_indices) return {values};
  return {values, inputs[0].adaptive_max_pool_indices(output_size)};
}

}  // namespace onegrad::nn
