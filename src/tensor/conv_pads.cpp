#include "tensor/conv_pads.h"

#include <algorithm>

#include "tensor/repeated_view.h"
#include "tensor/view_chain.h"
#include "uop/settings.h"

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

PaddedConvInput padded_conv_input(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads,
                                  const Dims& dilation, bool always_realize) {
  bool pads_something = std::any_of(pads.begin(), pads.end(), [](const auto& p) { return p.first > 0 || p.second > 0; });
  if (!pads_something && !always_realize) return {pad_or_shrink(x, pads), std::nullopt};  // cuts alone stay views
  bool pad_free = setting("PAD_FREE_CONV", 0) != 0;
  bool realize_first = (pad_free || reads_repeated_view(x.uop())) && !whole_buffer(x.uop());
  ConvPads split = pad_free ? ConvPads{pads, Pads(pads.size(), {0, 0})} : split_conv_pads(x, kernel, stride, pads, dilation);
  Tensor xp = pad_or_shrink(realize_first ? x.contiguous() : x, split.copied);
  std::optional<Tensor> realized;
  if (!pad_free && !whole_buffer(xp.uop())) {
    bool itself = xp.uop() == x.uop();
    xp = xp.contiguous();
    if (itself) realized = xp;
  }
  return {pad_or_shrink(xp, split.viewed), realized};
}

}  // namespace onegrad
