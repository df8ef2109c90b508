// Advanced indexing: integer tensor indices as a one-hot gather (the spec's gather, Common Ops as
// Compositions), bool masks turned into integer indices first (PyTorch's nonzero, mask_select.cpp);
// a mask alone selects its rows directly (a scan and a scatter). docs/tensor.md "getitem" has the
// decisions: ints wrap from the end; values out of range raise, at once when the index is host data,
// else through an index check when the result is realized (index_check.h); a mask's true count is
// realized because it is a shape.
#include "tensor/advanced_indexing.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "tensor/axis_order.h"
#include "tensor/index_check.h"
#include "tensor/index_data.h"
#include "uop/buffer_storage.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// Element i of raw integer data of `width` bytes, as an int64 (uint64 above 2^63 saturates: it is
// out of range for any axis anyway). The dtype's width and sign come in read once: per element,
// asking the dtype cost more than the check.
int64_t int_at(const std::vector<std::byte>& b, size_t width, bool is_unsigned, size_t i) {
  const std::byte* p = b.data() + i * width;
  auto get = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  };
  switch (width) {
    case 1: return is_unsigned ? int64_t(get(uint8_t{})) : int64_t(get(int8_t{}));
    case 2: return is_unsigned ? int64_t(get(uint16_t{})) : int64_t(get(int16_t{}));
    case 4: return is_unsigned ? int64_t(get(uint32_t{})) : int64_t(get(int32_t{}));
    default: {
      if (!is_unsigned) return get(int64_t{});
      uint64_t v = get(uint64_t{});
      return v > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(v);
    }
  }
}

// Raises the getitem error for the first value of buffer-data indices outside [-n, n) (computed
// indices are not run). Returns whether some value is negative (else the index needs no wrapping
// from the end).
bool check_known_bounds(const Tensor& idx, int64_t n, size_t axis) {
  if (!is_buffer_data(idx) || idx.numel() == 0) return true;
  std::optional<IndexDataRange> r = index_data_range(idx, -n, n);
  if (r && r->in_range) return r->negative;
  std::vector<std::byte> b = idx.to_bytes();  // the error path only
  size_t width = size_t(idx.dtype().itemsize()), count = size_t(idx.numel());
  bool is_unsigned = idx.dtype().is_unsigned();
  for (size_t i = 0; i < count; i++) {
    int64_t v = int_at(b, width, is_unsigned, i);
    if (v < -n || v >= n)
      throw ShapeError("getitem: index " + std::to_string(v) + " is out of bounds for axis " + std::to_string(axis) +
                       " with size " + std::to_string(n));
  }
  throw InternalError("getitem: index data out of range, yet no value is");
}

std::string shapes_text(const std::vector<Tensor>& ts) {
  std::string s;
  for (size_t i = 0; i < ts.size(); i++) s += (i ? ", " : "") + shape_text(ts[i].shape());
  return s;
}

}  // namespace

void check_mask_shape(const Tensor& mask, const Dims& shape, size_t axis) {
  Dims ms = mask.shape();
  for (size_t j = 0; j < ms.size(); j++)
    if (axis + j >= shape.size() || ms[j] != shape[axis + j])
      throw ShapeError("getitem: the shape of the mask " + shape_text(ms) + " at axis " + std::to_string(axis) +
                       " does not match the shape " + shape_text(shape) + " of the indexed tensor");
}

ResolvedIndices resolve_advanced(const Tensor& x, std::vector<AdvancedIndex> adv, const std::string& op) {
  Tensor xr = x;
  std::vector<bool> from_mask(adv.size(), false);  // positions of true elements: in range
  // Masks become positions in their merged axes, from the right so earlier axes keep their place.
  for (size_t i = adv.size(); i-- > 0;) {
    const Tensor& mask = adv[i].index;
    if (!mask.dtype().is_bool()) continue;
    size_t a = adv[i].axis, k = size_t(mask.ndim());
    Dims xs = xr.shape();
    Dims merged(xs.begin(), xs.begin() + int64_t(a));
    merged.push_back(mask.numel());
    merged.insert(merged.end(), xs.begin() + int64_t(a + k), xs.end());
    xr = xr.reshape(merged);
    adv[i].index = mask_positions(mask);
    from_mask[i] = true;
    for (size_t j = i + 1; j < adv.size(); j++) adv[j].axis -= k - 1;
  }
  Dims xs = xr.shape();
  ResolvedIndices r{xr, {}, {}, {}};
  std::vector<Tensor> raw;
  for (size_t j = 0; j < adv.size(); j++) {
    const AdvancedIndex& a = adv[j];
    DType dt = a.index.dtype();
    if (!dt.is_int())
      throw DTypeError("getitem: tensors used as indices must be integer or bool tensors, got " + dt.name());
    if (a.index.device() != x.device())
      throw DeviceError("getitem: index tensor on " + a.index.device() + ", indexed tensor on " + x.device());
    int64_t n = xs[a.axis];
    bool negative = check_known_bounds(a.index, n, a.source_axis) && !from_mask[j];  // positions are >= 0
    Tensor i64 = a.index.cast(dtypes::int64);
    // Negative values count from the end: i + n*(i < 0), arithmetic rather than a WHERE, which the
    // C compiler turned into a branch mispredicted on every other random index.
    Tensor zero = Tensor::scalar(ConstValue::from_int(0), dtypes::int64, x.device());
    Tensor wrapped = negative ? i64 + i64.lt(zero).cast(dtypes::int64) * n : i64;
    if (!from_mask[j] && !is_buffer_data(a.index))       // host data was checked above
      wrapped = with_index_check(wrapped, a.index, index_bounds(op, int64_t(a.source_axis), n, true));
    raw.push_back(wrapped);
    r.axes.push_back(a.axis);
  }
  // The index tensors broadcast together (right-aligned).
  size_t rank = 0;
  for (const Tensor& t : raw) rank = std::max(rank, size_t(t.ndim()));
  Dims b(rank, 1);
  for (const Tensor& t : raw) {
    Dims s = t.shape();
    for (size_t i = 0; i < s.size(); i++) {
      int64_t& d = b[rank - s.size() + i];
      if (d == 1) d = s[i];
      else if (s[i] != 1 && s[i] != d)
        throw ShapeError("getitem: shape mismatch: indexing tensors could not be broadcast together with shapes " +
                         shapes_text(raw));
    }
  }
  for (const Tensor& t : raw) {
    Dims s(rank - size_t(t.ndim()), 1);
    Dims ts = t.shape();
    s.insert(s.end(), ts.begin(), ts.end());
    r.index.push_back(t.reshape(s).expand(b));
  }
  r.shape = b;
  return r;
}

GatherLayout gather_layout(const ResolvedIndices& r) {
  Dims xs = r.x.shape();
  GatherLayout g;
  bool adjacent = true;
  for (size_t j = 0; j < r.axes.size(); j++) adjacent = adjacent && r.axes[j] == r.axes[0] + j;
  g.perm = axes_first(r.axes, xs.size());
  Dims rest;
  for (size_t i = r.axes.size(); i < g.perm.size(); i++) rest.push_back(xs[size_t(g.perm[i])]);
  int64_t k = 1;
  for (size_t a : r.axes) k *= xs[a];
  g.merged = {k};
  g.merged.insert(g.merged.end(), rest.begin(), rest.end());
  g.flat = r.index.back();
  int64_t stride = xs[r.axes.back()];
  for (size_t j = r.axes.size() - 1; j-- > 0;) {
    g.flat = g.flat + r.index[j] * stride;
    stride *= xs[r.axes[j]];
  }
  // Adjacent indexed axes: the index dims stand where those axes were (numpy, PyTorch).
  size_t nb = r.shape.size(), a0 = r.axes[0];
  if (adjacent && a0 > 0 && nb > 0) g.place = axes_first(nb, a0, nb + rest.size());
  return g;
}

Tensor advanced_getitem(const Tensor& x, std::vector<AdvancedIndex> advanced) {
  // One mask alone: its rows, compacted by a scan and a scatter (mask_select.cpp), no gather.
  if (advanced.size() == 1 && advanced[0].index.dtype().is_bool() && advanced[0].index.ndim() > 0)
    return masked_rows(x, advanced[0].index, advanced[0].axis);
  ResolvedIndices r = resolve_advanced(x, std::move(advanced));
  GatherLayout g = gather_layout(r);
  // The indexed axes first, merged into one of K elements; the flat index selects along it.
  // out[b..., rest...] = merged[flat[b...], rest...]: index_select (the spec's one-hot gather
  // composition, docs/tensor.md) with the flat index as a vector, then the index's dims back.
  Dims out_shape = g.flat.shape();
  out_shape.insert(out_shape.end(), g.merged.begin() + 1, g.merged.end());
  NestedIndexOp nested;  // the indices were checked per axis above
  Tensor out = r.x.permute(g.perm).reshape(g.merged).index_select(0, g.flat.reshape({g.flat.numel()})).reshape(out_shape);
  return g.place.empty() ? out : out.permute(g.place);
}

}  // namespace onegrad
