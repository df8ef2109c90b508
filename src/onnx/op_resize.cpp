// Resize (and the older Upsample) as one 1-D interpolation per resized axis: for each output
// position the source coordinate (coordinate_transformation_mode), then the taps (nearest: 1,
// linear: 2, cubic: 4) and their weights, computed on the host because the sizes are static; the
// axis becomes sum_k x.index_select(axis, tap_k) * weight_k. Taps outside the input take the edge
// value, as ONNX's reference does (cubic's exclude_outside drops them and renormalizes instead).
#include <cmath>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

struct Settings {
  std::string mode, coord, nearest;
  double cubic_a = -0.75, extrapolation = 0.0;
  bool exclude_outside = false;
};

struct Taps {
  std::vector<std::vector<int64_t>> index;  // [tap][out]
  std::vector<std::vector<double>> weight;
  std::vector<bool> inside;                 // tf_crop_and_resize: the source lies in the input
};

// `out` is in * scale unrounded when scales were given (ONNX's reference uses that length).
double source_coord(const Settings& s, int64_t x, int64_t in, double out, double scale, double roi_start, double roi_end) {
  double xr = double(x);
  const std::string& c = s.coord;
  if (c == "half_pixel") return (xr + 0.5) / scale - 0.5;
  if (c == "pytorch_half_pixel") return out > 1 ? (xr + 0.5) / scale - 0.5 : 0.0;
  if (c == "align_corners") return out == 1 ? 0.0 : xr * double(in - 1) / (out - 1);
  if (c == "asymmetric") return xr / scale;
  if (c == "tf_half_pixel_for_nn") return (xr + 0.5) / scale;
  if (c == "tf_crop_and_resize")
    return out > 1 ? roi_start * double(in - 1) + xr * (roi_end - roi_start) * double(in - 1) / (out - 1)
                   : 0.5 * (roi_start + roi_end) * double(in - 1);
  throw ArgumentError("Resize: coordinate_transformation_mode '" + c + "' is not known");
}

int64_t nearest_index(const std::string& mode, double x) {
  if (mode == "round_prefer_floor") return int64_t(std::ceil(x - 0.5));
  if (mode == "round_prefer_ceil") return int64_t(std::floor(x + 0.5));
  if (mode == "floor") return int64_t(std::floor(x));
  if (mode == "ceil") return int64_t(std::ceil(x));
  throw ArgumentError("Resize: nearest_mode '" + mode + "' is not known");
}

std::vector<double> cubic_coeffs(double t, double a) {
  auto far = [a](double d) { return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a; };  // 1 < |d| < 2
  auto near = [a](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };     // |d| <= 1
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

// r when nearest taps read source o / r for every output o (an integer upscale, 0 0 1 1 2 2 ...):
// the axis is then a view that repeats each entry, which kernels read without a gather (the
// detection model's FPN upsamples four levels deep); else 0.
int64_t repeat_factor(const Taps& t, int64_t in, int64_t out) {
  if (t.index.size() != 1 || in < 1 || out % in != 0) return 0;
  int64_t r = out / in;
  for (int64_t o = 0; o < out; ++o)
    if (t.index[0][size_t(o)] != o / r) return 0;
  return r;
}

Tensor repeat_each(const Tensor& y, int64_t a, int64_t r) {
  std::vector<int64_t> shape = y.shape(), one = shape, wide = shape, out = shape;
  one.insert(one.begin() + a + 1, 1);
  wide.insert(wide.begin() + a + 1, r);
  out[size_t(a)] *= r;
  return y.reshape(one).expand(wide).reshape(out);
}

Taps axis_taps(const Settings& s, int64_t in, int64_t out, double out_len, double scale, double roi_start, double roi_end) {
  int ntaps = s.mode == "nearest" ? 1 : s.mode == "linear" ? 2 : 4;
  Taps t;
  t.index.assign(size_t(ntaps), std::vector<int64_t>(size_t(out)));
  t.weight.assign(size_t(ntaps), std::vector<double>(size_t(out)));
  t.inside.assign(size_t(out), true);
  auto clampi = [in](int64_t i) { return std::min(std::max<int64_t>(i, 0), in - 1); };
  for (int64_t o = 0; o < out; ++o) {
    double x = source_coord(s, o, in, out_len, scale, roi_start, roi_end);
    if (s.coord == "tf_crop_and_resize" && (x < 0 || x > double(in - 1))) t.inside[size_t(o)] = false;
    if (s.mode == "nearest") {
      t.index[0][size_t(o)] = clampi(nearest_index(s.nearest, x));
      t.weight[0][size_t(o)] = 1;
      continue;
    }
    double base = std::floor(x), frac = x - base;
    std::vector<double> w = s.mode == "linear" ? std::vector<double>{1 - frac, frac} : cubic_coeffs(frac, s.cubic_a);
    int64_t first = int64_t(base) - (s.mode == "linear" ? 0 : 1);
    double total = 0;
    for (int k = 0; k < ntaps; ++k) {
      int64_t i = first + k;
      if (s.exclude_outside && (i < 0 || i >= in)) w[size_t(k)] = 0;
      total += w[size_t(k)];
      t.index[size_t(k)][size_t(o)] = clampi(i);
    }
    for (int k = 0; k < ntaps; ++k) t.weight[size_t(k)][size_t(o)] = s.exclude_outside && total != 0 ? w[size_t(k)] / total : w[size_t(k)];
  }
  return t;
}

Tensor along(const std::vector<double>& v, int64_t axis, int64_t rank, DType dt, const std::string& device) {
  std::vector<int64_t> shape(size_t(rank), 1);
  shape[size_t(axis)] = int64_t(v.size());
  return Tensor::from_vector(v, {int64_t(v.size())}, dtypes::float64).to(device).cast(dt).reshape(shape);
}

Tensor resize(const Node& n) {
  const Tensor& x = n.in(0);
  auto in = x.shape();
  int64_t rank = x.ndim();
  Settings s;
  s.mode = n.attr_string("mode", "nearest");
  bool old = n.op() == "Upsample" || n.opset() < 11;  // Upsample and Resize-10: asymmetric, floor
  s.coord = old ? "asymmetric" : n.attr_string("coordinate_transformation_mode", "half_pixel");
  s.nearest = old ? "floor" : n.attr_string("nearest_mode", "round_prefer_floor");
  s.cubic_a = n.attr_float("cubic_coeff_a", -0.75);
  s.exclude_outside = n.attr_int("exclude_outside", 0) != 0;
  s.extrapolation = n.attr_float("extrapolation_value", 0.0);
  if (s.mode != "nearest" && s.mode != "linear" && s.mode != "cubic" && s.mode != "bilinear")
    throw ArgumentError(n.op() + ": mode '" + s.mode + "' is not nearest, linear or cubic");
  if (s.mode == "bilinear") s.mode = "linear";
  std::vector<double> scales, roi;
  std::vector<int64_t> sizes;
  if (n.op() == "Upsample") scales = n.opset() >= 9 ? n.floats(1) : n.attr_floats("scales");
  else if (old) scales = n.floats(1);
  else {
    if (n.has(1)) roi = n.floats(1);
    if (n.has(2)) scales = n.floats(2);
    if (n.has(3)) sizes = n.ints(3);
  }
  if (sizes.empty() && scales.empty()) throw ArgumentError(n.op() + ": neither scales nor sizes is given");
  if ((!sizes.empty() && int64_t(sizes.size()) != rank) || (sizes.empty() && int64_t(scales.size()) != rank))
    throw ShapeError(n.op() + ": scales/sizes need one value per axis of the rank-" + std::to_string(rank) + " input");
  Tensor y = x;
  Tensor inside;
  bool any_crop = false;
  for (int64_t a = 0; a < rank; ++a) {
    int64_t out = sizes.empty() ? int64_t(std::floor(double(in[size_t(a)]) * scales[size_t(a)])) : sizes[size_t(a)];
    double scale = sizes.empty() ? scales[size_t(a)] : double(out) / double(in[size_t(a)]);
    double r0 = roi.size() == size_t(2 * rank) ? roi[size_t(a)] : 0, r1 = roi.size() == size_t(2 * rank) ? roi[size_t(rank + a)] : 1;
    if (out == in[size_t(a)] && scale == 1.0 && s.coord != "tf_crop_and_resize") continue;
    double out_len = sizes.empty() ? double(in[size_t(a)]) * scale : double(out);
    Taps t = axis_taps(s, in[size_t(a)], out, out_len, scale, r0, r1);
    if (int64_t r = repeat_factor(t, in[size_t(a)], out); r > 1 && s.coord != "tf_crop_and_resize") {
      y = repeat_each(y, a, r);
      continue;
    }
    Tensor acc;
    for (size_t k = 0; k < t.index.size(); ++k) {
      Tensor idx = Tensor::from_vector(t.index[k], {out}, dtypes::int64).to(n.device());
      Tensor picked = y.index_select(a, idx);
      if (s.mode != "nearest") picked = picked.mul(along(t.weight[k], a, rank, y.dtype(), n.device()));
      acc = k == 0 ? picked : acc.add(picked);
    }
    y = acc;
    if (s.coord == "tf_crop_and_resize") {
      std::vector<double> v(t.inside.begin(), t.inside.end());
      Tensor m = along(v, a, rank, dtypes::float32, n.device());
      inside = any_crop ? inside.mul(m) : m;
      any_crop = true;
    }
  }
  if (any_crop)
    y = inside.gt(Tensor::scalar(ConstValue::from_float(0.5), dtypes::float32, n.device()))
            .where(y, Tensor::scalar(ConstValue::from_float(s.extrapolation), y.dtype(), n.device()));
  return y;
}

}  // namespace

void add_resize_ops(OpTable& t) {
  t["Resize"] = [](const Node& n) { return Outs{resize(n)}; };
  t["Upsample"] = t["Resize"];
}

}  // namespace onegrad::onnx
