#include "tensor/broadcast.h"

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
  return t.is_bool() ? dtypes::int32 : t;
}

Tensor scalar_like(const Tensor& t, const Scalar& s) { return Tensor::scalar(s, scalar_dtype(t.dtype(), s), t.device()); }

Tensor scalar_operand(const std::string& op, const Tensor& t, const Scalar& s, bool is_bool) {
  DType dt = t.dtype();
  if (is_bool) return Tensor::scalar(s, dtypes::bool_, t.device());
  if ((op == "div" || op == "rdiv") && !dt.is_float()) return Tensor::scalar(s, dtypes::float32, t.device());
  bool selects = op == "maximum" || op == "minimum" || op == "clamp";
  // PyTorch's overflow check: an unsigned dtype also takes negatives down to -2^(bits-1), which wrap.
  i128 lo = dt.is_unsigned() ? -(i128(1) << (dt.bits() - 1)) : dt.int_min();
  if (selects && dt.is_int() && s.is_int() && (s.as_int() < lo || s.as_int() > dt.int_max()))
    throw DTypeError(op + ": the value " + s.str() + " does not fit " + dt.name());
  return scalar_like(t, s);
}

Tensor full_like(const Tensor& t, const Scalar& v) { return Tensor::full(t.shape(), v, t.dtype(), t.device()); }

DType promote_all(const std::vector<Tensor>& ts) {
  DType dt = ts.at(0).dtype();
  for (const Tensor& t : ts) dt = promote_types(dt, t.dtype());
  return dt;
}

std::vector<Tensor> elementwise_operands(const std::string& op, std::vector<Tensor> ts, std::optional<DType> dtype) {
  check_same_device(op, ts);
  DType dt = dtype ? *dtype : promote_all(ts);
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
