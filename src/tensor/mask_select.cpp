// Selection by a bool mask (x[mask], masked_select, nonzero) as a scan and a scatter, the spec's
// prefix_sum and scatter_add (Common Ops as Compositions): the j-th true element goes to position
// c[j] - 1 with c the inclusive prefix sum of the mask. Rangeify runs the prefix sum as a scan
// and the scatter as an indexed update (docs/schedule.md, "Scans" and "Scatters"): linear work.
// The true count is a shape, so it is realized (the sum of the mask).
#include <cstring>

#include "tensor/advanced_indexing.h"
#include "tensor/axis_order.h"
#include "tensor/broadcast.h"
#include "tensor/index_dtype.h"
#include "tensor/scatter_compositions.h"
#include "tensor/spec_compositions.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

int64_t true_count(const Tensor& flat_mask) {
  std::vector<std::byte> b = flat_mask.cast(dtypes::int64).sum().to_bytes();
  int64_t count;
  std::memcpy(&count, b.data(), sizeof(count));
  return count;
}

}  // namespace

Tensor compact_rows(const Tensor& rows, const Tensor& mask, int64_t count) {
  Dims s = rows.shape();
  int64_t m = s[0], r = s[1];
  DType dt = rows.dtype();
  if (count == 0 || r == 0) return Tensor::zeros({count, r}, dt, rows.device());
  DType it = index_dtype(m * r);
  // target[j, q] = (c[j] - 1) * r + q where mask[j], else -1 (outside: the scatter drops it)
  Tensor c = mask.cast(it).cumsum(0).cast(it).reshape({m, 1});
  Tensor q = Tensor::arange(0, r, 1, it, rows.device()).reshape({1, r});
  Tensor at = c.sub(ConstValue::from_int(1)).mul(ConstValue::from_int(r)).add(q);
  Tensor none = Tensor::scalar(ConstValue::from_int(-1), it, rows.device());
  Tensor target = mask.reshape({m, 1}).where(at, none).reshape({m * r}).contiguous();
  return scatter::place_values(rows.reshape({m * r}), target, count * r).reshape({count, r});
}

Tensor mask_positions(const Tensor& mask) {
  int64_t m = mask.numel();
  if (m == 0) return Tensor::zeros({0}, dtypes::int64, mask.device());
  Tensor flat = mask.reshape({m});
  if (!flat.dtype().is_bool()) flat = flat.ne(Tensor::scalar(ConstValue::from_int(0), flat.dtype(), flat.device()));
  int64_t count = true_count(flat);
  // realized: the positions are data here, and the scatter's arange stays index math
  Tensor pos = Tensor::arange(0, m, 1, dtypes::int64, mask.device()).reshape({m, 1}).contiguous();
  return compact_rows(pos, flat, count).reshape({count});
}

Tensor masked_rows(const Tensor& x, const Tensor& mask, size_t axis) {
  Dims xs = x.shape();
  size_t k = size_t(mask.ndim());
  check_mask_shape(mask, xs, axis);
  int64_t m = mask.numel();
  Dims lead(xs.begin(), xs.begin() + int64_t(axis)), rest(xs.begin() + int64_t(axis + k), xs.end());
  int64_t others = 1;
  for (int64_t d : lead) others *= d;
  for (int64_t d : rest) others *= d;
  Tensor flat = mask.reshape({m});
  int64_t count = m == 0 ? 0 : true_count(flat);
  Tensor rows = x.permute(axes_first(axis, k, xs.size())).reshape({m, others});
  Dims shape{count};
  shape.insert(shape.end(), lead.begin(), lead.end());
  shape.insert(shape.end(), rest.begin(), rest.end());
  Tensor out = (m == 0 ? Tensor::zeros({0, others}, x.dtype(), x.device()) : compact_rows(rows, flat, count)).reshape(shape);
  // the count axis goes where the mask's axes were
  return out.permute(inverse_permutation(axes_first(axis, 1, shape.size())));
}

Tensor masked_rows_assign(const Tensor& x, const Tensor& mask, size_t axis, const Tensor& value) {
  Dims xs = x.shape();
  size_t k = size_t(mask.ndim());
  int64_t m = mask.numel(), count = value.shape()[axis];
  std::vector<int64_t> perm = axes_first(axis, k, xs.size());
  int64_t others = m == 0 ? 0 : dims_numel(xs) / m;
  if (count == 0 || others == 0) return x;
  Dims moved;
  for (int64_t p : perm) moved.push_back(xs[size_t(p)]);
  // the value's count axis first, as rows
  Tensor rows = value.permute(axes_first(axis, 1, size_t(value.ndim()))).reshape({count, others});
  // placed[p[s], q] = rows[s, q] with p the positions of the true rows
  Tensor flat = mask.reshape({m});
  DType it = index_dtype(m * others);
  Tensor pos = mask_positions(flat).cast(it).reshape({count, 1});
  Tensor q = Tensor::arange(0, others, 1, it, x.device()).reshape({1, others});
  Tensor target = pos.mul(ConstValue::from_int(others)).add(q).reshape({count * others}).contiguous();
  Tensor placed = scatter::place_values(rows.reshape({count * others}), target, m * others).reshape({m, others});
  Tensor old = x.permute(perm).reshape({m, others});
  return flat.reshape({m, 1}).where(placed, old).reshape(moved).permute(inverse_permutation(perm));
}

Tensor Tensor::masked_select(const Tensor& mask) const {
  if (!mask.dtype().is_bool())
    throw DTypeError("masked_select: mask must be a bool tensor, got " + mask.dtype().name());
  check_same_device("masked_select", {*this, mask});
  Dims b = broadcast_shape("masked_select", {shape(), mask.shape()});
  Tensor x = expand(b), mk = mask.expand(b);
  int64_t n = dims_numel(b);
  return masked_rows(x.reshape({n}), mk.reshape({n}), 0);
}

std::vector<Tensor> Tensor::nonzero_tuple() const {
  Dims s = shape();
  Tensor flat = reshape({numel()});
  Tensor pos = mask_positions(flat);
  if (s.empty()) return {};
  std::vector<Tensor> coords(s.size());
  int64_t stride = 1;
  for (size_t i = s.size(); i-- > 0;) {
    Tensor c = pos;
    if (stride > 1) c = c.idiv(Tensor::scalar(ConstValue::from_int(stride), dtypes::int64, device_));
    if (i > 0) c = c.mod(Tensor::scalar(ConstValue::from_int(s[i]), dtypes::int64, device_));
    coords[i] = c;
    stride *= s[i];
  }
  return coords;
}

Tensor Tensor::nonzero() const {
  Dims s = shape();
  if (s.empty()) {  // PyTorch: a 0-d tensor gives (1, 0) when non-zero, (0, 0) otherwise
    int64_t n = mask_positions(reshape({1})).numel();
    return Tensor::zeros({n, 0}, dtypes::int64, device_);
  }
  std::vector<Tensor> c = nonzero_tuple();
  for (Tensor& t : c) t = t.reshape({t.numel(), 1});
  return c.size() == 1 ? c[0] : Tensor::cat(c, 1);
}

}  // namespace onegrad
