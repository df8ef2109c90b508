// The gradient of cumsum and cumprod as reversed scans (gradient.h, kScanTag). scan.cpp builds a
// scan as a kScanTag REDUCE over the window view of the scanned values x (..., n), axis last; the
// view's adjoint would sum n tiled copies of the gradient. Here the gradient goes to x directly:
//   cumsum:  dx = rev(g), the reversed cumsum: dx[i] = sum_{j >= i} g[j]
//   cumprod: dx[i] = sum_{j >= i} g[j] * y[j] / x[i] before the first zero of the row, and at that
//            zero k: y[k-1] * sum_{j >= k} g[j] * prod_{k < m <= j} x[m]; after it, 0.
// Both are scans, so linear (the schedule runs a flipped cumsum as a scan, docs/schedule.md).
#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/gradient.h"
#include "tensor/shape_util.h"

namespace onegrad {

namespace {

// The scanned values under a scan's window view: the PAD's source, reached through the movement
// ops of scan.cpp's windows() (and the WHERE that pads with a nonzero value: its second source).
std::optional<Tensor> scanned_values(const GradInput& in) {
  UOpRef u = in.node->src.at(0);
  for (int steps = 0; steps < 10; steps++) {
    switch (u->op) {
      case Ops::RESHAPE: case Ops::EXPAND: case Ops::SHRINK: u = u->src.at(0); continue;
      case Ops::WHERE: u = u->src.at(1); continue;
      case Ops::PAD: {
        Dims want = in.self().shape();
        want.pop_back();  // (..., n, 1) -> (..., n)
        Tensor x(u->src.at(0), in.device);
        if (x.shape() != want || x.dtype() != in.node->dtype) return std::nullopt;
        return x;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

// sum_{j >= i} t[j] along the last axis.
Tensor reversed_cumsum(const Tensor& t) { return t.flip({-1}).cumsum(-1).flip({-1}); }

Tensor cumprod_gradient(const Tensor& x, const Tensor& y, const Tensor& g) {
  Tensor zero = x.eq(float_const(x, 0.0));
  Tensor zeros_upto = zero.cast(x.dtype()).cumsum(-1);                 // zeros at or before i
  Tensor before = zeros_upto.eq(float_const(x, 0.0));                  // before the first zero
  Tensor first = zero.logical_and(zeros_upto.eq(float_const(x, 1.0)));  // the first zero
  Tensor one = float_const(x, 1.0), none = float_const(x, 0.0);
  Tensor safe = zero.where(one, x);
  Tensor plain = reversed_cumsum(g.mul(y)).div(safe);
  // at the first zero k: the product before it (cumprod of safe at k, as safe[k] = 1) times the
  // reversed sum of g[j] * (the product of x over k < m <= j)
  Tensor after = before.logical_or(first).where(one, x).cumprod(-1);
  Tensor at_zero = safe.cumprod(-1).mul(reversed_cumsum(g.mul(after)));
  return before.where(plain, first.where(at_zero, none));
}

}  // namespace

std::optional<std::vector<Shortcut>> scan_shortcut(const GradInput& in) {
  if (in.node->op != Ops::REDUCE) return std::nullopt;
  std::optional<Tensor> x = scanned_values(in);
  if (!x) return std::nullopt;
  Tensor g = in.grad.reshape(x->shape());
  if (in.node->arg.get<ReduceArg>().op == Ops::ADD) return std::vector{Shortcut{x->uop(), reversed_cumsum(g)}};
  Tensor y = in.self().reshape(x->shape());
  return std::vector{Shortcut{x->uop(), cumprod_gradient(*x, y, g)}};
}

}  // namespace onegrad
