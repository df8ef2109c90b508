#include "tensor/broadcast.h"

#include <algorithm>
#include <unordered_set>

#include "tensor/literal_check.h"
#include "tensor/symbolic_dims.h"
#include "uop/errors.h"

namespace onegrad {

Dims broadcast_shape(const std::string& op, const std::vector<Dims>& shapes) {
  size_t nd = 0;
  for (const Dims& s : shapes) nd = std::max(nd, s.size());
  Dims out(nd, 1);
  for (const Dims& s : shapes) {
    size_t off = nd - s.size();
    for (size_t i = 0; i < s.size(); i++) {
      int64_t& o = out[off + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o == 1) {
        o = s[i];
        continue;
      }
      std::string text;
      for (size_t k = 0; k < shapes.size(); k++)
        text += (k == 0 ? "" : k + 1 == shapes.size() ? " and " : ", ") + shape_text(shapes[k]);
      throw ShapeError(op + ": cannot broadcast shapes " + text);
    }
  }
  return out;
}

void check_same_device(const std::string& op, const std::vector<Tensor>& ts) {
  for (const Tensor& t : ts)
    if (t.device() != ts[0].device())
      throw DeviceError(op + ": tensors on different devices: " + ts[0].device() + " and " + t.device());
}

DType scalar_dtype(DType t, const Scalar& s) {
  if (t.is_float()) return t;
  if (s.is_float()) return dtypes::float32;
  return t.is_bool() ? int_literal_dtype("scalar", s) : t;
}

Tensor scalar_like(const Tensor& t, const Scalar& s) { return Tensor::scalar(s, scalar_dtype(t.dtype(), s), t.device()); }

Tensor scalar_operand(const std::string& op, const Tensor& t, const Scalar& s, bool is_bool) {
  DType dt = t.dtype();
  if (is_bool) return Tensor::scalar(s, dtypes::bool_, t.device());
  if ((op == "div" || op == "rdiv") && !dt.is_float())
    return Tensor::scalar(cast_value(s, dtypes::float32), dtypes::float32, t.device());
  // An int that does not fit an int tensor's dtype wraps in a ring op (+, -, *, &, |, ^) as in
  // PyTorch: the result is the exact one wrapped to the dtype, as if the tensor's arithmetic had
  // overflowed. In any other op the wrapped number would change the answer (int8 `x < 1000` would
  // compare with -24), so it is refused; so is a number a select (where, maximum, minimum, clamp)
  // would store and cannot. A float tensor's number is rounded (1e6 is inf in float16), as PyTorch.
  static const std::unordered_set<std::string> ring = {"add", "radd", "sub", "rsub", "mul", "rmul",
                                                       "bitwise_and", "rbitwise_and", "bitwise_or",
                                                       "rbitwise_or", "bitwise_xor", "rbitwise_xor"};
  static const std::unordered_set<std::string> selects = {"where", "maximum", "minimum", "clamp"};
  DType sd = scalar_dtype(dt, s);
  if (selects.count(op) || (sd.is_int() && !ring.count(op))) check_literal(op, s, sd);
  return Tensor::scalar(cast_value(s, sd), sd, t.device());
}

// Internal constants wrap on purpose (bitwise_not's all-ones mask is -1 for every int dtype).
Tensor full_like(const Tensor& t, const Scalar& v) {
  if (has_symbolic_dim(t.uop()->shape()))
    return Tensor::scalar(cast_value(v, t.dtype()), t.dtype(), t.device()).expand_symbolic(t.uop()->shape());
  return Tensor::full(t.shape(), cast_value(v, t.dtype()), t.dtype(), t.device());
}

DType promote_all(const std::vector<Tensor>& ts) {
  DType dt = ts.at(0).dtype();
  for (const Tensor& t : ts) dt = promote_types(dt, t.dtype());
  return dt;
}

std::vector<Tensor> elementwise_operands(const std::string& op, std::vector<Tensor> ts, std::optional<DType> dtype) {
  check_same_device(op, ts);
  DType dt = dtype ? *dtype : promote_all(ts);
  if (std::any_of(ts.begin(), ts.end(), [](const Tensor& t) { return has_symbolic_dim(t.uop()->shape()); })) {
    std::vector<Shape> dims;  // a symbolic dim broadcasts as itself (symbolic_dims.h)
    for (const Tensor& t : ts) dims.push_back(t.uop()->shape());
    Shape shape = broadcast_dims(op, dims);
    for (Tensor& t : ts) t = t.cast(dt).expand_symbolic(shape);
    return ts;
  }
  std::vector<Dims> shapes;
  for (const Tensor& t : ts) shapes.push_back(t.shape());
  Dims shape = broadcast_shape(op, shapes);
  for (Tensor& t : ts) t = t.cast(dt).expand(shape);
  return ts;
}

Tensor make_alu(Ops op, const std::vector<Tensor>& srcs) {
  std::vector<UOpRef> u;
  for (const Tensor& t : srcs) u.push_back(t.uop());
  return Tensor(UOp::alu(op, std::move(u)), srcs.at(0).device());
}

}  // namespace onegrad
