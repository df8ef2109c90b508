// Convolutions as compositions (docs/tensor.md, "Neural-net ops"), the tinygrad way: pad the input,
// take its sliding windows (pool_windows: movement ops only), broadcast them against the weight and
// sum over (cin, k...). conv_transpose (conv_transpose.cpp) is a conv too, over one stride phase of
// the output per output channel.
#include <algorithm>

#include "tensor/conv_core.h"
#include "tensor/conv_pads.h"
#include "tensor/conv_taps.h"
#include "uop/errors.h"

namespace onegrad {

std::string conv_name(const std::string& kind, size_t nd) { return kind + std::to_string(nd) + "d"; }

size_t spatial_rank(const std::string& kind, const Tensor& weight) {
  if (weight.ndim() < 3)
    throw ShapeError(kind + ": weight must have at least 3 dims (out, in, kernel...), got shape " +
                     shape_text(weight.shape()));
  return size_t(weight.ndim() - 2);
}

void check_bias(const std::string& op, const Tensor& bias, int64_t cout, const Tensor& x) {
  if (bias.shape() != Dims{cout})
    throw ShapeError(op + ": bias must have shape (" + std::to_string(cout) + ",), got " + shape_text(bias.shape()));
  check_same_dtype(op, "input", x, "bias", bias);
}

Tensor conv_core(const std::string& op, const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias,
                 const Dims& stride, const Pads& pads, const Dims& dilation, int64_t groups) {
  size_t nd = size_t(w.ndim() - 2);
  Dims xs = x.shape(), ws = w.shape();
  int64_t bs = xs[0], cin = xs[1], cout = ws[0], rcin = ws[1];
  if (groups < 1) throw ShapeError(op + ": groups must be >= 1, got " + std::to_string(groups));
  if (cout % groups != 0)
    throw ShapeError(op + ": given groups=" + std::to_string(groups) + ", weight " + shape_text(ws) +
                     " must have a multiple of " + std::to_string(groups) + " output channels");
  if (cin != groups * rcin)
    throw ShapeError(op + ": given groups=" + std::to_string(groups) + " and weight " + shape_text(ws) +
                     ", the input must have " + std::to_string(groups * rcin) + " channels (groups * weight.shape[1]), "
                     "got input " + shape_text(xs));
  if (bias) check_bias(op, *bias, cout, x);
  // Taps that read only padding are cut (conv_taps.h): the padded copy and the windows shrink.
  LiveTaps live = live_taps(x, Dims(ws.begin() + 2, ws.end()), stride, pads, dilation);
  if (live.cuts) return conv_core(op, x, live_weight(w, live), bias, stride, live.pads, dilation, groups);
  // A pointwise conv (every kernel dim 1, stride 1, no padding) over two or more spatial axes is a
  // matrix product over their pixels: it runs over them as one flat axis, so the kernel blocks the
  // pixels as a matmul blocks its columns (det's 20x20 as 400 = 25 x 16 lanes x 6 channels: 0.80 ->
  // 0.36 ms, where rows of 20 were blocked as 8 + 8 + 4 lanes x 4 channels; docs/kernel_opts.md).
  bool pointwise = nd > 1 && std::all_of(ws.begin() + 2, ws.end(), [](int64_t v) { return v == 1; }) &&
                   std::all_of(stride.begin(), stride.end(), [](int64_t v) { return v == 1; }) &&
                   std::all_of(pads.begin(), pads.end(), [](const auto& p) { return p.first == 0 && p.second == 0; });
  if (pointwise) {
    int64_t pixels = 1;
    for (size_t j = 0; j < nd; j++) pixels *= xs[2 + j];
    Tensor flat = conv_core(op, x.reshape({bs, cin, pixels}), w.reshape({cout, rcin, 1}), bias, Dims{1}, Pads{{0, 0}},
                            Dims{1}, groups);
    Dims out{bs, cout};
    out.insert(out.end(), xs.begin() + 2, xs.end());
    return flat.reshape(out);
  }
  Pads all(2, {0, 0});
  all.insert(all.end(), pads.begin(), pads.end());
  Dims k(ws.begin() + 2, ws.end());
  Tensor xp = padded_conv_input(x, k, stride, all, dilation, false).x;
  Dims ps = xp.shape();
  for (size_t j = 0; j < nd; j++)
    if (dilation[j] * (k[j] - 1) + 1 > ps[2 + j]) {
      Dims padded(ps.begin() + 2, ps.end()), eff;
      for (size_t i = 0; i < nd; i++) eff.push_back(dilation[i] * (k[i] - 1) + 1);
      throw ShapeError(op + ": the padded input's spatial size " + shape_text(padded) + " is smaller than the kernel " +
                       shape_text(eff) + " (kernel_size " + shape_text(k) + ", dilation " + shape_text(dilation) +
                       ")");
    }
  // (bs, cin, o..., k...) -> (bs, groups, 1, o..., rcin, k...) against weight (1, groups, rcout, 1..., rcin, k...)
  Tensor win = xp.pool_windows(k, stride, dilation);
  Dims wsh = win.shape();
  Dims o(wsh.begin() + 2, wsh.begin() + 2 + long(nd));
  int64_t rcout = cout / groups;
  Dims xshape{bs, groups, rcin}, order{0, 1}, wshape{1, groups, rcout}, out{bs, cout};
  xshape.insert(xshape.end(), o.begin(), o.end());
  xshape.insert(xshape.end(), k.begin(), k.end());
  // permute (bs, groups, rcin, o..., k...) to (bs, groups, o..., rcin, k...), then a 1 for rcout
  for (size_t j = 0; j < nd; j++) order.push_back(int64_t(3 + j));
  order.push_back(2);
  for (size_t j = 0; j < nd; j++) order.push_back(int64_t(3 + nd + j));
  Tensor xw = win.reshape(xshape).permute(order).unsqueeze(2);
  for (size_t j = 0; j < nd; j++) wshape.push_back(1);
  wshape.push_back(rcin);
  wshape.insert(wshape.end(), k.begin(), k.end());
  Tensor prod = xw.mul(w.reshape(wshape));  // (bs, groups, rcout, o..., rcin, k...)
  Tensor r = prod.sum(last_axes(size_t(prod.ndim()), nd + 1));
  out.insert(out.end(), o.begin(), o.end());
  // Its gradient is realized contiguous before the window view's backward reads it (once per
  // input and weight gradient) rather than recomputed through the view.
  r = r.reshape(out).contiguous_backward();
  if (!bias) return r;
  Dims bshape{1, cout};
  for (size_t j = 0; j < nd; j++) bshape.push_back(1);
  return r.add(bias->reshape(bshape));
}

ConvInput conv_input(const std::string& op, const Tensor& input, const Tensor& weight, size_t nd) {
  check_float(op, "input", input);
  check_same_dtype(op, "input", input, "weight", weight);
  ConvInput ci;
  ci.x = with_batch_axis(op, input, nd, ci.batched);
  return ci;
}

Tensor Tensor::conv(const Tensor& weight, const std::optional<Tensor>& bias, std::vector<int64_t> stride,
                    std::vector<int64_t> padding, std::vector<int64_t> dilation, int64_t groups) const {
  size_t nd = spatial_rank("conv", weight);
  std::string op = conv_name("conv", nd);
  ConvInput ci = conv_input(op, *this, weight, nd);
  Dims s = spatial_arg(op, "stride", stride, nd), p = spatial_arg(op, "padding", padding, nd),
       d = spatial_arg(op, "dilation", dilation, nd);
  check_at_least(op, "stride", s, 1);
  check_at_least(op, "padding", p, 0);
  check_at_least(op, "dilation", d, 1);
  Pads pads;
  for (int64_t v : p) pads.push_back({v, v});
  Tensor r = conv_core(op, ci.x, weight, bias, s, pads, d, groups);
  return ci.batched ? r : r.squeeze(0);
}

// PyTorch's "same": d(k-1) padding in all, half of it (rounded down) before, the rest after.
Tensor Tensor::conv(const Tensor& weight, const std::optional<Tensor>& bias, std::vector<int64_t> stride,
                    const std::string& padding, std::vector<int64_t> dilation, int64_t groups) const {
  size_t nd = spatial_rank("conv", weight);
  std::string op = conv_name("conv", nd);
  if (padding == "valid") return conv(weight, bias, stride, Dims{0}, dilation, groups);
  if (padding != "same")
    throw ShapeError(op + ": padding must be 'same', 'valid' or ints, got '" + padding + "'");
  ConvInput ci = conv_input(op, *this, weight, nd);
  Dims s = spatial_arg(op, "stride", stride, nd), d = spatial_arg(op, "dilation", dilation, nd);
  check_at_least(op, "stride", s, 1);
  check_at_least(op, "dilation", d, 1);
  for (int64_t v : s)
    if (v != 1) throw ShapeError(op + ": padding='same' is not supported for strided convolutions (stride " + shape_text(s) + ")");
  Dims ws = weight.shape();
  Pads pads;
  for (size_t j = 0; j < nd; j++) {
    int64_t total = d[j] * (ws[2 + j] - 1);
    pads.push_back({total / 2, total - total / 2});
  }
  Tensor r = conv_core(op, ci.x, weight, bias, s, pads, d, groups);
  return ci.batched ? r : r.squeeze(0);
}

}  // namespace onegrad
