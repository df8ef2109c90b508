// Neural-net ops: MatMul, Gemm, Einsum, Conv, ConvTranspose and the pools. Asymmetric pads (which
// onegrad's conv and pools do not take) are applied to the input first, so every case reaches the
// Tensor op with padding 0.
#include <algorithm>
#include <limits>

#include "codegen/heuristics.h"
#include "onnx/channel_scale.h"
#include "onnx/computed_once.h"
#include "onnx/op_table.h"
#include "onnx/spatial.h"
#include "tensor/conv_pads.h"
#include "tensor/conv_taps.h"
#include "tensor/shape_util.h"
#include "uop/settings.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

std::vector<int64_t> spatial_dims(const Tensor& x) {
  auto s = x.shape();
  if (s.size() < 3) throw ShapeError("expects (N, C, spatial...) input, got rank " + std::to_string(s.size()));
  return {s.begin() + 2, s.end()};
}

// Output widths (MatMul's columns, Conv's channels) that are not a multiple of kLanes leave the
// kernel no vector width to upcast them by (40x120 @ 120x6625 ran 125x slower than @ 120x6640). A
// constant weight is padded with zeros to the next multiple once (folded), the contraction runs at
// that width into a buffer, and a view cuts the padding off.
constexpr int64_t kLanes = 16;

int64_t lane_width(int64_t n) { return n >= 2 * kLanes && n % kLanes ? (n + kLanes - 1) / kLanes * kLanes : n; }

std::vector<std::pair<int64_t, int64_t>> widen(int64_t rank, int64_t axis, int64_t by) {
  std::vector<std::pair<int64_t, int64_t>> p(size_t(rank), {0, 0});
  p[size_t(axis)].second = by;
  return p;
}

// t computed at a padded width on `axis`, realized, then its first n entries there.
Tensor narrowed(const Tensor& t, int64_t axis, int64_t n) {
  if (t.shape()[size_t(axis)] == n) return t;
  std::vector<std::pair<int64_t, int64_t>> b;
  for (int64_t d : t.shape()) b.push_back({0, d});
  b[size_t(axis)].second = n;
  return t.contiguous().shrink(b);
}

// a @ b, b a constant (K, N) padded to lane_width(N) columns and kept under `slot`.
Tensor matmul_constant(const Node& n, const Tensor& a, const Tensor& b, int slot) {
  int64_t cols = b.shape()[1], width = lane_width(cols);
  Tensor bw = n.folded(slot, [&] { return width == cols ? b.contiguous() : b.pad(widen(2, 1, width - cols)); });
  Tensor y = computed_once(a).matmul(bw);
  return narrowed(y, y.ndim() - 1, cols);
}

Tensor matmul(const Node& n) {
  if (n.constant(1) && n.in(1).ndim() == 2) return matmul_constant(n, n.in(0), n.in(1), 1);
  return computed_once(n.in(0)).matmul(computed_once(n.in(1)));
}

Tensor gemm(const Node& n) {
  Tensor a = n.attr_int("transA", 0) ? n.in(0).transpose(0, 1) : n.in(0);
  Tensor b = n.attr_int("transB", 0) ? n.in(1).transpose(0, 1) : n.in(1);
  double alpha = n.attr_float("alpha", 1.0), beta = n.attr_float("beta", 1.0);
  Tensor y = n.constant(1) ? matmul_constant(n, a, b, 1) : computed_once(a).matmul(computed_once(b));
  if (alpha != 1.0) y = y.mul(ConstValue::from_float(alpha));
  if (n.has(2)) y = y.add(beta == 1.0 ? n.in(2) : n.in(2).mul(ConstValue::from_float(beta)));
  return y;
}

Tensor einsum(const Node& n) {
  std::string eq = n.attr_string("equation", "");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  std::vector<Tensor> ops;
  for (size_t i = 0; i < n.num_inputs(); ++i) ops.push_back(n.in(i));
  return Tensor::einsum(eq, ops);
}

std::vector<int64_t> kernel_of(const Node& n, const Tensor& w) {
  auto k = n.attr_ints("kernel_shape");
  if (!k.empty()) return k;
  auto s = w.shape();
  return {s.begin() + 2, s.end()};
}

Tensor bias_add(Tensor y, const std::optional<Tensor>& bias) {
  if (!bias) return y;
  std::vector<int64_t> shape(size_t(y.ndim()), 1);
  shape[1] = bias->numel();
  return y.add(bias->reshape(shape));
}

// A constant weight (cout, cin, k...) kept with cout innermost and viewed back: the conv's kernel
// then upcasts output channels over contiguous weights (vector loads) instead of reading one weight
// per cin*k elements (3x on Silero VAD's 129-channel conv).
Tensor weight_cout_inner(const Node& n, const Tensor& w) {
  if (!n.constant(1) || w.ndim() < 3) return w;
  std::vector<int64_t> to_inner, back{w.ndim() - 1};
  for (int64_t i = 1; i < w.ndim(); ++i) {
    to_inner.push_back(i);
    back.push_back(i - 1);
  }
  to_inner.push_back(0);
  return n.folded(0, [&] { return w.permute(to_inner).contiguous(); }).permute(back);
}

// A dense conv's constant weight in blocks of `block` output channels, (cout / block, cin, k...,
// block), viewed back: the kernel blocks its output channels by `block` (conv_channel_block), so
// each block reads one contiguous run of weights over the whole reduction instead of `block` of every
// cout weights (the 96 -> 24 channel 3x3 convs of PaddleOCR det stream 83 KB per block of 6).
// Each block is folded under its own slot: an input whose width changes between calls can change
// the block.
Tensor weight_channel_blocks(const Node& n, const Tensor& w, int64_t block) {
  auto s = w.shape();
  std::vector<int64_t> split{s[0] / block, block}, to_inner{0}, back{0, w.ndim()};
  for (int64_t i = 1; i < w.ndim(); ++i) {
    split.push_back(s[size_t(i)]);
    to_inner.push_back(i + 1);
    back.push_back(i);
  }
  to_inner.push_back(1);
  return n.folded(int(block), [&] { return w.reshape(split).permute(to_inner).contiguous(); }).permute(back).reshape(s);
}

// The weight's layout: blocks of conv_channel_block's channels where the kernel gives the output
// channels a block of their own beside a row of output columns read with unit stride (a dense
// conv with a window, width stride 1, its padding copied), else output channels innermost. A 1x1
// conv keeps them innermost: its kernel is a matrix product blocked by its own rules.
Tensor conv_weight(const Node& n, const Tensor& w, const Spatial& s, int64_t in_width, int64_t groups, bool pad_free) {
  int64_t taps = 1;
  for (int64_t k : s.kernel) taps *= k;
  if (!n.constant(1) || w.ndim() < 3 || groups != 1 || taps == 1 || pad_free || s.strides.back() != 1)
    return weight_cout_inner(n, w);
  int64_t span = s.dilations.back() * (s.kernel.back() - 1) + 1;
  int64_t width = in_width + s.pad_begin.back() + s.pad_end.back() - span + 1;
  int64_t block = conv_channel_block(w.shape()[0], width);
  return block ? weight_channel_blocks(n, w, block) : weight_cout_inner(n, w);
}

// The input as the conv reads it, realized with its padding (tensor/conv_pads.h): each input
// element feeds every output channel and window tap. An input realized as it is goes to the nodes
// after this one too. A pointwise conv's input scaled per channel by a computed factor (a
// squeeze-excite block's x * s) is the product of x and s computed once each: a conv with few
// output channels reads them as two buffers it multiplies as it loads, a wider one realizes the
// product (onnx/channel_scale.h).
Tensor conv_read_input(const Node& n, const Dims& taps, const Spatial& s, Pads pads, int64_t cout, bool pad_free) {
  const Tensor& x = n.in(0);
  auto ones = [](const std::vector<int64_t>& v) { return std::all_of(v.begin(), v.end(), [](int64_t e) { return e == 1; }); };
  bool unpadded = std::all_of(pads.begin(), pads.end(), [](const auto& p) { return p.first == 0 && p.second == 0; });
  if (std::optional<Tensor> scaled = ones(s.kernel) && ones(s.strides) && unpadded ? scaled_by_channel(x) : std::nullopt)
    return cout <= kScaledConvMaxOutputs || pad_free ? *scaled : scaled->contiguous();
  pads.insert(pads.begin(), 2, {0, 0});
  PaddedConvInput in = padded_conv_input(x, taps, s.strides, pads, s.dilations, true);
  if (in.realized) n.realized_input(0, *in.realized);
  return in.x;
}

Tensor conv(const Node& n) {
  const Tensor& x = n.in(0);
  Tensor w = n.in(1);
  std::optional<Tensor> bias = n.opt(2);
  int64_t groups = n.attr_int("group", 1), cout = w.ndim() ? w.shape()[0] : 0;
  int64_t width = groups == 1 && n.constant(1) ? lane_width(cout) : cout;
  if (width != cout) {
    w = w.pad(widen(w.ndim(), 0, width - cout));
    if (bias) bias = bias->pad(widen(1, 0, width - cout));
  }
  Spatial s = window_spatial(n, spatial_dims(x), kernel_of(n, w));
  bool pad_free = setting("PAD_FREE_CONV", 0) != 0;
  w = conv_weight(n, w, s, spatial_dims(x).back(), groups, pad_free);
  // Taps that read only padding are cut (tensor/conv_taps.h), from the folded weight's view, in a
  // grouped conv: its windows are short sums (a depthwise conv's k x k taps) that the cut only
  // shortens. A dense conv's sum runs over cin x taps, and the cut's shorter reduction is blocked
  // and ordered differently: it moved Silero VAD's state (ill-conditioned: one ulp of input noise
  // moves onnxruntime's own by 4.6e-5) 1.5e-4 relative from onnxruntime's, over the 1e-4 the models
  // are held to, for 0.03 ms at batch 16.
  Pads pads = spatial_padding(s.nd(), s.pad_begin, s.pad_end);
  LiveTaps live = live_taps(x, s.kernel, s.strides, pads, s.dilations);
  if (live.cuts && groups > 1) {
    w = live_weight(w, live);
    pads = live.pads;
  }
  Dims ws = w.shape();
  Tensor xp = conv_read_input(n, Dims(ws.begin() + 2, ws.end()), s, pads, cout, pad_free);
  return narrowed(xp.conv(w, bias, s.strides, std::vector<int64_t>{0}, s.dilations, groups), 1, cout);
}

Tensor conv_transpose(const Node& n) {
  const Tensor& x = n.in(0);
  const Tensor& w = n.in(1);
  auto in = spatial_dims(x);
  auto kernel = kernel_of(n, w);
  size_t nd = kernel.size();
  auto strides = n.attr_ints("strides", std::vector<int64_t>(nd, 1));
  auto dil = n.attr_ints("dilations", std::vector<int64_t>(nd, 1));
  auto out_pad = n.attr_ints("output_padding", std::vector<int64_t>(nd, 0));
  auto pads = n.attr_ints("pads", std::vector<int64_t>(2 * nd, 0));
  auto out_shape = n.attr_ints("output_shape");
  std::string auto_pad = n.attr_string("auto_pad", "NOTSET");
  if (strides.size() != nd || dil.size() != nd || out_pad.size() != nd || pads.size() != 2 * nd)
    throw ShapeError("ConvTranspose: strides, dilations, output_padding and pads need one value per spatial axis (pads two)");
  if (out_shape.size() > nd) out_shape.erase(out_shape.begin(), out_shape.end() - int64_t(nd));
  std::vector<int64_t> begin(nd), end(nd);
  for (size_t i = 0; i < nd; ++i) {
    int64_t full = strides[i] * (in[i] - 1) + out_pad[i] + (kernel[i] - 1) * dil[i] + 1;
    if (!out_shape.empty() || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      int64_t want = out_shape.empty() ? in[i] * strides[i] : out_shape[i];
      int64_t total = full - want;
      bool upper = auto_pad != "SAME_LOWER";
      begin[i] = upper ? total / 2 : total - total / 2;
      end[i] = total - begin[i];
    } else {
      begin[i] = pads[i];
      end[i] = pads[i + nd];
    }
  }
  // The pads both ends share (and output_padding, where the Tensor op takes it) go to the Tensor
  // op, which computes only the outputs it keeps; what one end pads more is cropped from the result.
  int64_t group = n.attr_int("group", 1);
  std::vector<int64_t> pad(nd), op_pad(nd), crop_begin(nd), crop_end(nd);
  for (size_t i = 0; i < nd; ++i) {
    pad[i] = std::max<int64_t>(0, std::min(begin[i], end[i]));
    op_pad[i] = out_pad[i] < strides[i] || out_pad[i] < dil[i] ? out_pad[i] : 0;
    crop_begin[i] = pad[i] - begin[i];
    crop_end[i] = pad[i] - end[i] + out_pad[i] - op_pad[i];
  }
  Tensor y = x.conv_transpose(w, std::nullopt, strides, pad, op_pad, group, dil);
  if (std::any_of(crop_begin.begin(), crop_begin.end(), [](int64_t v) { return v != 0; }) ||
      std::any_of(crop_end.begin(), crop_end.end(), [](int64_t v) { return v != 0; }))
    y = y.pad(spatial_padding(size_t(y.ndim()), crop_begin, crop_end), Tensor::PadMode::constant);
  return bias_add(y, n.opt(2));
}

// The input padded for a pool: the explicit pads, plus, in ceil_mode, what the last window needs.
// Returns the padded input and the per-axis extra end padding.
struct PoolInput {
  Tensor x;
  Spatial s;
  std::vector<int64_t> extra;
};

PoolInput pool_input(const Node& n, const Tensor& x, Scalar pad_value) {
  auto in = spatial_dims(x);
  Spatial s = window_spatial(n, in, n.attr_ints("kernel_shape"));
  bool ceil_mode = n.attr_int("ceil_mode", 0) != 0;
  std::vector<int64_t> extra(s.nd(), 0), end(s.nd());
  for (size_t i = 0; i < s.nd(); ++i) {
    int64_t span = (s.kernel[i] - 1) * s.dilations[i] + 1;
    int64_t room = in[i] + s.pad_begin[i] + s.pad_end[i] - span;
    if (room < 0) throw ShapeError(n.op() + ": the kernel is larger than the padded input at spatial axis " + std::to_string(i));
    if (ceil_mode) {
      int64_t out = (room + s.strides[i] - 1) / s.strides[i] + 1;
      if ((out - 1) * s.strides[i] >= in[i] + s.pad_begin[i]) --out;  // a window must start inside the input
      extra[i] = std::max<int64_t>(0, (out - 1) * s.strides[i] + span - (in[i] + s.pad_begin[i] + s.pad_end[i]));
    }
    end[i] = s.pad_end[i] + extra[i];
  }
  Tensor xp = x.pad(spatial_padding(size_t(x.ndim()), s.pad_begin, end), pad_value);
  return {xp, s, extra};
}

std::vector<int64_t> last_axes(int64_t rank, size_t nd) {
  std::vector<int64_t> axes;
  for (size_t i = 0; i < nd; ++i) axes.push_back(rank - int64_t(nd) + int64_t(i));
  return axes;
}

Scalar lowest(DType dt) {
  if (dt.is_float()) return ConstValue::from_float(-std::numeric_limits<double>::infinity());
  return ConstValue::from_int(dt.int_min());
}

Outs max_pool(const Node& n) {
  const Tensor& x = n.in(0);
  PoolInput p = pool_input(n, x, lowest(x.dtype()));
  Tensor win = p.x.pool_windows(p.s.kernel, p.s.strides, p.s.dilations);
  auto axes = last_axes(win.ndim(), p.s.nd());
  Tensor y = win.max(axes);
  if (!n.wants_output(1)) return {y};
  // the flat index of each window's first maximum, from a window view of the positions; storage
  // order 1 numbers the spatial axes column-major (the last spatial axis varies slowest)
  Tensor pos = Tensor::arange(0, x.numel(), 1, dtypes::int64, x.device());
  if (n.attr_int("storage_order", 0) != 0) {
    auto s = x.shape();
    std::vector<int64_t> rev(s.begin(), s.begin() + 2), order{0, 1};
    for (int64_t a = x.ndim() - 1; a >= 2; --a) {
      rev.push_back(s[size_t(a)]);
      order.push_back(0);
    }
    for (int64_t i = 2; i < x.ndim(); ++i) order[size_t(i)] = x.ndim() + 1 - i;
    pos = pos.reshape(rev).permute(order);
  } else {
    pos = pos.reshape(x.shape());
  }
  Tensor pos_win = pos.pad(spatial_padding(size_t(x.ndim()), p.s.pad_begin,
                                           [&] {
                                             std::vector<int64_t> e(p.s.nd());
                                             for (size_t i = 0; i < e.size(); ++i) e[i] = p.s.pad_end[i] + p.extra[i];
                                             return e;
                                           }()),
                           ConstValue::from_int(-1))
                       .pool_windows(p.s.kernel, p.s.strides, p.s.dilations);
  auto ws = win.shape();
  std::vector<int64_t> flat(ws.begin(), ws.end() - int64_t(p.s.nd()));
  flat.push_back(-1);
  Tensor first = win.reshape(flat).argmax(-1, true);
  Tensor idx = pos_win.reshape(flat).gather(-1, first).squeeze(std::optional<int64_t>(-1));
  return {y, idx};
}

Tensor avg_pool(const Node& n) {
  const Tensor& x = n.in(0);
  PoolInput p = pool_input(n, x, ConstValue::from_float(0));
  Tensor win = p.x.pool_windows(p.s.kernel, p.s.strides, p.s.dilations);
  auto axes = last_axes(win.ndim(), p.s.nd());
  Tensor sum = win.sum(axes);
  // the divisor: how many window places lie in the input (or in its explicit pads too)
  bool include_pad = n.attr_int("count_include_pad", 0) != 0;
  auto in = spatial_dims(x);
  Tensor ones = Tensor::ones(in, x.dtype(), x.device());
  std::vector<int64_t> b = p.s.pad_begin, e = p.s.pad_end;
  if (include_pad) {
    ones = ones.pad(spatial_padding(in.size(), b, e), ConstValue::from_float(1));
    std::fill(b.begin(), b.end(), 0);
    e = p.extra;
  } else {
    for (size_t i = 0; i < e.size(); ++i) e[i] += p.extra[i];
  }
  Tensor count = ones.pad(spatial_padding(in.size(), b, e), ConstValue::from_float(0))
                     .pool_windows(p.s.kernel, p.s.strides, p.s.dilations)
                     .sum(last_axes(int64_t(2 * in.size()), p.s.nd()));
  return sum.div(count);
}

Tensor global_pool(const Node& n, bool max) {
  const Tensor& x = n.in(0);
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < x.ndim(); ++a) axes.push_back(a);
  return max ? x.max(axes, true) : x.mean(axes, true);
}

// The values of X put back at the flat positions I (MaxPool's Indices) of a zero tensor.
Tensor max_unpool(const Node& n) {
  const Tensor& x = n.in(0);
  auto in = spatial_dims(x);
  // the indices number the positions of the pooled input (the default output shape); an
  // output_shape larger than that pads the result at the end of each spatial axis
  Spatial s = window_spatial(n, in, n.attr_ints("kernel_shape"));
  auto xs = x.shape();
  std::vector<int64_t> shape(xs.begin(), xs.begin() + 2);
  for (size_t i = 0; i < s.nd(); ++i) shape.push_back((in[i] - 1) * s.strides[i] + s.kernel[i] - s.pad_begin[i] - s.pad_end[i]);
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  Tensor flat = Tensor::zeros({total}, x.dtype(), x.device());
  Tensor y = flat.scatter(0, n.in(1).reshape({x.numel()}).cast(dtypes::int64), x.reshape({x.numel()})).reshape(shape);
  if (!n.has(2)) return y;
  auto want = n.ints(2);
  if (want.size() != shape.size()) throw ShapeError("MaxUnpool: output_shape has rank " + std::to_string(want.size()) + ", the input " + std::to_string(shape.size()));
  std::vector<std::pair<int64_t, int64_t>> grow;
  for (size_t i = 0; i < shape.size(); ++i) grow.push_back({0, want[i] - shape[i]});
  return y.pad(grow, Tensor::PadMode::constant);
}

// Laplace expansion along the first row: exact and branch-free for the small matrices ONNX models
// take determinants of (n! terms, so n is limited to 5).
Tensor det(const Tensor& m) {
  int64_t n = m.shape().back();
  auto entry = [&](int64_t r, int64_t c) {
    std::vector<IndexItem> at{Ellipsis{}, r, c};
    return m.getitem(at);
  };
  if (n == 1) return entry(0, 0);
  Tensor sum;
  for (int64_t j = 0; j < n; ++j) {
    std::vector<IndexItem> rows{Ellipsis{}, Slice{1, std::nullopt, 1}, Slice{}};
    Tensor below = m.getitem(rows);
    std::vector<Tensor> cols;
    if (j > 0) cols.push_back(below.getitem({Ellipsis{}, Slice{0, j, 1}}));
    if (j + 1 < n) cols.push_back(below.getitem({Ellipsis{}, Slice{j + 1, std::nullopt, 1}}));
    Tensor term = entry(0, j).mul(det(Tensor::cat(cols, -1)));
    sum = j == 0 ? term : (j % 2 ? sum.sub(term) : sum.add(term));
  }
  return sum;
}

}  // namespace

void add_nn_ops(OpTable& t) {
  t["MatMul"] = [](const Node& n) { return Outs{matmul(n)}; };
  t["Gemm"] = [](const Node& n) { return Outs{gemm(n)}; };
  t["Einsum"] = [](const Node& n) { return Outs{einsum(n)}; };
  t["Conv"] = [](const Node& n) { return Outs{conv(n)}; };
  t["ConvTranspose"] = [](const Node& n) { return Outs{conv_transpose(n)}; };
  t["MaxPool"] = max_pool;
  t["Det"] = [](const Node& n) {
    const Tensor& m = n.in(0);
    auto s = m.shape();
    if (s.size() < 2 || s[s.size() - 1] != s[s.size() - 2]) throw ShapeError("Det: input must be (..., n, n), got " + shape_text(s));
    if (s.back() > 5 || s.back() < 1) n.unsupported("Det of " + std::to_string(s.back()) + "x" + std::to_string(s.back()) + " matrices (at most 5x5)");
    return Outs{det(m)};
  };
  t["MaxUnpool"] = [](const Node& n) { return Outs{max_unpool(n)}; };
  t["AveragePool"] = [](const Node& n) { return Outs{avg_pool(n)}; };
  t["GlobalAveragePool"] = [](const Node& n) { return Outs{global_pool(n, false)}; };
  t["GlobalMaxPool"] = [](const Node& n) { return Outs{global_pool(n, true)}; };
}

}  // namespace onegrad::onnx
