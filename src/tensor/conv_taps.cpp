#include "tensor/conv_taps.h"

namespace onegrad {

LiveTaps live_taps(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads, const Dims& dilation) {
  LiveTaps live;
  Dims xs = x.shape();
  const Shape& dims = x.uop()->shape();
  for (size_t j = 0; j < kernel.size(); j++) {
    int64_t n = xs[2 + j], k = kernel[j], s = stride[j], d = dilation[j], before = pads[j].first;
    int64_t padded = n + before + pads[j].second, span = d * (k - 1) + 1;
    live.taps.push_back({0, k});
    live.pads.push_back(pads[j]);
    if (!dims[2 + j]->is_const() || padded < span) continue;
    int64_t last_out = (padded - span) / s;  // the last output position
    int64_t first = 0, end = k;
    while (first + 1 < k && last_out * s + first * d - before < 0) first++;  // reads before the input only
    while (end - 1 > first && (end - 1) * d - before >= n) end--;            // reads after the input only
    if (first == 0 && end == k) continue;
    int64_t new_before = before - first * d;
    live.taps.back() = {first, end};
    live.pads.back() = {new_before, last_out * s + d * (end - 1 - first) + 1 - n - new_before};
    live.cuts = true;
  }
  return live;
}

Tensor live_weight(const Tensor& w, const LiveTaps& live) {
  Dims ws = w.shape();
  std::vector<std::pair<int64_t, int64_t>> bounds{{0, ws[0]}, {0, ws[1]}};
  bounds.insert(bounds.end(), live.taps.begin(), live.taps.end());
  return w.shrink(bounds);
}

}  // namespace onegrad
