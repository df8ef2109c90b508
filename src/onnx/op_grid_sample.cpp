// GridSample (opset 16): each output pixel reads X at the point the grid names ((x, y) in [-1, 1]),
// by the nearest pixel, bilinear (4 taps) or bicubic (16 taps) weights. The grid is data, so the
// taps are computed as tensors: their flat pixel index gathers from X viewed as (N, C, H*W).
// Points outside the image read 0 (padding_mode zeros), the border pixel (border), or the
// reflection of the point in the border (reflection), as torch's grid_sample defines them.
#include <cmath>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

Scalar num(double v) { return ConstValue::from_float(v); }

struct Sampler {
  Tensor flat;  // X as (N, C, H*W)
  int64_t n, c, h, w, ho, wo;
  std::string padding;
  bool align;

  Tensor lit(double v, const Tensor& like) const { return Tensor::scalar(num(v), like.dtype(), like.device()); }

  // the coordinate reflected into [lo, hi] (twice_low/twice_high as torch writes them)
  Tensor reflect(const Tensor& x, double twice_low, double twice_high) const {
    if (twice_low == twice_high) return x.mul(num(0));
    double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
    Tensor d = x.sub(num(lo)).abs();
    Tensor flips = d.div(num(span)).floor();
    Tensor extra = d.sub(flips.mul(num(span)));
    Tensor even = flips.sub(flips.div(num(2)).floor().mul(num(2))).eq(lit(0, flips));
    return even.where(extra.add(num(lo)), extra.rsub(num(span + lo)));
  }

  // padding applied to a (continuous or tap) coordinate along an axis of `size`
  Tensor pad(const Tensor& x, int64_t size) const {
    if (padding == "border") return x.clamp(lit(0, x), lit(double(size - 1), x));
    if (padding == "reflection") {
      Tensor r = align ? reflect(x, 0, 2.0 * double(size - 1)) : reflect(x, -1, 2.0 * double(size) - 1);
      return r.clamp(lit(0, x), lit(double(size - 1), x));
    }
    return x;
  }

  // w * X[iy, ix] for tap coordinates (float tensors of (N, Ho, Wo)); taps outside read 0
  Tensor tap(const Tensor& ix, const Tensor& iy, const Tensor& weight) const {
    Tensor inside = ix.ge(lit(0, ix)).logical_and(ix.le(lit(double(w - 1), ix)))
                        .logical_and(iy.ge(lit(0, iy))).logical_and(iy.le(lit(double(h - 1), iy)));
    Tensor cx = ix.clamp(lit(0, ix), lit(double(w - 1), ix)).cast(dtypes::int64);
    Tensor cy = iy.clamp(lit(0, iy), lit(double(h - 1), iy)).cast(dtypes::int64);
    Tensor idx = cy.mul(ConstValue::from_int(w)).add(cx).reshape({n, 1, ho * wo}).expand({n, c, ho * wo});
    Tensor vals = flat.gather(2, idx).reshape({n, c, ho, wo});
    return vals.mul(inside.where(weight, lit(0, weight)).unsqueeze(1));
  }
};

std::vector<Tensor> cubic_weights(const Tensor& t) {
  const double a = -0.75;
  auto far = [a](const Tensor& d) { return d.mul(num(a)).sub(num(5 * a)).mul(d).add(num(8 * a)).mul(d).sub(num(4 * a)); };
  auto near = [a](const Tensor& d) { return d.mul(num(a + 2)).sub(num(a + 3)).mul(d).mul(d).add(num(1)); };
  Tensor u = t.rsub(num(1));
  return {far(t.add(num(1))), near(t), near(u), far(u.add(num(1)))};
}

Tensor grid_sample(const Node& node) {
  const Tensor& x = node.in(0);
  const Tensor& grid = node.in(1);
  auto xs = x.shape(), gs = grid.shape();
  if (xs.size() != 4 || gs.size() != 4 || gs[3] != 2 || gs[0] != xs[0])
    throw ShapeError("GridSample: X must be (N, C, H, W) and grid (N, H_out, W_out, 2)");
  Sampler s{x.reshape({xs[0], xs[1], xs[2] * xs[3]}), xs[0], xs[1], xs[2], xs[3], gs[1], gs[2],
            node.attr_string("padding_mode", "zeros"), node.attr_int("align_corners", 0) != 0};
  if (s.padding != "zeros" && s.padding != "border" && s.padding != "reflection")
    throw ArgumentError("GridSample: padding_mode '" + s.padding + "' is not zeros, border or reflection");
  std::string mode = node.attr_string("mode", "bilinear");
  Tensor g = grid.cast(x.dtype());
  auto unnormalize = [&](const Tensor& v, int64_t size) {
    return s.align ? v.add(num(1)).mul(num(double(size - 1) / 2)) : v.add(num(1)).mul(num(double(size))).sub(num(1)).div(num(2));
  };
  Tensor gx = unnormalize(g.getitem({Ellipsis{}, int64_t(0)}), s.w), gy = unnormalize(g.getitem({Ellipsis{}, int64_t(1)}), s.h);
  Tensor one = s.lit(1, gx);
  if (mode == "nearest") return s.tap(s.pad(gx, s.w).round(), s.pad(gy, s.h).round(), one.expand(gx.shape()));
  if (mode == "bilinear") {
    Tensor px = s.pad(gx, s.w), py = s.pad(gy, s.h);
    Tensor x0 = px.floor(), y0 = py.floor(), fx = px.sub(x0), fy = py.sub(y0);
    Tensor x1 = x0.add(num(1)), y1 = y0.add(num(1)), ux = fx.rsub(num(1)), uy = fy.rsub(num(1));
    return s.tap(x0, y0, ux.mul(uy)).add(s.tap(x1, y0, fx.mul(uy))).add(s.tap(x0, y1, ux.mul(fy))).add(s.tap(x1, y1, fx.mul(fy)));
  }
  if (mode == "bicubic") {
    Tensor x0 = gx.floor(), y0 = gy.floor();
    auto wx = cubic_weights(gx.sub(x0)), wy = cubic_weights(gy.sub(y0));
    Tensor sum;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        Tensor ix = s.pad(x0.add(num(double(j - 1))), s.w), iy = s.pad(y0.add(num(double(i - 1))), s.h);
        Tensor t = s.tap(ix, iy, wx[size_t(j)].mul(wy[size_t(i)]));
        sum = i == 0 && j == 0 ? t : sum.add(t);
      }
    return sum;
  }
  throw ArgumentError("GridSample: mode '" + mode + "' is not bilinear, nearest or bicubic");
}

}  // namespace

void add_grid_sample_ops(OpTable& t) {
  t["GridSample"] = [](const Node& n) { return std::vector<Tensor>{grid_sample(n)}; };
}

}  // namespace onegrad::onnx
