// Convolution layers (torch.nn.Conv1d/2d/3d, ConvTranspose1d/2d) over Tensor::conv and
// Tensor::conv_transpose. Spatial arguments hold one value for every axis or one per axis.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

// Weight (out, in/groups, k...) and bias (out,) ~ U(±1/sqrt(in/groups * prod(k))), as torch.
class ConvNd : public Module {
 public:
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "Conv" + std::to_string(nd_) + "d"; }
  Tensor weight;
  std::optional<Tensor> bias;
  std::vector<int64_t> stride, padding, dilation;
  // torch's padding="same" or "valid", used instead of `padding` when set (Tensor::conv's string form)
  std::optional<std::string> padding_text;
  int64_t groups;

 protected:
  ConvNd(int64_t nd, int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
         std::vector<int64_t> stride, std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups,
         bool bias);

 private:
  int64_t nd_;
};

// Conv1d, Conv2d, Conv3d: torch's arguments, the rank fixed.
template <int64_t N>
class Conv : public ConvNd {
 public:
  Conv(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {1},
       std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1}, int64_t groups = 1, bool bias = true)
      : ConvNd(N, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias) {}
};
using Conv1d = Conv<1>;
using Conv2d = Conv<2>;
using Conv3d = Conv<3>;

// torch's argument order (output_padding, groups, bias, then dilation); weight (in, out/groups, k...).
class ConvTransposeNd : public Module {
 public:
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "ConvTranspose" + std::to_string(nd_) + "d"; }
  Tensor weight;
  std::optional<Tensor> bias;
  std::vector<int64_t> stride, padding, output_padding, dilation;
  int64_t groups;

 protected:
  ConvTransposeNd(int64_t nd, int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
                  std::vector<int64_t> stride, std::vector<int64_t> padding, std::vector<int64_t> output_padding,
                  int64_t groups, bool bias, std::vector<int64_t> dilation);

 private:
  int64_t nd_;
};

// ConvTranspose1d, ConvTranspose2d.
template <int64_t N>
class ConvTranspose : public ConvTransposeNd {
 public:
  ConvTranspose(int64_t in_channels, int64_t out_channels, std::vector<int64_t> kernel_size,
                std::vector<int64_t> stride = {1}, std::vector<int64_t> padding = {0},
                std::vector<int64_t> output_padding = {0}, int64_t groups = 1, bool bias = true,
                std::vector<int64_t> dilation = {1})
      : ConvTransposeNd(N, in_channels, out_channels, kernel_size, stride, padding, output_padding, groups, bias,
                        dilation) {}
};
using ConvTranspose1d = ConvTranspose<1>;
using ConvTranspose2d = ConvTranspose<2>;

}  // namespace onegrad::nn
