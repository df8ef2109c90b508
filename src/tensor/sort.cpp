// Radix sort (sort.h, docs/tensor.md "Sorting"). Each value becomes an unsigned key whose unsigned
// order is PyTorch's order (order_key); the keys are then sorted one bit at a time, least
// significant first, by a stable partition: with z the zeros' flags of the bit and c their
// inclusive prefix sum (the spec's prefix_sum), an element with bit 0 goes to c - z (the zeros
// before it) and one with bit 1 to Z + i - (c - z) (Z zeros in all, then the ones before it). The
// keys and the original positions move together by the spec's scatter_add into zeros. Rangeify
// runs each prefix sum as a scan and each scatter as an indexed update, so a pass is linear, and
// the bit number is data (a 0-d buffer), so every pass after the first is the same compiled kernels.
#include "tensor/sort.h"

#include <cmath>

#include "tensor/advanced_indexing.h"
#include "tensor/index_dtype.h"
#include "tensor/radix_sort.h"
#include "tensor/scatter_compositions.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
#include "tensor/symbolic_dims.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

DType unsigned_of(DType dt) {
  switch (dt.itemsize()) {
    case 1: return dtypes::uint8;
    case 2: return dtypes::uint16;
    case 4: return dtypes::uint32;
    default: return dtypes::uint64;
  }
}

Tensor constant(i128 v, DType dt, const Tensor& like) { return Tensor::scalar(ConstValue::from_int(v), dt, like.device()); }

// The value of a key (order_key's inverse; -0.0 comes back as +0.0, a NaN as the positive NaN).
Tensor from_key(const Tensor& key, DType dt) {
  if (dt.is_bool()) return key.cast(dt);
  if (dt.is_unsigned()) return key;
  Tensor sign = constant(i128(1) << (key_bits(dt) - 1), key.dtype(), key);
  if (!dt.is_float()) return key.bitwise_xor(sign).bitcast(dt);
  return key.ge(sign).where(key.bitwise_xor(sign), key.bitwise_not()).bitcast(dt);
}

}  // namespace

int key_bits(DType dt) { return dt.is_bool() ? 1 : int(dt.itemsize()) * 8; }

// The unsigned key of each value: a < b in PyTorch's order iff key(a) < key(b). Signed ints flip
// the sign bit; floats flip every bit of negatives and the sign bit of the rest (IEEE order), after
// -0.0 becomes +0.0 (they tie) and every NaN one positive NaN (above +inf, all equal).
Tensor order_key(const Tensor& x) {
  DType dt = x.dtype();
  if (dt.is_bool()) return x.cast(dtypes::uint8);
  if (dt.is_unsigned()) return x;
  DType u = unsigned_of(dt);
  Tensor sign = constant(i128(1) << (key_bits(dt) - 1), u, x);
  if (!dt.is_float()) return x.bitcast(u).bitwise_xor(sign);
  Tensor zero = Tensor::scalar(ConstValue::from_float(0.0), dt, x.device());
  Tensor nan = Tensor::scalar(ConstValue::from_float(std::nan("")), dt, x.device());
  Tensor b = x.isnan().where(nan, x.eq(zero).where(zero, x)).bitcast(u);
  return b.ge(sign).where(b.bitwise_not(), b.bitwise_or(sign));
}

// The rows of keys (m, n) sorted, stably, with the positions they came from (int64).
std::pair<Tensor, Tensor> radix_sort_rows(Tensor keys, int bits) {
  Dims s = keys.shape();
  int64_t m = s[0], n = s[1];
  DType u = keys.dtype();
  DType it = index_dtype(m * n);
  // realized: the positions' arange is data here, and stays index math where the scatters compare
  Tensor perm = Tensor::arange(0, n, 1, dtypes::int64, keys.device()).reshape({1, n}).expand({m, n}).contiguous();
  Tensor col = Tensor::arange(0, n, 1, it, keys.device()).reshape({1, n});
  Tensor row = Tensor::arange(0, m, 1, it, keys.device()).reshape({m, 1}).mul(ConstValue::from_int(n));
  for (int b = 0; b < bits; b++) {
    Tensor shift = Tensor::from_vector(std::vector<int32_t>{b}, {}, dtypes::int32).cast(u);
    Tensor set = keys.rshift(shift).bitwise_and(constant(1, u, keys)).ne(constant(0, u, keys));
    Tensor z = set.logical_not().cast(it);
    Tensor zeros_before = z.cumsum(1).cast(it).sub(z).contiguous();  // exclusive: the zeros before i
    Tensor all_zeros = zeros_before.shrink({{0, m}, {n - 1, n}}).add(z.shrink({{0, m}, {n - 1, n}}));
    Tensor dest = set.where(all_zeros.add(col).sub(zeros_before), zeros_before).add(row).reshape({m * n}).contiguous();
    keys = spec::scatter_add(Tensor::zeros({m * n}, u, keys.device()), dest, keys.reshape({m * n})).contiguous().reshape({m, n});
    perm = spec::scatter_add(Tensor::zeros({m * n}, dtypes::int64, keys.device()), dest, perm.reshape({m * n}))
               .contiguous()
               .reshape({m, n});
  }
  return {keys, perm};
}

namespace {

// x with `dim` moved last, as rows (m, n), and back.
struct Rows {
  Dims shape;
  int64_t dim;
  std::vector<int64_t> order, back;
  Rows(const std::string& op, const Tensor& x, int64_t d) : shape(x.shape()) {
    if (shape.empty()) {
      normalize_axis_ext(op, d, shape, 1);
      dim = 0;
      shape = {1};
    } else {
      dim = normalize_axis(op, d, shape);
    }
    for (int64_t i = 0; i < int64_t(shape.size()); i++)
      if (i != dim) order.push_back(i);
    order.push_back(dim);
    back.resize(order.size());
    for (size_t i = 0; i < order.size(); i++) back[size_t(order[i])] = int64_t(i);
  }
  int64_t n() const { return shape[size_t(dim)]; }
  Tensor in(const Tensor& x) const {
    int64_t total = dims_numel(shape);
    return x.reshape(shape).permute(order).reshape({n() == 0 ? 0 : total / n(), n()});
  }
  // r (m, w): rows of w elements (w = n, or k for topk) back into the input's layout
  Tensor out(const Tensor& r, const Dims& original) const {
    Dims moved;
    for (int64_t i : order) moved.push_back(shape[size_t(i)]);
    moved.back() = r.shape()[1];
    Tensor t = r.reshape(moved).permute(back);
    if (!original.empty()) return t;
    return t.reshape({});
  }
};

}  // namespace

Sorted sort(const Tensor& input, int64_t dim, bool descending) {
  if (has_symbolic_dim(input.uop()->shape())) {  // the radix sort is built from numbers: one graph per value
    Sorted r = sort(with_static_dims(input), dim, descending);
    return {r.values.reshape_symbolic(input.uop()->shape()), r.indices.reshape_symbolic(input.uop()->shape())};
  }
  const Tensor& x = input;
  Rows rows("sort", x, dim);
  Dims original = x.shape();
  Tensor keys = order_key(rows.in(x));
  if (descending) keys = keys.bitwise_not();
  Dims s = keys.shape();
  if (s[0] * s[1] == 0 || s[1] == 1) {
    Tensor idx = Tensor::zeros(s, dtypes::int64, x.device());
    return {x, rows.out(idx, original)};
  }
  Tensor perm = radix_sort_rows(keys, key_bits(x.dtype())).second;
  Tensor indices = rows.out(perm, original);
  // The values are x's own, each moved to its sorted place by the bit-moving scatter (bit for bit,
  // -0.0 and NaN payloads included; differentiable): the place of each source is the inverse of
  // perm, one more scatter.
  int64_t m = s[0], n = s[1];
  Tensor row = Tensor::arange(0, m, 1, dtypes::int64, x.device()).reshape({m, 1}).mul(ConstValue::from_int(n));
  Tensor from = perm.add(row).reshape({m * n}).contiguous();  // the flat source of each sorted place
  Tensor to = scatter::place_values(Tensor::arange(0, m * n, 1, dtypes::int64, x.device()), from, m * n);
  Tensor values = scatter::place_values(rows.in(x).reshape({m * n}), to, m * n).reshape({m, n});
  return {rows.out(values, original), indices};
}

Tensor argsort(const Tensor& x, int64_t dim, bool descending) { return sort(x, dim, descending).indices; }

Sorted topk(const Tensor& x, int64_t k, int64_t dim, bool largest) {
  Rows rows("topk", x, dim);
  if (k < 0 || k > rows.n())
    throw ShapeError("topk: k=" + std::to_string(k) + " is out of range for dimension " + std::to_string(rows.dim) +
                     " of size " + std::to_string(rows.n()));
  Sorted all = sort(x, dim, largest);
  Dims original = x.shape();
  auto first_k = [&](const Tensor& t) {
    Tensor r = rows.in(t);
    return rows.out(r.shrink({{0, r.shape()[0]}, {0, k}}), original);
  };
  return {first_k(all.values), first_k(all.indices)};
}

Unique unique(const Tensor& x, bool return_inverse, bool return_counts) {
  int64_t n = x.numel();
  Unique u;
  if (n == 0) {
    u.values = x.reshape({0});
    if (return_inverse) u.inverse = Tensor::zeros(x.shape(), dtypes::int64, x.device());
    if (return_counts) u.counts = Tensor::zeros({0}, dtypes::int64, x.device());
    return u;
  }
  Sorted s = sort(x.reshape({n}), 0, false);
  // a run starts where the value differs from the one before (NaN differs from everything)
  Tensor prev = s.values.pad({{1, 0}}).shrink({{0, n}});
  Tensor first = s.values.ne(prev).logical_or(
      Tensor::arange(0, n, 1, dtypes::int32, x.device()).eq(constant(0, dtypes::int32, x)));
  first = first.contiguous();
  u.values = s.values.masked_select(first);
  if (return_counts) {
    Tensor starts = mask_positions(first);
    int64_t c = starts.numel();
    Tensor next = starts.pad({{0, 1}}, ConstValue::from_int(n)).shrink({{1, c + 1}});
    u.counts = next.sub(starts);
  }
  if (return_inverse) {
    Tensor run = first.cast(dtypes::int64).cumsum(0).sub(ConstValue::from_int(1));
    u.inverse = spec::scatter_add(Tensor::zeros({n}, dtypes::int64, x.device()), s.indices, run).contiguous().reshape(x.shape());
  }
  return u;
}

}  // namespace onegrad
