// Shape ops: Reshape, Transpose, Flatten, Squeeze/Unsqueeze, Concat, Split, Expand, Tile, Slice,
// Pad, Shape, Size, DepthToSpace/SpaceToDepth. Axes and sizes that later opsets take as inputs
// (Squeeze/Unsqueeze/Split at 13, Slice at 10, Pad at 11) are read from attributes before that.
#include <algorithm>
#include <numeric>

#include "onnx/op_table.h"
#include "tensor/shape_util.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

Tensor reshape(const Node& n) {
  const Tensor& x = n.in(0);
  auto shape = n.opset() < 5 ? n.attr_ints("shape") : n.ints(1);
  bool allowzero = n.attr_int("allowzero", 0) != 0;
  auto in = x.shape();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 0 && !allowzero) {  // 0 copies the input's dim
      if (i >= in.size()) throw ShapeError("Reshape: 0 at axis " + std::to_string(i) + " has no input dim to copy, input shape " + shape_text(in));
      shape[i] = in[i];
    }
  return x.reshape(shape);
}

std::vector<int64_t> axes_of(const Node& n, size_t input, int64_t since, int64_t rank) {
  std::vector<int64_t> axes = n.opset() >= since ? (n.has(input) ? n.ints(input) : std::vector<int64_t>{}) : n.attr_ints("axes");
  for (auto& a : axes) a = n.axis(a, rank);
  return axes;
}

Tensor squeeze(const Node& n) {
  const Tensor& x = n.in(0);
  auto axes = axes_of(n, 1, 13, x.ndim());
  if (axes.empty()) return x.squeeze();
  for (int64_t a : axes)
    if (x.shape()[size_t(a)] != 1)
      throw ShapeError("Squeeze: axis " + std::to_string(a) + " has size " + std::to_string(x.shape()[size_t(a)]) +
                       ", not 1, in shape " + shape_text(x.shape()));
  return x.squeeze(axes);
}

Tensor unsqueeze(const Node& n) {
  const Tensor& x = n.in(0);
  auto raw = n.opset() >= 13 ? n.ints(1) : n.attr_ints("axes");
  int64_t out_rank = x.ndim() + int64_t(raw.size());
  std::vector<int64_t> axes;
  for (int64_t a : raw) axes.push_back(n.axis(a, out_rank));
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) throw ShapeError("Unsqueeze: repeated axis in " + shape_text(raw));
  auto in = x.shape();
  std::vector<int64_t> out;
  size_t k = 0;
  for (int64_t i = 0; i < out_rank; ++i) {
    if (std::binary_search(axes.begin(), axes.end(), i)) out.push_back(1);
    else out.push_back(in[k++]);
  }
  return x.reshape(out);
}

Tensor flatten(const Node& n) {
  const Tensor& x = n.in(0);
  auto s = x.shape();
  int64_t axis = n.attr_int("axis", 1);
  if (axis < 0) axis += x.ndim();
  if (axis < 0 || axis > x.ndim()) throw ShapeError("Flatten: axis " + std::to_string(n.attr_int("axis", 1)) + " is out of range for rank " + std::to_string(x.ndim()));
  int64_t rows = std::accumulate(s.begin(), s.begin() + axis, int64_t(1), std::multiplies<>());
  int64_t cols = std::accumulate(s.begin() + axis, s.end(), int64_t(1), std::multiplies<>());
  return x.reshape({rows, cols});
}

Outs split(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  int64_t len = x.shape()[size_t(axis)];
  std::vector<int64_t> sizes = n.opset() >= 13 ? (n.has(1) ? n.ints(1) : std::vector<int64_t>{}) : n.attr_ints("split");
  if (sizes.empty()) {
    int64_t parts = n.has_attr("num_outputs") ? n.attr_int("num_outputs", 1) : int64_t(n.num_outputs());
    int64_t each = (len + parts - 1) / parts;  // the last part may be smaller (opset 18)
    for (int64_t p = 0, left = len; p < parts; ++p, left -= each) sizes.push_back(std::min(each, left));
  }
  if (std::accumulate(sizes.begin(), sizes.end(), int64_t(0)) != len)
    throw ShapeError("Split: sizes " + shape_text(sizes) + " do not add up to " + std::to_string(len) + " (axis " + std::to_string(axis) + ")");
  return x.split_with_sizes(sizes, axis);
}

Tensor expand(const Node& n) {
  const Tensor& x = n.in(0);
  auto want = n.ints(1);
  auto in = x.shape();
  size_t rank = std::max(want.size(), in.size());
  std::vector<int64_t> a(rank - in.size(), 1), b(rank - want.size(), 1), out(rank);
  a.insert(a.end(), in.begin(), in.end());
  b.insert(b.end(), want.begin(), want.end());
  for (size_t i = 0; i < rank; ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
      throw ShapeError("Expand: shape " + shape_text(in) + " does not broadcast to " + shape_text(want));
    out[i] = a[i] == 1 ? b[i] : a[i];
  }
  return x.reshape(a).expand(out);
}

Tensor slice(const Node& n) {
  const Tensor& x = n.in(0);
  std::vector<int64_t> starts, ends, axes, steps;
  if (n.opset() < 10) {
    starts = n.attr_ints("starts");
    ends = n.attr_ints("ends");
    axes = n.attr_ints("axes");
  } else {
    starts = n.ints(1);
    ends = n.ints(2);
    if (n.has(3)) axes = n.ints(3);
    if (n.has(4)) steps = n.ints(4);
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    throw ShapeError("Slice: starts, ends, axes and steps have different lengths");
  auto shape = x.shape();
  std::vector<IndexItem> index(shape.size(), Slice{});
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t a = n.axis(axes[i], x.ndim()), dim = shape[size_t(a)], step = steps[i];
    if (step == 0) throw ArgumentError("Slice: step 0 at axis " + std::to_string(a));
    auto clamp = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0) v += dim;  // still negative: before the first element, clamped below
      return std::clamp(v, lo, hi);
    };
    int64_t s = step > 0 ? clamp(starts[i], 0, dim) : clamp(starts[i], 0, dim - 1);
    int64_t e = step > 0 ? clamp(ends[i], 0, dim) : clamp(ends[i], -1, dim - 1);
    Slice sl{s, e, step};
    if (e < 0) sl.stop = std::nullopt;  // -1 with a negative step: through element 0
    index[size_t(a)] = sl;
  }
  return x.getitem(index);
}

Tensor pad(const Node& n) {
  const Tensor& x = n.in(0);
  std::vector<int64_t> pads = n.opset() < 11 ? n.attr_ints("pads", n.attr_ints("paddings")) : n.ints(1);
  double value = n.opset() < 11 ? n.attr_float("value", 0.0) : (n.has(2) ? n.floats(2).at(0) : 0.0);
  int64_t rank = x.ndim();
  std::vector<int64_t> axes;
  if (n.has(3)) axes = n.ints(3);
  else
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  if (pads.size() != 2 * axes.size())
    throw ShapeError("Pad: " + std::to_string(pads.size()) + " pads for " + std::to_string(axes.size()) + " axes (want 2 per axis)");
  std::vector<std::pair<int64_t, int64_t>> padding(size_t(rank), {0, 0});
  for (size_t i = 0; i < axes.size(); ++i) padding[size_t(n.axis(axes[i], rank))] = {pads[i], pads[i + axes.size()]};
  std::string mode = n.attr_string("mode", "constant");
  Scalar v = x.dtype().is_float() ? ConstValue::from_float(value) : ConstValue::from_int(i128(value));
  if (mode == "constant") return x.pad(padding, Tensor::PadMode::constant, v);
  if (mode == "reflect") return x.pad(padding, Tensor::PadMode::reflect);
  if (mode == "edge") return x.pad(padding, Tensor::PadMode::replicate);
  if (mode == "wrap") return x.pad(padding, Tensor::PadMode::circular);
  throw ArgumentError("Pad: mode '" + mode + "' is not one of constant, reflect, edge, wrap");
}

Tensor shape_of(const Node& n) {
  auto s = n.in(0).shape();
  int64_t r = int64_t(s.size());
  int64_t start = n.attr_int("start", 0), end = n.attr_int("end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, start, r);
  std::vector<int64_t> dims(s.begin() + start, s.begin() + end);
  return Tensor::from_vector(dims, {int64_t(dims.size())}, dtypes::int64).to(n.device());
}

Tensor depth_to_space(const Node& n) {
  const Tensor& x = n.in(0);
  auto s = x.shape();
  if (s.size() != 4) throw ShapeError("DepthToSpace: input must be 4-D, got " + shape_text(s));
  int64_t bs = n.attr_int("blocksize", 1), b = s[0], c = s[1], h = s[2], w = s[3];
  if (bs <= 0 || c % (bs * bs)) throw ShapeError("DepthToSpace: channels " + std::to_string(c) + " not divisible by blocksize^2");
  int64_t c2 = c / (bs * bs);
  if (n.attr_string("mode", "DCR") == "CRD")
    return x.reshape({b, c2, bs, bs, h, w}).permute({0, 1, 4, 2, 5, 3}).reshape({b, c2, h * bs, w * bs});
  return x.reshape({b, bs, bs, c2, h, w}).permute({0, 3, 4, 1, 5, 2}).reshape({b, c2, h * bs, w * bs});
}

Tensor space_to_depth(const Node& n) {
  const Tensor& x = n.in(0);
  auto s = x.shape();
  if (s.size() != 4) throw ShapeError("SpaceToDepth: input must be 4-D, got " + shape_text(s));
  int64_t bs = n.attr_int("blocksize", 1), b = s[0], c = s[1], h = s[2], w = s[3];
  if (bs <= 0 || h % bs || w % bs) throw ShapeError("SpaceToDepth: spatial dims not divisible by blocksize " + std::to_string(bs));
  return x.reshape({b, c, h / bs, bs, w / bs, bs}).permute({0, 3, 5, 1, 2, 4}).reshape({b, c * bs * bs, h / bs, w / bs});
}

}  // namespace

void add_shape_ops(OpTable& t) {
  t["Reshape"] = [](const Node& n) { return Outs{reshape(n)}; };
  t["Transpose"] = [](const Node& n) {
    const Tensor& x = n.in(0);
    std::vector<int64_t> perm = n.attr_ints("perm");
    if (perm.empty())
      for (int64_t a = x.ndim() - 1; a >= 0; --a) perm.push_back(a);
    return Outs{x.permute(perm)};
  };
  t["Flatten"] = [](const Node& n) { return Outs{flatten(n)}; };
  t["Squeeze"] = [](const Node& n) { return Outs{squeeze(n)}; };
  t["Unsqueeze"] = [](const Node& n) { return Outs{unsqueeze(n)}; };
  t["Concat"] = [](const Node& n) {
    std::vector<Tensor> parts;
    for (size_t i = 0; i < n.num_inputs(); ++i) parts.push_back(n.in(i));
    return Outs{Tensor::cat(parts, n.axis(n.attr_int("axis", 0), parts.at(0).ndim()))};
  };
  t["Split"] = split;
  t["Expand"] = [](const Node& n) { return Outs{expand(n)}; };
  t["Tile"] = [](const Node& n) { return Outs{n.in(0).tile(n.ints(1))}; };
  t["Slice"] = [](const Node& n) { return Outs{slice(n)}; };
  t["Pad"] = [](const Node& n) { return Outs{pad(n)}; };
  t["Shape"] = [](const Node& n) { return Outs{shape_of(n)}; };
  t["Size"] = [](const Node& n) {
    int64_t numel = n.in(0).numel();
    return Outs{Tensor::from_vector(std::vector<int64_t>{numel}, {}, dtypes::int64).to(n.device())};
  };
  t["DepthToSpace"] = [](const Node& n) { return Outs{depth_to_space(n)}; };
  t["SpaceToDepth"] = [](const Node& n) { return Outs{space_to_depth(n)}; };
}

}  // namespace onegrad::onnx
