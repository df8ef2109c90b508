// Activations as compositions of Tensor ops (docs/tensor.md, "Math as compositions"). They work on
// floats: ints and bool become float32 first, as PyTorch's sigmoid/tanh do.
#include <cmath>
#include <numbers>

#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/tensor.h"

namespace onegrad {

// Stable: e = exp(-|x|) <= 1, so 1/(1+e) for x >= 0 and e/(1+e) below; never inf/inf.
Tensor Tensor::sigmoid() const {
  Tensor x = as_float(*this);
  Tensor e = x.abs().neg().exp();
  Tensor d = e.add(float_const(e, 1.0));
  return x.ge(float_const(x, 0.0)).where(d.recip(), e.div(d));
}

// tanh(|x|) = (1 - e)/(1 + e), e = exp(-2|x|) <= 1 (1 at +-inf, no NaN); the sign from x; 0, -0
// and NaN pass through.
Tensor Tensor::tanh() const {
  Tensor x = as_float(*this);
  Tensor e = x.abs().mul(float_const(x, -2.0)).exp();
  Tensor r = float_const(e, 1.0).sub(e).div(e.add(float_const(e, 1.0)));
  Tensor zero = float_const(x, 0.0);
  return x.lt(zero).where(r.neg(), x.gt(zero).where(r, x));
}

Tensor Tensor::leaky_relu(double negative_slope) const {
  Tensor x = require_float("leaky_relu", *this);
  return x.gt(float_const(x, 0.0)).where(x, x.mul(float_const(x, negative_slope)));
}

Tensor Tensor::elu(double alpha) const {
  Tensor x = require_float("elu", *this);
  return x.gt(float_const(x, 0.0)).where(x, x.expm1().mul(float_const(x, alpha)));
}

// 'none': x/2 * (1 + erf(x/sqrt 2)); 'tanh': x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
Tensor Tensor::gelu(bool tanh_approximate) const {
  Tensor x = require_float("gelu", *this);
  Tensor inner;
  if (tanh_approximate) {
    Tensor x3 = x.mul(x).mul(x);
    inner = x.add(x3.mul(float_const(x, 0.044715))).mul(float_const(x, std::sqrt(2.0 / std::numbers::pi))).tanh();
  } else {
    inner = x.mul(float_const(x, 1.0 / std::numbers::sqrt2)).erf();
  }
  return x.mul(float_const(x, 0.5)).mul(inner.add(float_const(x, 1.0)));
}

Tensor Tensor::silu() const {
  Tensor x = require_float("silu", *this);
  return x.mul(x.sigmoid());
}

// PyTorch: x where beta*x > threshold, else log1p(exp(beta*x))/beta, here computed as
// (max(bx, 0) + log1p(exp(-|bx|))) / beta so that exp never overflows.
Tensor Tensor::softplus(double beta, double threshold) const {
  Tensor x = require_float("softplus", *this);
  Tensor bx = x.mul(float_const(x, beta));
  // max(bx, 0) splits its gradient at 0 (relu's is one-sided): with abs's 0 there, the gradient
  // at 0 is 1/2 = sigmoid(0)
  Tensor sp = bx.maximum(float_const(bx, 0.0)).add(bx.abs().neg().exp().log1p()).div(float_const(x, beta));
  return bx.gt(float_const(x, threshold)).where(x, sp);
}

Tensor Tensor::mish() const {
  Tensor x = require_float("mish", *this);
  return x.mul(x.softplus().tanh());
}

// hardsigmoid(x) = clamp(x + 3, 0, 6) / 6; hardswish(x) = x * hardsigmoid(x).
Tensor Tensor::hardsigmoid() const {
  Tensor x = require_float("hardsigmoid", *this);
  return x.add(float_const(x, 3.0)).clamp(float_const(x, 0.0), float_const(x, 6.0)).div(float_const(x, 6.0));
}
Tensor Tensor::hardswish() const {
  Tensor x = require_float("hardswish", *this);
  return x.mul(x.hardsigmoid());
}

}  // namespace onegrad
