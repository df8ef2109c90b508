// Elementwise ONNX ops: arithmetic with numpy broadcasting, comparisons, logic, bit ops, Where,
// the variadic Max/Min/Sum/Mean, Cast.
#include <cmath>
#include <optional>

#include "onnx/op_table.h"
#include "onnx/tensor_proto.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Binary = Tensor (Tensor::*)(const Tensor&) const;

OpFn binary(Binary f) {
  return [f](const Node& n) { return std::vector<Tensor>{(n.in(0).*f)(n.in(1))}; };
}

// ONNX's integer Div truncates toward zero (C), where onegrad's idiv floors.
Tensor divide(const Tensor& a, const Tensor& b) {
  if (!a.dtype().is_int()) return a.div(b);
  Tensor q = a.idiv(b);
  if (a.dtype().is_unsigned()) return q;
  Tensor inexact = q.mul(b).ne(a);
  Tensor signs_differ = a.lt(Tensor::scalar(ConstValue::from_int(0), a.dtype())).ne(b.lt(Tensor::scalar(ConstValue::from_int(0), b.dtype())));
  return inexact.logical_and(signs_differ).where(q.add(ConstValue::from_int(1)), q);
}

// fmod=1: C's fmod (sign of the dividend); fmod=0: the sign of the divisor (numpy's mod).
Tensor modulo(const Node& n) {
  const Tensor &a = n.in(0), &b = n.in(1);
  if (n.attr_int("fmod", 0) == 0) return a.mod(b);
  if (a.dtype().is_float()) return a.sub(a.div(b).trunc().mul(b));
  return a.sub(divide(a, b).mul(b));
}

// Max/Min/Sum/Mean: any number of inputs, broadcast together.
OpFn variadic(Binary f, bool mean = false) {
  return [f, mean](const Node& n) {
    Tensor acc = n.in(0);
    for (size_t i = 1; i < n.num_inputs(); ++i) acc = (acc.*f)(n.in(i));
    if (mean) acc = acc.div(Tensor::scalar(ConstValue::from_int(int64_t(n.num_inputs())), acc.dtype()));
    return std::vector<Tensor>{acc};
  };
}

Tensor bitshift(const Node& n) {
  std::string dir = n.attr_string("direction", "");
  if (dir == "LEFT") return n.in(0).lshift(n.in(1));
  if (dir == "RIGHT") return n.in(0).rshift(n.in(1));
  throw ArgumentError("BitShift: direction must be LEFT or RIGHT, got '" + dir + "'");
}

Tensor cast(const Node& n, DType to) {
  const Tensor& x = n.in(0);
  // float -> bool is "non-zero", not truncation
  if (to == dtypes::bool_) return x.ne(Tensor::scalar(ConstValue::from_int(0), x.dtype()));
  return x.cast(to);
}

// The value of a tensor that is one constant broadcast (a CONST under reshapes and expands).
std::optional<double> const_scalar(const Tensor& t) {
  const UOp* u = t.uop().get();
  while ((u->op == Ops::RESHAPE || u->op == Ops::EXPAND) && !u->src.empty()) u = u->src[0].get();
  if (u->op != Ops::CONST) return std::nullopt;
  return u->const_value().as_double();
}

}  // namespace

void add_elementwise_ops(OpTable& t) {
  t["Add"] = binary(&Tensor::add);
  t["Sub"] = binary(&Tensor::sub);
  t["Mul"] = binary(&Tensor::mul);
  t["Div"] = [](const Node& n) { return std::vector<Tensor>{divide(n.in(0), n.in(1))}; };
  t["Mod"] = [](const Node& n) { return std::vector<Tensor>{modulo(n)}; };
  // the exponent may have another type (opset 12+); the result has the base's
  t["Pow"] = [](const Node& n) {
    const Tensor& x = n.in(0);
    Tensor y = n.in(1);
    // x ** 2 by a constant exponent is x * x (the same value, correctly rounded), not a pow per element
    if (x.dtype().is_float() && y.numel() == 1 && y.ndim() <= x.ndim() && const_scalar(y) == 2.0) return std::vector<Tensor>{x.mul(x)};
    if (x.dtype().is_int() && y.dtype().is_float())
      return std::vector<Tensor>{x.cast(y.dtype()).pow(y).cast(x.dtype())};
    return std::vector<Tensor>{x.pow(y.cast(x.dtype()))};
  };
  t["Equal"] = binary(&Tensor::eq);
  t["Less"] = binary(&Tensor::lt);
  t["LessOrEqual"] = binary(&Tensor::le);
  t["Greater"] = binary(&Tensor::gt);
  t["GreaterOrEqual"] = binary(&Tensor::ge);
  t["And"] = binary(&Tensor::logical_and);
  t["Or"] = binary(&Tensor::logical_or);
  t["Xor"] = binary(&Tensor::logical_xor);
  t["BitwiseAnd"] = binary(&Tensor::bitwise_and);
  t["BitwiseOr"] = binary(&Tensor::bitwise_or);
  t["BitwiseXor"] = binary(&Tensor::bitwise_xor);
  t["BitwiseNot"] = [](const Node& n) { return std::vector<Tensor>{n.in(0).bitwise_not()}; };
  t["Not"] = [](const Node& n) { return std::vector<Tensor>{n.in(0).logical_not()}; };
  t["BitShift"] = [](const Node& n) { return std::vector<Tensor>{bitshift(n)}; };
  t["Where"] = [](const Node& n) { return std::vector<Tensor>{n.in(0).where(n.in(1), n.in(2))}; };
  t["Max"] = variadic(&Tensor::maximum);
  t["Min"] = variadic(&Tensor::minimum);
  t["Sum"] = variadic(&Tensor::add);
  t["Mean"] = variadic(&Tensor::add, true);
  t["Cast"] = [](const Node& n) {
    return std::vector<Tensor>{cast(n, dtype_of(int(n.attr_int("to", 0)), "Cast's 'to'"))};
  };
  t["CastLike"] = [](const Node& n) { return std::vector<Tensor>{cast(n, n.in(1).dtype())}; };
  t["Identity"] = [](const Node& n) { return std::vector<Tensor>{n.in(0)}; };
}

}  // namespace onegrad::onnx
