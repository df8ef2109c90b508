// In-place ops (tensor.h "in-place ops"; docs/tensor.md "In-place ops"): the out-of-place op,
// checked against PyTorch's rules for an in-place result, then written into this tensor's buffer
// by the engine's write (setitem over everything), which also keeps autograd's history.
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// PyTorch's can_cast for an in-place result: not float into int, not a number into bool.
int kind_rank(DType dt) { return dt.is_bool() ? 0 : dt.is_float() ? 2 : 1; }

// PyTorch's names for scalar types, as its messages print them.
std::string torch_type_name(DType dt) {
  static const std::pair<const char*, const char*> names[] = {
      {"float32", "Float"}, {"float64", "Double"}, {"float16", "Half"}, {"bfloat16", "BFloat16"},
      {"int8", "Char"},     {"uint8", "Byte"},     {"int16", "Short"},  {"int32", "Int"},
      {"int64", "Long"},    {"bool", "Bool"}};
  std::string n = dt.name();
  for (const auto& [ours, theirs] : names)
    if (n == ours) return theirs;
  return n;
}

}  // namespace

Tensor& Tensor::inplace_(const std::string& op, const Tensor& result, bool cast) {
  if (!cast && kind_rank(result.dtype()) > kind_rank(dtype()))
    throw DTypeError(op + ": result type " + torch_type_name(result.dtype()) +
                     " can't be cast to the desired output type " + torch_type_name(dtype()));
  if (!cast && result.shape() != shape())
    throw ShapeError(op + ": output with shape " + shape_text(shape()) + " doesn't match the broadcast shape " +
                     shape_text(result.shape()));
  write(op, {}, result);
  return *this;
}

Tensor& Tensor::add_(const Tensor& o) { return inplace_("add_", add(o)); }
Tensor& Tensor::sub_(const Tensor& o) { return inplace_("sub_", sub(o)); }
Tensor& Tensor::mul_(const Tensor& o) { return inplace_("mul_", mul(o)); }
Tensor& Tensor::div_(const Tensor& o) { return inplace_("div_", div(o)); }
Tensor& Tensor::add_(Scalar s) { return inplace_("add_", add(s)); }
Tensor& Tensor::sub_(Scalar s) { return inplace_("sub_", sub(s)); }
Tensor& Tensor::mul_(Scalar s) { return inplace_("mul_", mul(s)); }
Tensor& Tensor::div_(Scalar s) { return inplace_("div_", div(s)); }
Tensor& Tensor::zero_() { return fill_(ConstValue::from_int(0)); }
// The number in its own kind (float64 or int64), then cast by the write: fill_(2.7) on an int
// tensor writes 2, as PyTorch's.
Tensor& Tensor::fill_(Scalar v) {
  return inplace_("fill_", Tensor::scalar(v, v.is_float() ? dtypes::float64 : dtypes::int64, device()), true);
}
Tensor& Tensor::copy_(const Tensor& src) { return inplace_("copy_", src, true); }
Tensor& Tensor::clamp_(const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return inplace_("clamp_", clamp(min, max));
}

}  // namespace onegrad
