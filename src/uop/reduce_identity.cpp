#include "uop/reduce_identity.h"

#include <limits>

#include "uop/errors.h"

namespace onegrad {

UOpRef reduce_identity(Ops op, DType dtype) {
  switch (op) {
    case Ops::ADD: return UOp::const_int(dtype, 0);
    case Ops::MUL: return UOp::const_int(dtype, 1);
    case Ops::MAX:
      if (dtype.is_float()) return UOp::const_float(dtype, -std::numeric_limits<double>::infinity());
      return UOp::const_int(dtype, dtype.int_min());  // bool: false
    default: throw InternalError("REDUCE op must be ADD, MAX or MUL, not " + std::string(op_name(op)));
  }
}

bool is_reduce_identity(const UOpRef& u, Ops op, DType dtype) {
  UOpRef id = reduce_identity(op, dtype);
  return u->is_const() && u->dtype == dtype && u->const_value() == id->const_value();
}

}  // namespace onegrad
