// Transposed convolution, computed from its taps. Output position o of an axis with stride s gets
// x[i] * w[k] for every o = i*s + k*d. Written o = q*s + r (r the stride phase), and with the
// weight dilated (zeros between its taps, so d = 1) and zero-padded to T*s taps, T = ceil(K/s):
//   y[q*s + r] = sum over t < T of x[q - t] * w[r + t*s]
// so every phase r is an ordinary stride-1 conv over the input with the T taps w[r + t*s], flipped.
// All phases at once are one conv with s times the output channels, whose result is interleaved
// by a reshape. No work is spent on the zeros a conv over a zero-inserted input would read (3/4 of
// its taps for a 2x2 stride-2 upsampling), and the input is not copied into a zero-inserted buffer.
// Stride 1 everywhere has a single phase: the conv with the flipped weight and the dilation as is.
#include <algorithm>

#include "tensor/conv_core.h"
#include "tensor/repeated_view.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// The checked arguments of one conv_transpose call.
struct TransposeArgs {
  Dims stride, padding, dilation, output_padding;
  int64_t groups = 1;
};

// out = (in-1)*s - 2p + d(k-1) + output_padding + 1. Padding d(k-1)-p before and
// d(k-1)-p+output_padding after (cut where negative) makes a stride-1 conv with the flipped weight
// give exactly that.
Tensor unstrided(const std::string& op, const Tensor& x, const Tensor& w, const TransposeArgs& a) {
  size_t nd = size_t(w.ndim() - 2);
  Pads pads;
  for (size_t j = 0; j < nd; j++) {
    int64_t edge = a.dilation[j] * (w.shape()[2 + j] - 1) - a.padding[j];
    pads.push_back({edge, edge + a.output_padding[j]});
  }
  return conv_core(op, x, w, std::nullopt, Dims(nd, 1), pads, a.dilation, a.groups);
}

// Zeros between the taps of the spatial axes of w (g*rcout, cin/g, k...): d-1 after each, the last
// then padded or cut to `taps` (k*d-d+1 <= taps or the cut only removes inserted zeros).
Tensor dilated_taps(const Tensor& w, const Dims& dilation, const Dims& taps) {
  size_t nd = dilation.size();
  Dims ws = w.shape(), inter{ws[0], ws[1]}, flat{ws[0], ws[1]};
  Pads zeros(2, {0, 0}), fit(2, {0, 0});
  for (size_t j = 0; j < nd; j++) {
    int64_t k = ws[2 + j], d = dilation[j];
    inter.insert(inter.end(), {k, 1});
    zeros.insert(zeros.end(), {{0, 0}, {0, d - 1}});
    flat.push_back(k * d);
    fit.push_back({0, taps[j] - k * d});
  }
  return pad_or_shrink(w.reshape(inter).pad(zeros).reshape(flat), fit);
}

// The phase form above, with the output's cropping (padding, output_padding) moved into the input's
// padding so that only the phases' rows the result keeps are computed.
Tensor strided(const std::string& op, const Tensor& x, const Tensor& w, const TransposeArgs& a) {
  size_t nd = a.stride.size();
  Dims xs = x.shape(), ws = w.shape();
  int64_t groups = a.groups, rcout = ws[0] / groups, rcin = ws[1], phases = 1;
  Dims T, taps, out_len;
  Pads in_pads, crop(2, {0, 0});
  for (size_t j = 0; j < nd; j++) {
    int64_t s = a.stride[j], p = a.padding[j], in = xs[2 + j];
    int64_t K = a.dilation[j] * (ws[2 + j] - 1) + 1, t = (K + s - 1) / s;
    int64_t full = (in - 1) * s + K, out = full - 2 * p + a.output_padding[j];
    // rows q0..q1-1 of the phase convs cover outputs [p, p + out); the padded input's row q reads
    // x[q - t + 1 .. q]
    int64_t q0 = p / s, q1 = (p + out + s - 1) / s;
    T.push_back(t);
    taps.push_back(t * s);
    out_len.push_back(out);
    in_pads.push_back({t - 1 - q0, q1 - in});
    crop.push_back({-(p - q0 * s), p + out - q1 * s});
    phases *= s;
  }
  // (g*rcout, rcin, T*s...) -> (g, rcout, rcin, T1, s1, T2, s2, ...), taps flipped, then the phases
  // beside rcout: (g, rcout, s1, s2, ..., rcin, T1, T2, ...) -> (g*rcout*phases, rcin, T...)
  Dims split{groups, rcout, rcin}, order{0, 1}, flips, merged{groups * rcout * phases, rcin};
  for (size_t j = 0; j < nd; j++) {
    split.insert(split.end(), {T[j], a.stride[j]});
    flips.push_back(int64_t(3 + 2 * j));
    order.push_back(int64_t(4 + 2 * j));
  }
  order.push_back(2);
  for (size_t j = 0; j < nd; j++) order.push_back(int64_t(3 + 2 * j));
  merged.insert(merged.end(), T.begin(), T.end());
  Tensor wp = dilated_taps(w, a.dilation, taps).reshape(split).flip(flips).permute(order).reshape(merged);
  // The phase conv is realized in its own layout (phases as channels). Fused into the interleaving
  // reshape below, its kernel's ranges would be the output's, o = q*s + r, where the loads x[o/s]
  // and w[o%s] are gathers and the kernel stays scalar: PaddleOCR det's 24 -> 1 channel upsampling
  // to 320x320 took 4.3 ms per call on one core that way; realized, its conv (vector loads along
  // q) takes 0.8 ms and the interleave 0.3.
  // An input that reads an interleaved view (another transposed conv's output, as in PaddleOCR det's
  // two 2x2 upsamplings in a row) is realized first: the phase conv reads each input element once per
  // phase and output channel, and from an interleaved view those loads are gathers that keep its
  // kernel scalar (det's 24 -> 1 channel conv to 320x320: 0.9 ms at 2 threads that way).
  Tensor xin = reads_interleaved_view(x.uop()) ? x.contiguous() : x;
  Tensor y = conv_core(op, xin, wp, std::nullopt, Dims(nd, 1), in_pads, Dims(nd, 1), groups).contiguous();
  // (n, g*rcout*phases, Q...) -> (n, cout, s..., Q...) -> (n, cout, Q1, s1, Q2, s2, ...) -> (n, cout, Q1*s1, ...)
  Dims ys = y.shape(), phased{ys[0], groups * rcout}, interleave{0, 1}, flat{ys[0], groups * rcout};
  phased.insert(phased.end(), a.stride.begin(), a.stride.end());
  for (size_t j = 0; j < nd; j++) {
    phased.push_back(ys[2 + j]);
    interleave.insert(interleave.end(), {int64_t(2 + nd + j), int64_t(2 + j)});
    flat.push_back(ys[2 + j] * a.stride[j]);
  }
  return pad_or_shrink(y.reshape(phased).permute(interleave).reshape(flat), crop);
}

}  // namespace

Tensor Tensor::conv_transpose(const Tensor& weight, const std::optional<Tensor>& bias, std::vector<int64_t> stride,
                              std::vector<int64_t> padding, std::vector<int64_t> output_padding, int64_t groups,
                              std::vector<int64_t> dilation) const {
  size_t nd = spatial_rank("conv_transpose", weight);
  std::string op = conv_name("conv_transpose", nd);
  ConvInput ci = conv_input(op, *this, weight, nd);
  TransposeArgs a{spatial_arg(op, "stride", stride, nd), spatial_arg(op, "padding", padding, nd),
                  spatial_arg(op, "dilation", dilation, nd), spatial_arg(op, "output_padding", output_padding, nd),
                  groups};
  check_at_least(op, "stride", a.stride, 1);
  check_at_least(op, "padding", a.padding, 0);
  check_at_least(op, "dilation", a.dilation, 1);
  check_at_least(op, "output_padding", a.output_padding, 0);
  for (size_t j = 0; j < nd; j++)
    if (a.output_padding[j] >= a.stride[j] && a.output_padding[j] >= a.dilation[j])
      throw ShapeError(op + ": output_padding " + shape_text(a.output_padding) + " must be smaller than either stride " +
                       shape_text(a.stride) + " or dilation " + shape_text(a.dilation));
  if (groups < 1) throw ShapeError(op + ": groups must be >= 1, got " + std::to_string(groups));
  Dims xs = ci.x.shape(), ws = weight.shape();
  int64_t cin = ws[0], rcout = ws[1];
  if (cin % groups != 0)
    throw ShapeError(op + ": given groups=" + std::to_string(groups) + ", weight " + shape_text(ws) +
                     " must have a multiple of " + std::to_string(groups) + " input channels");
  if (xs[1] != cin)
    throw ShapeError(op + ": weight " + shape_text(ws) + " expects an input with " + std::to_string(cin) +
                     " channels (weight.shape[0]), got input " + shape_text(xs));
  if (bias) check_bias(op, *bias, rcout * groups, ci.x);
  Dims k(ws.begin() + 2, ws.end()), out;
  for (size_t j = 0; j < nd; j++)
    out.push_back((xs[2 + j] - 1) * a.stride[j] - 2 * a.padding[j] + a.dilation[j] * (k[j] - 1) +
                  a.output_padding[j] + 1);
  if (std::any_of(out.begin(), out.end(), [](int64_t v) { return v < 1; }))
    throw ShapeError(op + ": the output size " + shape_text(out) + " is not positive (input " + shape_text(xs) +
                     ", kernel_size " + shape_text(k) + ", stride " + shape_text(a.stride) + ", padding " +
                     shape_text(a.padding) + ")");
  // weight (cin, rcout, k...) -> (groups, cin/g, rcout, k...) -> (groups, rcout, cin/g, k...), flipped
  // for the unstrided conv; the strided form flips after placing the taps
  Dims split{groups, cin / groups, rcout}, merged{groups * rcout, cin / groups}, flips;
  split.insert(split.end(), k.begin(), k.end());
  merged.insert(merged.end(), k.begin(), k.end());
  for (size_t j = 0; j < nd; j++) flips.push_back(int64_t(3 + j));
  Tensor w = weight.reshape(split).transpose(1, 2);
  bool any_stride = std::any_of(a.stride.begin(), a.stride.end(), [](int64_t v) { return v > 1; });
  Tensor r = any_stride ? strided(op, ci.x, w.reshape(merged), a) : unstrided(op, ci.x, w.flip(flips).reshape(merged), a);
  if (bias) {
    Dims bshape{1, rcout * groups};
    for (size_t j = 0; j < nd; j++) bshape.push_back(1);
    r = r.add(bias->reshape(bshape));
  }
  return ci.batched ? r : r.squeeze(0);
}

}  // namespace onegrad
