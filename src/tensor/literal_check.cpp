#include "tensor/literal_check.h"

#include <cmath>

#include "uop/errors.h"

namespace onegrad {

bool literal_fits(const Scalar& v, DType dt) {
  if (dt.is_bool()) return true;
  double d = v.as_double();
  if (dt.is_float()) return (v.is_float() && !std::isfinite(d)) || std::isfinite(round_to_float_dtype(d, dt));
  if (v.is_float() && !std::isfinite(d)) return false;
  // as_int truncates a float toward zero, as the cast that stores it does.
  return v.as_int() >= dt.int_min() && v.as_int() <= dt.int_max();
}

void check_literal(const std::string& op, const Scalar& v, DType dt) {
  if (!literal_fits(v, dt)) throw ValueRangeError(op + ": the value " + v.str() + " does not fit " + dt.name());
}

Tensor literal_scalar(const std::string& op, const Scalar& v, DType dt, const std::string& device) {
  check_literal(op, v, dt);
  return Tensor(UOp::const_(dt, v), device);
}

DType int_literal_dtype(const std::string& op, const Scalar& v) {
  if (literal_fits(v, dtypes::int32)) return dtypes::int32;
  check_literal(op, v, dtypes::int64);
  return dtypes::int64;
}

}  // namespace onegrad
