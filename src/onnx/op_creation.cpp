// Ops that make values: Constant (each of its attribute forms), ConstantOfShape, Range, EyeLike,
// and Dropout, which in inference is the identity (its mask all true).
#include <cmath>

#include "onnx/op_table.h"
#include "onnx/tensor_proto.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

Tensor constant(const Node& n) {
  if (auto t = n.attr_tensor("value")) return *t;
  auto on_device = [&](const Tensor& t) { return t.to(n.device()); };
  if (n.has_attr("value_float"))
    return on_device(Tensor::from_vector(std::vector<float>{float(n.attr_float("value_float", 0))}, {}, dtypes::float32));
  if (n.has_attr("value_int"))
    return on_device(Tensor::from_vector(std::vector<int64_t>{n.attr_int("value_int", 0)}, {}, dtypes::int64));
  if (n.has_attr("value_floats")) {
    std::vector<float> v;
    for (double d : n.attr_floats("value_floats")) v.push_back(float(d));
    return on_device(Tensor::from_vector(v, {int64_t(v.size())}, dtypes::float32));
  }
  if (n.has_attr("value_ints")) {
    auto v = n.attr_ints("value_ints");
    return on_device(Tensor::from_vector(v, {int64_t(v.size())}, dtypes::int64));
  }
  n.unsupported("a Constant without value, value_float(s) or value_int(s) (sparse_value, strings)");
}

Tensor constant_of_shape(const Node& n) {
  auto shape = n.ints(0);
  for (int64_t d : shape)
    if (d < 0) throw ShapeError("ConstantOfShape: negative dim " + std::to_string(d));
  auto value = n.attr_tensor("value");
  if (!value) return Tensor::zeros(shape, dtypes::float32, n.device());
  return value->reshape({}).expand(shape).contiguous();
}

Tensor range(const Node& n) {
  const Tensor& start = n.in(0);
  DType dt = start.dtype();
  if (dt.is_int()) {
    int64_t s = n.ints(0).at(0), l = n.ints(1).at(0), d = n.ints(2).at(0);
    if (d == 0) throw ArgumentError("Range: delta is 0");
    int64_t count = std::max<int64_t>(0, int64_t(std::ceil(double(l - s) / double(d))));
    return Tensor::arange(0, count, 1, dtypes::int64, n.device()).mul(ConstValue::from_int(d)).add(ConstValue::from_int(s)).cast(dt);
  }
  double s = n.floats(0).at(0), l = n.floats(1).at(0), d = n.floats(2).at(0);
  if (d == 0) throw ArgumentError("Range: delta is 0");
  int64_t count = std::max<int64_t>(0, int64_t(std::ceil((l - s) / d)));
  // start + i * delta in the value's own type, as ONNX's reference computes it
  Tensor i = Tensor::arange(0, count, 1, dtypes::int64, n.device()).cast(dt);
  return i.mul(n.in(2).reshape({})).add(start.reshape({}));
}

Tensor eye_like(const Node& n) {
  const Tensor& x = n.in(0);
  auto s = x.shape();
  if (s.size() != 2) throw ShapeError("EyeLike: input must be 2-D");
  DType dt = n.has_attr("dtype") ? dtype_of(int(n.attr_int("dtype", 1)), "EyeLike's dtype") : x.dtype();
  int64_t k = n.attr_int("k", 0);
  Tensor r = Tensor::arange(0, s[0], 1, dtypes::int64, n.device()).reshape({s[0], 1});
  Tensor c = Tensor::arange(0, s[1], 1, dtypes::int64, n.device()).reshape({1, s[1]});
  return c.sub(r).eq(Tensor::scalar(ConstValue::from_int(k), dtypes::int64, n.device())).cast(dt);
}

Outs dropout(const Node& n) {
  const Tensor& x = n.in(0);
  bool training = n.opset() >= 12 ? (n.has(2) && n.ints(2).at(0) != 0) : n.attr_int("is_test", 1) == 0 && n.opset() < 7;
  if (training) {
    double ratio = n.opset() >= 12 ? (n.has(1) ? n.floats(1).at(0) : 0.5) : n.attr_float("ratio", 0.5);
    if (ratio != 0) n.unsupported("training mode with a non-zero ratio (random masks)");
  }
  return {x, Tensor::ones(x.shape(), dtypes::bool_, n.device())};
}

// Hann, Hamming and Blackman windows: sums of cosines of 2 pi k n / N, N = size (periodic) or size - 1.
Tensor window(const Node& n, const std::vector<double>& coeffs) {
  int64_t size = n.ints(0).at(0);
  if (size < 0) throw ArgumentError(n.op() + ": size " + std::to_string(size) + " is negative");
  double len = double(n.attr_int("periodic", 1) ? size : size - 1);
  DType dt = dtype_of(int(n.attr_int("output_datatype", 1)), n.op() + "'s output_datatype");
  std::vector<double> w(static_cast<size_t>(size), 0.0);
  for (int64_t i = 0; i < size; ++i)
    for (size_t k = 0; k < coeffs.size(); ++k) w[size_t(i)] += coeffs[k] * std::cos(2 * M_PI * double(k) * double(i) / len);
  return Tensor::from_vector(w, {size}, dtypes::float64).cast(dt).to(n.device());
}

}  // namespace

void add_creation_ops(OpTable& t) {
  t["Constant"] = [](const Node& n) { return Outs{constant(n)}; };
  t["ConstantOfShape"] = [](const Node& n) { return Outs{constant_of_shape(n)}; };
  t["Range"] = [](const Node& n) { return Outs{range(n)}; };
  t["EyeLike"] = [](const Node& n) { return Outs{eye_like(n)}; };
  t["Dropout"] = dropout;
  t["HannWindow"] = [](const Node& n) { return Outs{window(n, {0.5, -0.5})}; };
  t["HammingWindow"] = [](const Node& n) { return Outs{window(n, {25.0 / 46, -21.0 / 46})}; };
  t["BlackmanWindow"] = [](const Node& n) { return Outs{window(n, {0.42, -0.5, 0.08})}; };
}

}  // namespace onegrad::onnx
