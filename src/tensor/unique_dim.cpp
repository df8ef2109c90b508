// unique along a dim (sort.h). The n slices along `dim` become rows of c elements (the tensor with
// axes 0 and dim swapped, as PyTorch flattens them); rows sort
// lexicographically by a stable least-significant-column-first sort (radix_sort.h), on each
// column's dense rank rather than its value: one radix sort of all c columns at once gives the
// ranks (bits(dtype) passes), then each column's pass needs only bits(n - 1). A row starts a new
// distinct slice where it differs from the row before in some element (NaN differs from itself).
#include <bit>

#include "tensor/advanced_indexing.h"
#include "tensor/radix_sort.h"
#include "tensor/shape_util.h"
#include "tensor/sort.h"
#include "tensor/spec_compositions.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// rank[j, r]: how many distinct values of column j are below rows(r, j) (keys (c, n), one row per
// column, in row order).
Tensor dense_ranks(const Tensor& column_keys, int bits) {
  Dims s = column_keys.shape();
  int64_t c = s[0], n = s[1];
  auto [sorted, from] = radix_sort_rows(column_keys, bits);
  Tensor step = sorted.ne(sorted.pad({{0, 0}, {1, 0}}).shrink({{0, c}, {0, n}}));
  Tensor first = step.logical_or(Tensor::arange(0, n, 1, dtypes::int32, column_keys.device()).eq(
                                     Tensor::scalar(ConstValue::from_int(0), dtypes::int32, column_keys.device())));
  Tensor rank_sorted = first.cast(dtypes::int64).cumsum(1).sub(ConstValue::from_int(1));
  Tensor row = Tensor::arange(0, c, 1, dtypes::int64, column_keys.device()).reshape({c, 1}).mul(ConstValue::from_int(n));
  Tensor dest = from.add(row).reshape({c * n});
  return spec::scatter_add(Tensor::zeros({c * n}, dtypes::int64, column_keys.device()), dest, rank_sorted.reshape({c * n}))
      .contiguous()
      .reshape({c, n});
}

// The order of the rows (n, c) sorted lexicographically, stably (int64, (n,)).
Tensor lexicographic_order(const Tensor& rows) {
  Dims s = rows.shape();
  int64_t n = s[0], c = s[1];
  Tensor keys = order_key(rows).permute({1, 0}).contiguous();  // (c, n)
  if (c == 1) return radix_sort_rows(keys, key_bits(rows.dtype())).second.reshape({n});
  // Realized on its own: in one schedule with the loop below, an arange its scatters realize would
  // be a buffer in the gathers too, which then compare against loaded positions (n^2).
  Tensor rank = dense_ranks(keys, key_bits(rows.dtype()));
  rank.realize();
  int bits = std::max(1, int(std::bit_width(uint64_t(n - 1))));
  DType rk = bits <= 32 ? dtypes::uint32 : dtypes::uint64;
  // realized: an index read from memory is what the gathers below fold to loads (docs/schedule.md)
  Tensor order = Tensor::arange(0, n, 1, dtypes::int64, rows.device()).contiguous();
  for (int64_t j = c - 1; j >= 0; j--) {
    // the column number is data (as the radix sort's bit number): every column runs the same kernels.
    // The keys are realized: the sort's scatters move loaded values, not gathers (docs/schedule.md)
    Tensor column = Tensor::from_vector(std::vector<int64_t>{j}, {1}, dtypes::int64);
    Tensor k = rank.index_select(0, column).reshape({n}).index_select(0, order).cast(rk).reshape({1, n}).contiguous();
    order = order.index_select(0, radix_sort_rows(k, bits).second.reshape({n}));
    order.realize();  // one column's passes at a time: the graph stays the size of one
  }
  return order;
}

}  // namespace

Unique unique_dim(const Tensor& x, int64_t dim, bool return_inverse, bool return_counts) {
  Dims shape = x.shape();
  int64_t d = normalize_axis("unique", dim, shape), n = shape[size_t(d)];
  Unique u;
  if (n == 0) {
    u.values = x;
    if (return_inverse) u.inverse = Tensor::zeros({0}, dtypes::int64, x.device());
    if (return_counts) u.counts = Tensor::zeros({0}, dtypes::int64, x.device());
    return u;
  }
  int64_t c = x.numel() / n;
  if (c == 0)
    throw ShapeError("unique: dim=" + std::to_string(dim) + " of shape " + shape_text(shape) +
                     " leaves slices of 0 elements (a 0-sized dimension that is not the one selected)");
  // PyTorch's element order within a slice: the tensor with axes 0 and dim swapped
  std::vector<int64_t> order(shape.size());
  for (size_t i = 0; i < order.size(); i++) order[i] = int64_t(i);
  std::swap(order[0], order[size_t(d)]);
  Tensor rows = x.permute(order).reshape({n, c});
  Tensor sorted_order = lexicographic_order(rows);
  Tensor sorted = rows.index_select(0, sorted_order);
  // a row starts a run where it differs from the one before (NaN differs from everything)
  Tensor differs = sorted.ne(sorted.pad({{1, 0}, {0, 0}}).shrink({{0, n}, {0, c}})).any({1});
  Tensor first = differs.logical_or(Tensor::arange(0, n, 1, dtypes::int32, x.device()).eq(
                                        Tensor::scalar(ConstValue::from_int(0), dtypes::int32, x.device())))
                     .contiguous();
  Tensor starts = mask_positions(first);
  u.values = x.index_select(d, sorted_order.index_select(0, starts));
  if (return_counts) {
    int64_t k = starts.numel();
    u.counts = starts.pad({{0, 1}}, ConstValue::from_int(n)).shrink({{1, k + 1}}).sub(starts);
  }
  if (return_inverse) {
    Tensor run = first.cast(dtypes::int64).cumsum(0).sub(ConstValue::from_int(1));
    u.inverse = spec::scatter_add(Tensor::zeros({n}, dtypes::int64, x.device()), sorted_order, run).contiguous();
  }
  return u;
}

}  // namespace onegrad
