// Scatters over flat targets (scatter_compositions.h), each a one-hot composition the scatter rules
// run in linear time.
#include "tensor/scatter_compositions.h"

#include <optional>

#include "tensor/gradient.h"
#include "tensor/graph_template.h"
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

// The unsigned integer dtype of a value's bits, when they fit in 32 (bool as uint8): the value of
// a packed last write (last_write below).
std::optional<DType> low_bits_dtype(DType dt) {
  if (dt.is_bool()) return dtypes::uint8;
  switch (dt.itemsize()) {
    case 1: return dtypes::uint8;
    case 2: return dtypes::uint16;
    case 4: return dtypes::uint32;
    default: return std::nullopt;
  }
}

// An int and the unsigned int of its width share their bits (casts between them wrap), so only
// floats need a bitcast.
Tensor as_bits(const Tensor& x, DType u) { return x.dtype().is_float() ? x.bitcast(u) : x.cast(u); }

Tensor from_low_bits(const Tensor& x, DType dt) { return dt.is_float() ? x.bitcast(dt) : x.cast(dt); }

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
  // A float sum's misses are -0.0, the identity of + bit for bit (-0.0 + x is x, +0.0 + -0.0 is
  // +0.0): the scatter rule seeds its loop with the miss, so a -0.0 in T survives as in torch.
  ConstValue miss = op == Ops::ADD && T.dtype().is_float() ? ConstValue::from_float(-0.0)
                                                          : reduce_identity(op, T.dtype())->const_value();
  Tensor picked = spec::masked_values(val.reshape({1, D}), mask, miss);
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

Tensor hit(int64_t K, const Tensor& idx) {
  Tensor at = last_hit(K, idx);
  return at.ge(Tensor::scalar(ConstValue::from_int(0), at.dtype(), at.device()));
}

namespace {

Tensor build_last_write(const Tensor& T, const Tensor& idx, const Tensor& val, bool differentiable) {
  Dims ts = T.shape();
  int64_t D = idx.shape()[0];
  std::optional<DType> u = low_bits_dtype(T.dtype());
  if (ts.size() == 1 && u && D < (int64_t(1) << 31) && !differentiable) {
    // One MAX scatter of d * 2^32 + bits(val[d]): the largest d wins and its value's bits ride in
    // the low half, so the winner's value needs no second, random read of val.
    const std::string& dev = idx.device();
    Tensor packed = Tensor::arange(0, D, 1, dtypes::int64, dev)
                        .mul(ConstValue::from_int(int64_t(1) << 32))
                        .add(as_bits(val, *u).cast(dtypes::int64));
    Tensor best = combine(Tensor::full({ts[0]}, ConstValue::from_int(-1), dtypes::int64, dev), idx, packed, Ops::MAX);
    Tensor hit = best.ge(Tensor::scalar(ConstValue::from_int(0), dtypes::int64, dev));
    return hit.where(from_low_bits(best.cast(*u), T.dtype()), T);
  }
  Tensor at = last_hit(ts[0], idx);
  Tensor picked = [&] {
    NestedIndexOp nested;  // at is -1 or a position of val: nothing to check (-1 picks 0)
    return val.index_select(0, at);
  }();
  Dims col(ts.size(), 1);
  col[0] = ts[0];
  Tensor written = at.ge(Tensor::scalar(ConstValue::from_int(0), at.dtype(), at.device())).reshape(col);
  return written.where(picked, T);
}

}  // namespace

Tensor last_write(const Tensor& T, const Tensor& idx, const Tensor& val) {
  bool differentiable = grad_enabled() && (T.requires_grad() || val.requires_grad());
  // The graph depends on the shapes and dtypes alone once `differentiable` is known: built once
  // per those (graph_template.h), with the differentiable form built afresh each time.
  if (differentiable) return build_last_write(T, idx, val, true);
  return from_graph_template("last_write", {}, {T, idx, val}, [](const std::vector<Tensor>& in) {
    return build_last_write(in[0], in[1], in[2], false);
  });
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
