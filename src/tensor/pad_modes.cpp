// Padding with PyTorch's modes (torch.nn.functional.pad), axis by axis, as compositions (docs/tensor.md,
// "Shape ops"): constant = SHRINK for the negative amounts then pad(value); reflect = the mirrored
// edge slices (SHRINK + FLIP) joined by cat; replicate = the edge slices EXPANDed, joined by cat;
// circular = the axis tiled (movement only) and the wrapped window SHRINKed out. Negative amounts
// crop. The modes are separable (out[i, j] = x[f(i), g(j)]), so one axis after another gives the
// corners PyTorch gives.
#include <algorithm>

#include "tensor/shape_ops.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

std::string num(int64_t v) { return std::to_string(v); }

const char* mode_name(Tensor::PadMode m) {
  switch (m) {
    case Tensor::PadMode::constant: return "constant";
    case Tensor::PadMode::reflect: return "reflect";
    case Tensor::PadMode::replicate: return "replicate";
    case Tensor::PadMode::circular: return "circular";
  }
  return "?";
}

// The part of axis `ax` that negative amounts leave: [max(0, -before), n - max(0, -after)).
Tensor crop(const Tensor& t, int64_t ax, int64_t before, int64_t after) {
  int64_t n = t.shape()[ax];
  return shrink_axis(t, ax, std::max<int64_t>(0, -before), n - std::max<int64_t>(0, -after));
}

Tensor join(std::vector<Tensor> parts, int64_t ax) {
  std::erase_if(parts, [&](const Tensor& p) { return !p.uop(); });
  return Tensor::cat(parts, ax);
}

Tensor reflect_axis(const Tensor& t, int64_t ax, int64_t l, int64_t r) {
  int64_t n = t.shape()[ax];
  Tensor left = l > 0 ? shrink_axis(t, ax, 1, l + 1).flip({ax}) : Tensor();
  Tensor right = r > 0 ? shrink_axis(t, ax, n - 1 - r, n - 1).flip({ax}) : Tensor();
  return join({left, t, right}, ax);
}

Tensor replicate_axis(const Tensor& t, int64_t ax, int64_t l, int64_t r) {
  Dims s = t.shape();
  int64_t n = s[ax];
  auto edge = [&](int64_t at, int64_t k) {
    Dims e = s;
    e[ax] = k;
    return shrink_axis(t, ax, at, at + 1).expand(e);
  };
  return join({l > 0 ? edge(0, l) : Tensor(), t, r > 0 ? edge(n - 1, r) : Tensor()}, ax);
}

// The axis (length m) tiled enough times, then the window that starts l before a whole copy.
Tensor circular_axis(const Tensor& t, int64_t ax, int64_t l, int64_t r) {
  int64_t m = t.shape()[ax];
  int64_t lc = (l + m - 1) / m, rc = (r + m - 1) / m;
  return shrink_axis(tile_axis(t, ax, 1 + lc + rc), ax, lc * m - l, lc * m + m + r);
}

}  // namespace

Tensor Tensor::pad(std::vector<std::pair<int64_t, int64_t>> padding, PadMode mode, Scalar value) const {
  Dims s = shape();
  std::string op = std::string("pad (") + mode_name(mode) + ")";
  if (padding.size() > s.size())
    throw ShapeError(op + ": " + num(int64_t(padding.size())) + " (before, after) pairs for shape " + shape_text(s));
  auto pair_text = [](int64_t l, int64_t r) { return "(" + num(l) + ", " + num(r) + ")"; };
  // Checks first, against the input's shape, so the message names the shape the user passed.
  for (size_t i = 0; i < padding.size(); i++) {
    auto [l, r] = padding[i];
    int64_t n = s[i];
    std::string where = " for axis " + num(int64_t(i)) + " of shape " + shape_text(s);
    if (std::max<int64_t>(0, -l) + std::max<int64_t>(0, -r) > n)
      throw ShapeError(op + ": padding " + pair_text(l, r) + " crops more than the size " + num(n) + where);
    if (mode == PadMode::reflect && ((l >= n && l > 0) || (r >= n && r > 0)))
      throw ShapeError(op + ": padding " + pair_text(l, r) + " must be less than the size " + num(n) + where);
    if (mode == PadMode::circular && (l > n || r > n))
      throw ShapeError(op + ": padding " + pair_text(l, r) + " wraps around more than once" + where);
    if ((mode == PadMode::replicate || mode == PadMode::circular) && (l > 0 || r > 0)) {
      int64_t left = n - std::max<int64_t>(0, -l) - std::max<int64_t>(0, -r);
      if ((mode == PadMode::replicate ? n : left) == 0)
        throw ShapeError(op + ": cannot pad " + pair_text(l, r) + " from an empty axis" + where);
    }
  }
  if (mode == PadMode::constant) {
    Tensor t = *this;
    std::vector<std::pair<int64_t, int64_t>> grow;
    for (size_t i = 0; i < padding.size(); i++) {
      auto [l, r] = padding[i];
      t = crop(t, int64_t(i), l, r);
      grow.push_back({std::max<int64_t>(0, l), std::max<int64_t>(0, r)});
    }
    return t.pad(grow, value);
  }
  Tensor t = *this;
  for (size_t i = 0; i < padding.size(); i++) {
    auto [l, r] = padding[i];
    int64_t ax = int64_t(i), pl = std::max<int64_t>(0, l), pr = std::max<int64_t>(0, r);
    if (l == 0 && r == 0) continue;
    switch (mode) {
      // PyTorch pads reflect and replicate on the whole axis and crops after; circular crops
      // first and wraps the rest (F.pad(x, (-1, 2), mode='circular') repeats x[1:]).
      case PadMode::reflect: t = crop(reflect_axis(t, ax, pl, pr), ax, l, r); break;
      case PadMode::replicate: t = crop(replicate_axis(t, ax, pl, pr), ax, l, r); break;
      case PadMode::circular: t = circular_axis(crop(t, ax, l, r), ax, pl, pr); break;
      case PadMode::constant: break;
    }
  }
  return t;
}

}  // namespace onegrad
