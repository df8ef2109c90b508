// Convolution layers (conv_layers.h): parameters and their initialisation; the math is
// Tensor::conv / conv_transpose.
#include "nn/conv_layers.h"

#include <cmath>

#include "nn/init.h"

namespace onegrad::nn {

namespace {

// One value for every axis, or one per axis.
std::vector<int64_t> per_axis(const std::string& op, const char* what, std::vector<int64_t> v, int64_t nd) {
  if (v.size() == 1) return std::vector<int64_t>(nd, v[0]);
  if (int64_t(v.size()) != nd)
    throw ArgumentError(op + ": " + what + " needs 1 or " + std::to_string(nd) + " values, got " +
                        std::to_string(v.size()));
  return v;
}

void check_channels(const std::string& op, int64_t in, int64_t out, int64_t groups) {
  if (groups <= 0) throw ArgumentError(op + ": groups must be a positive integer");
  if (in % groups) throw ArgumentError(op + ": in_channels must be divisible by groups");
  if (out % groups) throw ArgumentError(op + ": out_channels must be divisible by groups");
}

// The shape (a, b, k...) and torch's default initialisation of a weight and its bias of n.
void init_conv(Tensor& weight, std::optional<Tensor>& bias, std::vector<int64_t> shape, int64_t bias_size,
               bool with_bias) {
  weight = init::kaiming_uniform(shape, std::sqrt(5.0));
  if (with_bias) bias = init::uniform({bias_size}, 1.0 / std::sqrt(double(init::fan_in(shape))));
}

}  // namespace

ConvNd::ConvNd(int64_t nd, int64_t in, int64_t out, std::vector<int64_t> k, std::vector<int64_t> s,
               std::vector<int64_t> p, std::vector<int64_t> d, int64_t g, bool with_bias)
    : groups(g), nd_(nd) {
  std::string op = "Conv" + std::to_string(nd) + "d";
  check_channels(op, in, out, g);
  k = per_axis(op, "kernel_size", k, nd);
  stride = per_axis(op, "stride", s, nd), padding = per_axis(op, "padding", p, nd),
  dilation = per_axis(op, "dilation", d, nd);
  std::vector<int64_t> shape{out, in / g};
  shape.insert(shape.end(), k.begin(), k.end());
  init_conv(weight, bias, shape, out, with_bias);
  register_parameter("weight", &weight);
  if (bias) register_parameter("bias", &*bias);
}

Tensor ConvNd::forward(const Tensor& x) {
  if (x.ndim() != nd_ + 1 && x.ndim() != nd_ + 2)
    throw ShapeError(name() + ": expected a " + std::to_string(nd_ + 1) + "-D or " + std::to_string(nd_ + 2) +
                     "-D input, got " + std::to_string(x.ndim()) + "-D");
  if (padding_text) return x.conv(weight, bias, stride, *padding_text, dilation, groups);
  return x.conv(weight, bias, stride, padding, dilation, groups);
}

ConvTransposeNd::ConvTransposeNd(int64_t nd, int64_t in, int64_t out, std::vector<int64_t> k, std::vector<int64_t> s,
                                 std::vector<int64_t> p, std::vector<int64_t> op_, int64_t g, bool with_bias,
                                 std::vector<int64_t> d)
    : groups(g), nd_(nd) {
  const std::string op = "ConvTranspose" + std::to_string(nd) + "d";
  check_channels(op, in, out, g);
  k = per_axis(op, "kernel_size", k, nd);
  stride = per_axis(op, "stride", s, nd), padding = per_axis(op, "padding", p, nd),
  output_padding = per_axis(op, "output_padding", op_, nd), dilation = per_axis(op, "dilation", d, nd);
  std::vector<int64_t> shape{in, out / g};
  shape.insert(shape.end(), k.begin(), k.end());
  init_conv(weight, bias, shape, out, with_bias);
  register_parameter("weight", &weight);
  if (bias) register_parameter("bias", &*bias);
}

Tensor ConvTransposeNd::forward(const Tensor& x) {
  if (x.ndim() != nd_ + 1 && x.ndim() != nd_ + 2)
    throw ShapeError(name() + ": expected a " + std::to_string(nd_ + 1) + "-D or " + std::to_string(nd_ + 2) +
                     "-D input, got " + std::to_string(x.ndim()) + "-D");
  return x.conv_transpose(weight, bias, stride, padding, output_padding, groups, dilation);
}

}  // namespace onegrad::nn
