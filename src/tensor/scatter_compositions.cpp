// Scatters over flat targets (scatter_compositions.h), each a one-hot composition the scatter rules
// run in linear time.
#include "tensor/scatter_compositions.h"

#include "tensor/gradient.h"
#include "tensor/index_dtype.h"
#include "tensor/index_check.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
#include "uop/errors.h"
#include "uop/reduce_identity.h"

namespace onegrad::scatter {

namespace {

// The integer dtype of a value's bits: adding them to 0 is exact, so a scatter_add into zeros
// moves values bit for bit. bool goes as uint8.
DType bits_dtype(DType dt) {
  if (dt.is_bool()) return dtypes::uint8;
  if (!dt.is_float()) return dt;
  switch (dt.itemsize()) {
    case 2: return dtypes::int16;
    case 4: return dtypes::int32;
    default: return dtypes::int64;
  }
}

Tensor to_bits(const Tensor& x) {
  DType b = bits_dtype(x.dtype());
  if (b == x.dtype()) return x;
  return x.dtype().is_bool() ? x.cast(b) : x.bitcast(b);
}

Tensor from_bits(const Tensor& x, DType dt) {
  if (x.dtype() == dt) return x;
  return dt.is_bool() ? x.cast(dt) : x.bitcast(dt);
}

Tensor apply(Ops op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Ops::ADD: return a.add(b);
    case Ops::MUL: return a.mul(b);
    case Ops::MAX: return a.maximum(b);
    default: throw InternalError("scatter::combine: op must be ADD, MUL or MAX, not " + std::string(op_name(op)));
  }
}

}  // namespace

Tensor combine(const Tensor& T, const Tensor& idx, const Tensor& val, Ops op) {
  int64_t K = T.shape()[0], D = idx.shape()[0];
  auto [pos, index] = spec::index_positions("scatter", K, idx);
  Tensor mask = pos.reshape({K, 1}).eq(index.reshape({1, D}));  // (K, D)
  Tensor picked = spec::masked_values(val.reshape({1, D}), mask, reduce_identity(op, T.dtype())->const_value());
  // REDUCE{op} over D in T's dtype (Tensor::sum and prod would widen ints: the rule wants one dtype)
  Tensor r(UOp::create(Ops::REDUCE, {picked.uop()}, ReduceArg{op, {1}}), T.device());
  // tagged: its gradient is gathers and scatters of this result (gradient.h, kScatterTag)
  Tensor combined = apply(op, T, r.reshape({K})).contiguous();
  return Tensor(combined.uop()->with_tag(kScatterTag), T.device());
}

Tensor last_hit(int64_t K, const Tensor& idx) {
  int64_t D = idx.shape()[0];
  DType it = index_dtype(D);
  const std::string& dev = idx.device();
  return combine(Tensor::full({K}, ConstValue::from_int(-1), it, dev), idx, Tensor::arange(0, D, 1, it, dev), Ops::MAX);
}

Tensor last_write(const Tensor& T, const Tensor& idx, const Tensor& val) {
  Dims ts = T.shape();
  Tensor at = last_hit(ts[0], idx);
  Tensor picked = [&] {
    NestedIndexOp nested;  // at is -1 or a position of val: nothing to check (-1 picks 0)
    return val.index_select(0, at);
  }();
  Dims col(ts.size(), 1);
  col[0] = ts[0];
  Tensor hit = at.ge(Tensor::scalar(ConstValue::from_int(0), at.dtype(), at.device())).reshape(col);
  return hit.where(picked, T);
}

Tensor place_values(const Tensor& values, const Tensor& targets, int64_t size) {
  DType dt = values.dtype();
  const std::string& dev = values.device();
  if (grad_enabled() && values.requires_grad())
    return spec::scatter_add(Tensor::full({size}, ConstValue::from_float(-0.0), dt, dev), targets, values).contiguous();
  Tensor bits = to_bits(values);
  return from_bits(spec::scatter_add(Tensor::zeros({size}, bits.dtype(), dev), targets, bits).contiguous(), dt);
}

}  // namespace onegrad::scatter
