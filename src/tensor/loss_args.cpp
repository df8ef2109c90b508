#include "tensor/loss_args.h"

#include <sstream>

#include "uop/errors.h"

namespace onegrad {

Reduction parse_reduction(const std::string& op, const std::string& r) {
  if (r == "none") return Reduction::None;
  if (r == "mean") return Reduction::Mean;
  if (r == "sum") return Reduction::Sum;
  throw ArgumentError(op + ": '" + r + "' is not a valid value for reduction (none, mean, sum)");
}

Tensor reduce_loss(const Tensor& loss, Reduction r) {
  if (r == Reduction::Sum) return loss.sum();
  if (r == Reduction::Mean) return loss.mean();
  return loss;
}

std::pair<Tensor, Tensor> float_pair(const Tensor& a, const Tensor& b) {
  DType dt = promote_types(a.dtype(), b.dtype());
  if (!dt.is_float()) dt = dtypes::float32;
  return {a.cast(dt), b.cast(dt)};
}

std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace onegrad
