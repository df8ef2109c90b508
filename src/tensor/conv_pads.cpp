#include "tensor/conv_pads.h"

#include <algorithm>

namespace onegrad {

ConvPads split_conv_pads(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads, const Dims& dilation) {
  ConvPads out{pads, Pads(pads.size(), {0, 0})};
  Dims xs = x.shape();
  const Shape& dims = x.uop()->shape();
  size_t nd = kernel.size();
  for (size_t j = 0; j + 1 < nd; j++) {
    auto [before, after] = pads[2 + j];
    if (!dims[2 + j]->is_const() || (before <= 0 && after <= 0)) continue;
    int64_t span = dilation[j] * (kernel[j] - 1) + 1, padded = xs[2 + j] + before + after;
    if (padded < span) continue;  // the conv's own error
    int64_t outputs = (padded - span) / stride[j] + 1;
    if (outputs * kernel[j] > kViewPaddedWindow) continue;
    out.copied[2 + j] = {std::min<int64_t>(before, 0), std::min<int64_t>(after, 0)};
    out.viewed[2 + j] = {std::max<int64_t>(before, 0), std::max<int64_t>(after, 0)};
  }
  return out;
}

}  // namespace onegrad
