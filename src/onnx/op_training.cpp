// The optimizer ops of the ai.onnx.preview.training domain: Adagrad, Momentum, Adam, each updating
// n tensors at once (inputs R, T, then X..., G..., and the state tensors), as the ONNX spec writes
// them. The learning rate R and step count T are read on the host.
#include <cmath>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

Scalar num(double v) { return ConstValue::from_float(v); }

// The number of tensors updated: (inputs - 2) / groups.
size_t count(const Node& n, size_t groups) {
  if (n.num_inputs() < 2 || (n.num_inputs() - 2) % groups != 0)
    throw ArgumentError(n.op() + ": takes R, T and " + std::to_string(groups) + " groups of tensors, got " + std::to_string(n.num_inputs()) + " inputs");
  return (n.num_inputs() - 2) / groups;
}

Outs adagrad(const Node& n) {
  size_t k = count(n, 3);
  double r = n.floats(0).at(0), t = n.floats(1).at(0);
  double decay = n.attr_float("decay_factor", 0), eps = n.attr_float("epsilon", 0), norm = n.attr_float("norm_coefficient", 0);
  double lr = r / (1 + t * decay);
  Outs xs, hs;
  for (size_t i = 0; i < k; ++i) {
    const Tensor &x = n.in(2 + i), &g = n.in(2 + k + i), &h = n.in(2 + 2 * k + i);
    Tensor greg = x.mul(num(norm)).add(g);
    Tensor hnew = h.add(greg.square());
    xs.push_back(x.sub(greg.mul(num(lr)).div(hnew.sqrt().add(num(eps)))));
    hs.push_back(hnew);
  }
  xs.insert(xs.end(), hs.begin(), hs.end());
  return xs;
}

Outs momentum(const Node& n) {
  size_t k = count(n, 3);
  double r = n.floats(0).at(0), t = n.floats(1).at(0);
  double alpha = n.attr_float("alpha", 0), beta = n.attr_float("beta", 0), norm = n.attr_float("norm_coefficient", 0);
  std::string mode = n.attr_string("mode", "standard");
  if (mode != "standard" && mode != "nesterov") throw ArgumentError("Momentum: mode '" + mode + "' is not standard or nesterov");
  double b = t > 0 ? beta : 1;
  Outs xs, vs;
  for (size_t i = 0; i < k; ++i) {
    const Tensor &x = n.in(2 + i), &g = n.in(2 + k + i), &v = n.in(2 + 2 * k + i);
    Tensor greg = x.mul(num(norm)).add(g);
    Tensor vnew = v.mul(num(alpha)).add(greg.mul(num(b)));
    Tensor step = mode == "standard" ? vnew : greg.add(vnew.mul(num(alpha)));
    xs.push_back(x.sub(step.mul(num(r))));
    vs.push_back(vnew);
  }
  xs.insert(xs.end(), vs.begin(), vs.end());
  return xs;
}

Outs adam(const Node& n) {
  size_t k = count(n, 4);
  double r = n.floats(0).at(0), t = n.floats(1).at(0);
  double alpha = n.attr_float("alpha", 0.9), beta = n.attr_float("beta", 0.999), eps = n.attr_float("epsilon", 1e-6);
  double norm = n.attr_float("norm_coefficient", 0), post = n.attr_float("norm_coefficient_post", 0);
  double lr = t > 0 ? r * std::sqrt(1 - std::pow(beta, t)) / (1 - std::pow(alpha, t)) : r;
  Outs xs, vs, hs;
  for (size_t i = 0; i < k; ++i) {
    const Tensor &x = n.in(2 + i), &g = n.in(2 + k + i), &v = n.in(2 + 2 * k + i), &h = n.in(2 + 3 * k + i);
    Tensor greg = x.mul(num(norm)).add(g);
    Tensor vnew = v.mul(num(alpha)).add(greg.mul(num(1 - alpha)));
    Tensor hnew = h.mul(num(beta)).add(greg.square().mul(num(1 - beta)));
    Tensor xnew = x.sub(vnew.div(hnew.sqrt().add(num(eps))).mul(num(lr)));
    xs.push_back(xnew.mul(num(1 - post)));
    vs.push_back(vnew);
    hs.push_back(hnew);
  }
  xs.insert(xs.end(), vs.begin(), vs.end());
  xs.insert(xs.end(), hs.begin(), hs.end());
  return xs;
}

}  // namespace

void add_training_ops(OpTable& t) {
  t["ai.onnx.preview.training/Adagrad"] = adagrad;
  t["ai.onnx.preview.training/Momentum"] = momentum;
  t["ai.onnx.preview.training/Adam"] = adam;
}

}  // namespace onegrad::onnx
