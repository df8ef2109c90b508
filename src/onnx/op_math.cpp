// Unary ONNX ops: math functions and activations, each one Tensor expression.
#include <cmath>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

Scalar num(double v) { return ConstValue::from_float(v); }
Tensor full_like(const Tensor& x, double v) { return Tensor::scalar(num(v), x.dtype(), x.device()).expand(x.shape()); }

using Unary = Tensor (*)(const Node&, const Tensor&);

OpFn unary(Unary f) {
  return [f](const Node& n) { return std::vector<Tensor>{f(n, n.in(0))}; };
}

Tensor clip(const Node& n) {
  const Tensor& x = n.in(0);
  std::optional<Tensor> lo, hi;
  if (n.opset() < 11) {  // min/max were attributes
    if (n.has_attr("min")) lo = Tensor::scalar(num(n.attr_float("min", 0)), x.dtype(), x.device());
    if (n.has_attr("max")) hi = Tensor::scalar(num(n.attr_float("max", 0)), x.dtype(), x.device());
  } else {
    lo = n.opt(1);
    hi = n.opt(2);
  }
  Tensor y = x;
  if (lo) y = y.maximum(*lo);
  if (hi) y = y.minimum(*hi);
  return y;
}

// atan on [-1, 1] by halving the angle once (atan x = 2 atan(x / (1 + sqrt(1 + x^2))), into
// |y| <= tan(pi/8)) and the Taylor series to y^23 (error below 1e-10 there); |x| > 1 by pi/2 - atan(1/x).
Tensor atan(const Tensor& x) {
  Tensor ax = x.abs();
  Tensor big = ax.gt(full_like(x, 1));
  Tensor r = big.where(ax.recip(), ax);
  Tensor y = r.div(r.square().add(num(1)).sqrt().add(num(1)));
  Tensor y2 = y.square(), term = y, sum = y;
  for (int k = 1; k <= 11; ++k) {
    term = term.mul(y2).neg();
    sum = sum.add(term.div(num(double(2 * k + 1))));
  }
  Tensor a = sum.mul(num(2));
  a = big.where(a.rsub(num(M_PI / 2)), a);
  return x.lt(full_like(x, 0)).where(a.neg(), a);
}

Tensor asin(const Tensor& x) { return atan(x.div(x.square().rsub(num(1)).sqrt())); }

}  // namespace

void add_math_ops(OpTable& t) {
  t["Abs"] = unary([](const Node&, const Tensor& x) { return x.abs(); });
  t["Neg"] = unary([](const Node&, const Tensor& x) { return x.neg(); });
  t["Exp"] = unary([](const Node&, const Tensor& x) { return x.exp(); });
  t["Log"] = unary([](const Node&, const Tensor& x) { return x.log(); });
  t["Sqrt"] = unary([](const Node&, const Tensor& x) { return x.sqrt(); });
  t["Reciprocal"] = unary([](const Node&, const Tensor& x) { return x.recip(); });
  t["Floor"] = unary([](const Node&, const Tensor& x) { return x.floor(); });
  t["Ceil"] = unary([](const Node&, const Tensor& x) { return x.ceil(); });
  t["Round"] = unary([](const Node&, const Tensor& x) { return x.round(); });
  t["Sign"] = unary([](const Node&, const Tensor& x) { return x.sign(); });
  t["Sin"] = unary([](const Node&, const Tensor& x) { return x.sin(); });
  t["Cos"] = unary([](const Node&, const Tensor& x) { return x.cos(); });
  t["Tan"] = unary([](const Node&, const Tensor& x) { return x.tan(); });
  t["Tanh"] = unary([](const Node&, const Tensor& x) { return x.tanh(); });
  t["Erf"] = unary([](const Node&, const Tensor& x) { return x.erf(); });
  t["Sigmoid"] = unary([](const Node&, const Tensor& x) { return x.sigmoid(); });
  t["Relu"] = unary([](const Node&, const Tensor& x) { return x.relu(); });
  t["IsNaN"] = unary([](const Node&, const Tensor& x) { return x.isnan(); });
  t["IsInf"] = unary([](const Node& n, const Tensor& x) {
    Tensor inf = x.isinf();
    Tensor pos = x.gt(full_like(x, 0));
    if (!n.attr_int("detect_positive", 1)) inf = inf.logical_and(pos.logical_not());
    if (!n.attr_int("detect_negative", 1)) inf = inf.logical_and(pos);
    return inf;
  });
  // (e^x - e^-x) / 2 and friends: the hyperbolic functions by their definitions
  t["Sinh"] = unary([](const Node&, const Tensor& x) { return x.exp().sub(x.neg().exp()).mul(num(0.5)); });
  t["Cosh"] = unary([](const Node&, const Tensor& x) { return x.exp().add(x.neg().exp()).mul(num(0.5)); });
  t["Asinh"] = unary([](const Node&, const Tensor& x) { return x.add(x.square().add(num(1)).sqrt()).log(); });
  t["Acosh"] = unary([](const Node&, const Tensor& x) { return x.add(x.square().sub(num(1)).sqrt()).log(); });
  t["Atanh"] = unary([](const Node&, const Tensor& x) { return x.add(num(1)).div(x.rsub(num(1))).log().mul(num(0.5)); });
  t["Softsign"] = unary([](const Node&, const Tensor& x) { return x.div(x.abs().add(num(1))); });
  t["Softplus"] = unary([](const Node&, const Tensor& x) { return x.exp().add(num(1)).log(); });
  t["HardSwish"] = unary([](const Node&, const Tensor& x) { return x.hardswish(); });
  t["Mish"] = unary([](const Node&, const Tensor& x) { return x.mish(); });
  t["Elu"] = unary([](const Node& n, const Tensor& x) {
    double a = n.attr_float("alpha", 1.0);
    return x.gt(full_like(x, 0)).where(x, x.exp().sub(num(1)).mul(num(a)));
  });
  t["Celu"] = unary([](const Node& n, const Tensor& x) {
    double a = n.attr_float("alpha", 1.0);
    return x.relu().add(x.div(num(a)).exp().sub(num(1)).mul(num(a)).minimum(full_like(x, 0)));
  });
  t["Selu"] = unary([](const Node& n, const Tensor& x) {
    double a = n.attr_float("alpha", 1.67326319217681884765625), g = n.attr_float("gamma", 1.05070102214813232421875);
    return x.gt(full_like(x, 0)).where(x, x.exp().sub(num(1)).mul(num(a))).mul(num(g));
  });
  t["LeakyRelu"] = unary([](const Node& n, const Tensor& x) {
    double a = n.attr_float("alpha", 0.01);
    return x.lt(full_like(x, 0)).where(x.mul(num(a)), x);
  });
  t["ThresholdedRelu"] = unary([](const Node& n, const Tensor& x) {
    return x.gt(full_like(x, n.attr_float("alpha", 1.0))).where(x, full_like(x, 0));
  });
  t["HardSigmoid"] = unary([](const Node& n, const Tensor& x) {
    double a = n.attr_float("alpha", 0.2), b = n.attr_float("beta", 0.5);
    return x.mul(num(a)).add(num(b)).maximum(full_like(x, 0)).minimum(full_like(x, 1));
  });
  t["Shrink"] = unary([](const Node& n, const Tensor& x) {
    double l = n.attr_float("lambd", 0.5), b = n.attr_float("bias", 0.0);
    Tensor xf = x.dtype().is_float() ? x : x.cast(dtypes::float64);
    Tensor y = xf.lt(full_like(xf, -l)).where(xf.add(num(b)), xf.gt(full_like(xf, l)).where(xf.sub(num(b)), full_like(xf, 0)));
    return y.cast(x.dtype());
  });
  t["PRelu"] = [](const Node& n) {
    const Tensor& x = n.in(0);
    return std::vector<Tensor>{x.lt(full_like(x, 0)).where(x.mul(n.in(1)), x)};
  };
  t["Atan"] = unary([](const Node&, const Tensor& x) { return atan(x); });
  t["Asin"] = unary([](const Node&, const Tensor& x) { return asin(x); });
  t["Acos"] = unary([](const Node&, const Tensor& x) { return asin(x).rsub(num(M_PI / 2)); });
  t["Clip"] = [](const Node& n) { return std::vector<Tensor>{clip(n)}; };
}

}  // namespace onegrad::onnx
