// Sliding windows and the pools built on them (docs/tensor.md, "Neural-net ops").
//
// pool_windows is tinygrad's _pool: windows made by movement ops only. When a window is wider than
// the stride (or dilated), the input is tiled (RESHAPE + EXPAND), and shrinking and reshaping the
// tiled rows makes each row start one dilation further: the window axis. Otherwise the input is
// cut into stride-sized blocks and each block shrunk to the kernel. Pools pad the input (-inf for
// max, zeros for avg), take windows, and reduce the window axes.
#include <algorithm>
#include <limits>

#include "tensor/nn_args.h"
#include "tensor/symbolic_dims.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

int64_t ceildiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// "(3 x 3)"-style text of spatial sizes, as PyTorch's messages spell them.
std::string sizes_text(const Dims& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); i++) s += (i ? " x " : "") + std::to_string(v[i]);
  return s + ")";
}

// The arguments of a max/avg pool, checked and resolved, with the padding each spatial axis gets
// (after may exceed before in ceil_mode) and the output sizes.
struct PoolPlan {
  Tensor x;  // with a batch axis
  bool batched = false;
  Dims k, s, p, d, in, out;
  Pads pads;  // full rank: (0, 0) for N and C
};

std::string pool_name(const std::string& kind, int64_t nd) { return kind + std::to_string(nd) + "d"; }

PoolPlan plan_pool(const std::string& op, const Tensor& input, int64_t nd, const Dims& kernel, const Dims& stride,
                   const Dims& padding, const Dims& dilation, bool ceil_mode) {
  if (nd < 1) throw ShapeError(op + ": needs at least one spatial axis");
  check_float(op, "input", input);
  PoolPlan pl;
  pl.x = with_batch_axis(op, input, size_t(nd), pl.batched);
  pl.k = spatial_arg(op, "kernel_size", kernel, nd);
  pl.s = stride.empty() ? pl.k : spatial_arg(op, "stride", stride, nd);
  pl.p = spatial_arg(op, "padding", padding, nd);
  pl.d = spatial_arg(op, "dilation", dilation, nd);
  check_at_least(op, "kernel_size", pl.k, 1);
  check_at_least(op, "stride", pl.s, 1);
  check_at_least(op, "padding", pl.p, 0);
  check_at_least(op, "dilation", pl.d, 1);
  for (int64_t i = 0; i < nd; i++)
    if (pl.p[i] * 2 > pl.k[i])
      throw ShapeError(op + ": padding " + shape_text(pl.p) + " must be at most half of kernel_size " +
                       shape_text(pl.k));
  Dims shp = pl.x.shape();
  pl.in.assign(shp.end() - nd, shp.end());
  pl.pads.assign(2, {0, 0});
  for (int64_t i = 0; i < nd; i++) {
    int64_t span = pl.in[i] + 2 * pl.p[i] - pl.d[i] * (pl.k[i] - 1) - 1;  // room left after the first window
    int64_t o = span < 0 ? 0 : (ceil_mode ? ceildiv(span, pl.s[i]) : span / pl.s[i]) + 1;
    // PyTorch: the last window must start inside the input or the left padding.
    if (ceil_mode && o > 0 && (o - 1) * pl.s[i] >= pl.in[i] + pl.p[i]) o--;
    pl.out.push_back(o);
    int64_t need = o < 1 ? 0 : (o - 1) * pl.s[i] + pl.d[i] * (pl.k[i] - 1) + 1;
    pl.pads.push_back({pl.p[i], std::max<int64_t>(need - pl.in[i] - pl.p[i], 0)});
  }
  if (std::any_of(pl.out.begin(), pl.out.end(), [](int64_t o) { return o < 1; }))
    throw ShapeError(op + ": input " + shape_text(input.shape()) + " gives output size " + sizes_text(pl.out) +
                     ": too small for kernel_size " + shape_text(pl.k) + " with padding " + shape_text(pl.p) +
                     " and dilation " + shape_text(pl.d));
  return pl;
}

// Windows of `t` (padded by `pads`, then the output axes cut to pl.out): (N, C, o..., k...).
Tensor plan_windows(const PoolPlan& pl, const Tensor& t, Scalar pad_value) {
  // cast_value: -inf saturates to an int dtype's lowest value (pad refuses literals that do not fit).
  Tensor w = t.pad(pl.pads, cast_value(pad_value, t.dtype())).pool_windows(pl.k, pl.s, pl.d);
  Pads cut;
  Dims ws = w.shape();
  size_t lead = ws.size() - 2 * pl.k.size();
  for (size_t i = 0; i < lead; i++) cut.push_back({0, ws[i]});
  for (int64_t o : pl.out) cut.push_back({0, o});
  return w.shrink(cut);
}

Tensor drop_batch(const PoolPlan& pl, const Tensor& t) { return pl.batched ? t : t.squeeze(0); }

Scalar neg_inf() { return ConstValue::from_float(-std::numeric_limits<double>::infinity()); }

}  // namespace

Tensor Tensor::pool_windows(std::vector<int64_t> kernel, std::vector<int64_t> stride,
                            std::vector<int64_t> dilation) const {
  if (has_symbolic_dim(uop_->shape()) && !requires_grad()) {
    Tensor x = with_values_substituted(*this);
    if (!has_symbolic_dim(x.uop()->shape())) return x.pool_windows(kernel, stride, dilation);
  }
  Dims shp = shape();
  size_t n = kernel.size(), r = shp.size();
  if (n == 0 || n > r)
    throw ShapeError("pool_windows: kernel " + shape_text(kernel) + " does not fit shape " + shape_text(shp));
  Dims k = kernel, s = spatial_arg("pool_windows", "stride", stride, n),
       d = spatial_arg("pool_windows", "dilation", dilation, n);
  check_at_least("pool_windows", "kernel", k, 1);
  check_at_least("pool_windows", "stride", s, 1);
  check_at_least("pool_windows", "dilation", d, 1);
  size_t lead = r - n;
  Dims noop(shp.begin(), shp.begin() + lead), in(shp.begin() + lead, shp.end()), o(n);
  Pads keep;
  for (int64_t a : noop) keep.push_back({0, a});
  for (size_t j = 0; j < n; j++) {
    if (d[j] * (k[j] - 1) + 1 > in[j])
      throw ShapeError("pool_windows: kernel " + shape_text(k) + " with dilation " + shape_text(d) +
                       " is larger than the input " + shape_text(in));
    o[j] = ceildiv(in[j] - d[j] * (k[j] - 1), s[j]);
  }
  auto with_lead = [&](const Dims& tail) {
    Dims out = noop;
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  };
  auto with_keep = [&](const Pads& tail) {
    Pads out = keep;
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  };
  Dims order(noop.size());
  for (size_t i = 0; i < lead; i++) order[i] = int64_t(i);
  bool overlap = false;
  for (size_t j = 0; j < n; j++) overlap = overlap || k[j] > s[j] || d[j] != 1;
  if (!overlap) {
    // Blocks of `s`, each cut to its first k: pad (or cut) to o*s, (o, s), shrink to (o, k).
    Pads grow, fit, win;
    Dims blocks;
    for (size_t j = 0; j < n; j++) {
      grow.push_back({0, std::max<int64_t>(0, o[j] * s[j] - in[j])});
      fit.push_back({0, o[j] * s[j]});
      blocks.push_back(o[j]);
      blocks.push_back(s[j]);
      win.push_back({0, o[j]});
      win.push_back({0, k[j]});
    }
    Pads grow_all(lead, {0, 0});
    grow_all.insert(grow_all.end(), grow.begin(), grow.end());
    Tensor x = pad(grow_all).shrink(with_keep(fit)).reshape(with_lead(blocks)).shrink(with_keep(win));
    for (size_t j = 0; j < n; j++) order.push_back(int64_t(lead + 2 * j));
    for (size_t j = 0; j < n; j++) order.push_back(int64_t(lead + 2 * j + 1));
    return x.permute(order);
  }
  // Tile each axis enough times that rows of i*f + d elements hold k windows starting d apart.
  Dims f(n), tiles, tiled_shape, tiled_flat, rows;
  Pads rows_cut, strided_cut, first_cut;
  Dims strided_shape, win_shape;
  for (size_t j = 0; j < n; j++) {
    f[j] = 1 + (o[j] * s[j] > in[j] - d[j] * (k[j] - 1) ? 1 : 0);
    int64_t row = in[j] * f[j] + d[j];
    int64_t rep = ceildiv(k[j] * row, in[j]);
    tiles.push_back(1);
    tiles.push_back(in[j]);
    tiled_shape.push_back(rep);
    tiled_shape.push_back(in[j]);
    tiled_flat.push_back(rep * in[j]);
    rows_cut.push_back({0, k[j] * row});
    rows.push_back(k[j]);
    rows.push_back(row);
    strided_cut.push_back({0, k[j]});
    strided_cut.push_back({0, o[j] * s[j]});
    strided_shape.push_back(k[j]);
    strided_shape.push_back(o[j]);
    strided_shape.push_back(s[j]);
    first_cut.push_back({0, k[j]});
    first_cut.push_back({0, o[j]});
    first_cut.push_back({0, 1});
    win_shape.push_back(k[j]);
    win_shape.push_back(o[j]);
  }
  Tensor x = reshape(with_lead(tiles)).expand(with_lead(tiled_shape)).reshape(with_lead(tiled_flat));
  x = x.shrink(with_keep(rows_cut)).reshape(with_lead(rows));
  x = x.shrink(with_keep(strided_cut)).reshape(with_lead(strided_shape));
  x = x.shrink(with_keep(first_cut)).reshape(with_lead(win_shape));
  for (size_t j = 0; j < n; j++) order.push_back(int64_t(lead + 2 * j + 1));
  for (size_t j = 0; j < n; j++) order.push_back(int64_t(lead + 2 * j));
  return x.permute(order);
}

Tensor Tensor::max_pool(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride,
                        std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode) const {
  PoolPlan pl = plan_pool(pool_name("max_pool", nd), *this, nd, kernel, stride, padding, dilation, ceil_mode);
  Tensor w = plan_windows(pl, pl.x, neg_inf());
  return drop_batch(pl, w.max(last_axes(size_t(w.ndim()), size_t(nd))));
}

// Each window position carries its flat index in the input plane (padding carries int64 max, so it
// never wins); among the positions equal to the window's max the smallest index is taken.
Tensor Tensor::max_pool_indices(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride,
                                std::vector<int64_t> padding, std::vector<int64_t> dilation, bool ceil_mode) const {
  PoolPlan pl = plan_pool(pool_name("max_pool", nd), *this, nd, kernel, stride, padding, dilation, ceil_mode);
  Tensor w = plan_windows(pl, pl.x, neg_inf());
  Dims red = last_axes(size_t(w.ndim()), size_t(nd));
  Tensor is_max = w.eq(w.max(red, true));
  // The flat input index of window o's position j, per axis pos = o*s - p + d*j (a closed form of
  // arange, shape (o..., k...)); positions in the padding get `big` and never win the min.
  Tensor big = Tensor::full({}, ConstValue::from_int(std::numeric_limits<int64_t>::max()), dtypes::int64, device());
  auto i64 = [&](int64_t v) { return Tensor::scalar(ConstValue::from_int(v), dtypes::int64, device()); };
  Tensor flat = i64(0);
  Tensor valid = Tensor::scalar(ConstValue::from_int(1), dtypes::bool_, device());
  int64_t row = 1;  // elements per step along axis i of the input plane
  for (int64_t i = nd; i-- > 0;) {
    Tensor o = Tensor::arange(0, pl.out[i], 1, dtypes::int64, device()).mul(ConstValue::from_int(pl.s[i]));
    Tensor j = Tensor::arange(0, pl.k[i], 1, dtypes::int64, device()).mul(ConstValue::from_int(pl.d[i]));
    Dims o_shape(size_t(2 * nd), 1), j_shape(size_t(2 * nd), 1);
    o_shape[size_t(i)] = pl.out[i];
    j_shape[size_t(nd + i)] = pl.k[i];
    Tensor pos = o.reshape(o_shape).add(j.reshape(j_shape)).sub(ConstValue::from_int(pl.p[i]));
    valid = valid.logical_and(pos.ge(i64(0))).logical_and(pos.lt(i64(pl.in[i])));
    flat = flat.add(pos.mul(ConstValue::from_int(row)));
    row *= pl.in[i];
  }
  Tensor idx = valid.where(flat, big);
  return drop_batch(pl, is_max.where(idx, big).min(red));
}

// The divisor of each window is how many of its positions count (the input, or the input and its
// padding but not ceil_mode's extra): per spatial axis, window o covers [o*s - p, o*s - p + k)
// clipped to [lo, hi), and the divisor is the product of those lengths over the axes. A closed form
// of arange instead of a pool of ones, so the divisor costs no reduction.
Tensor Tensor::avg_pool(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride,
                        std::vector<int64_t> padding, bool ceil_mode, bool count_include_pad,
                        std::optional<int64_t> divisor_override) const {
  std::string op = pool_name("avg_pool", nd);
  PoolPlan pl = plan_pool(op, *this, nd, kernel, stride, padding, {1}, ceil_mode);
  Tensor w = plan_windows(pl, pl.x, ConstValue::from_int(0));
  Dims red = last_axes(size_t(w.ndim()), size_t(nd));
  Tensor total = w.sum(red);
  if (divisor_override) {
    if (*divisor_override == 0) throw ShapeError(op + ": divisor_override must not be zero");
    return drop_batch(pl, total.div(ConstValue::from_int(*divisor_override)));
  }
  auto i64 = [&](int64_t v) { return Tensor::scalar(ConstValue::from_int(v), dtypes::int64, device()); };
  Tensor count = Tensor::ones({}, dtype(), device());
  for (int64_t i = 0; i < nd; i++) {
    int64_t lo = count_include_pad ? -pl.p[i] : 0, hi = pl.in[i] + (count_include_pad ? pl.p[i] : 0);
    Tensor start = Tensor::arange(0, pl.out[i], 1, dtypes::int64, device()).mul(ConstValue::from_int(pl.s[i]))
                       .sub(ConstValue::from_int(pl.p[i]));
    Tensor len = start.add(ConstValue::from_int(pl.k[i])).minimum(i64(hi)).sub(start.maximum(i64(lo)));
    Dims axis_shape(size_t(nd), 1);
    axis_shape[size_t(i)] = pl.out[i];
    count = count.mul(len.cast(dtype()).reshape(axis_shape));
  }
  return drop_batch(pl, total.div(count));
}

namespace {

// One spatial axis of an adaptive pool: output o covers [floor(o*in/out), ceil((o+1)*in/out)).
// When out divides in, the windows are blocks (RESHAPE, then reduce); otherwise a mask (out, in) of
// each output's window selects the inputs to reduce.
Tensor adaptive_axis(const Tensor& x, int64_t axis, int64_t out, bool is_max) {
  Dims s = x.shape();
  int64_t in = s[axis];
  if (out == in) return x;
  if (in % out == 0) {
    Dims blocks(s.begin(), s.begin() + axis);
    blocks.push_back(out);
    blocks.push_back(in / out);
    blocks.insert(blocks.end(), s.begin() + axis + 1, s.end());
    Tensor b = x.reshape(blocks);
    return is_max ? b.max({axis + 1}) : b.mean({axis + 1});
  }
  const std::string& dev = x.device();
  Tensor o = Tensor::arange(0, out, 1, dtypes::int32, dev).reshape({out, 1});
  Tensor i = Tensor::arange(0, in, 1, dtypes::int32, dev).reshape({1, in});
  Tensor start = o.mul(ConstValue::from_int(in)).idiv(Tensor::scalar(ConstValue::from_int(out), dtypes::int32, dev));
  Tensor end = o.add(ConstValue::from_int(1)).mul(ConstValue::from_int(in)).add(ConstValue::from_int(out - 1))
                   .idiv(Tensor::scalar(ConstValue::from_int(out), dtypes::int32, dev));
  Tensor mask = i.ge(start).logical_and(i.lt(end));  // (out, in)
  Tensor last = move_axis_last(x, axis).unsqueeze(-2);  // (..., 1, in)
  Tensor r;
  if (is_max) {
    r = mask.where(last, Tensor::full({}, cast_value(neg_inf(), x.dtype()), x.dtype(), dev)).max({-1});
  } else {
    Tensor zero = Tensor::zeros({}, x.dtype(), dev);
    Tensor count = end.sub(start).reshape({out}).cast(x.dtype());
    r = mask.where(last, zero).sum({-1}).div(count);
  }
  return move_last_to(r, axis);
}

// The checked arguments of an adaptive pool: the input with a batch axis and one output size per
// spatial axis (-1 resolved to the input's size).
struct AdaptivePlan {
  Tensor x;
  bool batched = false;
  Dims out;
};

AdaptivePlan plan_adaptive(const std::string& op, const Tensor& input, Dims output_size) {
  int64_t nd = int64_t(output_size.size());
  if (nd < 1) throw ShapeError(op + ": output_size must have at least one value");
  check_float(op, "input", input);
  AdaptivePlan pl;
  pl.x = with_batch_axis(op, input, size_t(nd), pl.batched);
  Dims s = pl.x.shape();
  for (int64_t i = 0; i < nd; i++) {
    int64_t axis = int64_t(s.size()) - nd + i;
    if (output_size[i] == -1) output_size[i] = s[axis];
    if (output_size[i] < 0)
      throw ShapeError(op + ": output_size must be >= 0 (or -1 to keep an axis), got " + shape_text(output_size));
    if (s[axis] == 0)
      throw ShapeError(op + ": input " + shape_text(input.shape()) + " has an empty spatial axis");
  }
  pl.out = std::move(output_size);
  return pl;
}

// x with the spatial axes at output size 0 emptied; nullopt when none is.
std::optional<Tensor> empty_output(const AdaptivePlan& pl, DType dtype) {
  Dims z = pl.x.shape();
  bool empty = false;
  for (size_t i = 0; i < pl.out.size(); i++)
    if (pl.out[i] == 0) z[z.size() - pl.out.size() + i] = 0, empty = true;
  if (!empty) return std::nullopt;
  for (size_t i = 0; i < pl.out.size(); i++) z[z.size() - pl.out.size() + i] = pl.out[i];
  Tensor t = Tensor::zeros(z, dtype, pl.x.device());
  return pl.batched ? t : t.squeeze(0);
}

Tensor adaptive_pool(const std::string& kind, const Tensor& input, Dims output_size, bool is_max) {
  std::string op = "adaptive_" + kind + std::to_string(output_size.size()) + "d";
  AdaptivePlan pl = plan_adaptive(op, input, std::move(output_size));
  if (auto e = empty_output(pl, input.dtype())) return *e;
  Tensor x = pl.x;
  int64_t nd = int64_t(pl.out.size());
  for (int64_t i = 0; i < nd; i++) x = adaptive_axis(x, x.ndim() - nd + i, pl.out[size_t(i)], is_max);
  return pl.batched ? x : x.squeeze(0);
}

// One spatial axis of adaptive_max_pool_indices: each window's max and the flat index (`idx` carries
// them) torch's row-major scan keeps: the first position holding the max, or the last NaN when the
// window has one (torch takes every NaN it meets). First is the smallest flat index and last the
// largest, and a min (max) over a rectangle is the min (max) of its rows', so pooling axis by axis
// keeps the position the scan of the whole window keeps.
std::pair<Tensor, Tensor> adaptive_argmax_axis(const Tensor& v, const Tensor& idx, int64_t axis, int64_t out) {
  const std::string& dev = v.device();
  int64_t in = v.shape()[size_t(axis)];
  Tensor o = Tensor::arange(0, out, 1, dtypes::int64, dev).reshape({out, 1});
  Tensor i = Tensor::arange(0, in, 1, dtypes::int64, dev).reshape({1, in});
  Tensor n_out = Tensor::scalar(ConstValue::from_int(out), dtypes::int64, dev);
  Tensor start = o.mul(ConstValue::from_int(in)).idiv(n_out);
  Tensor end = o.add(ConstValue::from_int(1)).mul(ConstValue::from_int(in)).add(ConstValue::from_int(out - 1)).idiv(n_out);
  Tensor mask = i.ge(start).logical_and(i.lt(end));    // (out, in): output o's window
  Tensor vals = move_axis_last(v, axis).unsqueeze(-2);  // (..., 1, in)
  Tensor idxs = move_axis_last(idx, axis).unsqueeze(-2);
  Tensor m = mask.where(vals, Tensor::full({}, cast_value(neg_inf(), v.dtype()), v.dtype(), dev)).max({-1}, true);
  Tensor big = Tensor::full({}, ConstValue::from_int(std::numeric_limits<int64_t>::max()), dtypes::int64, dev);
  Tensor first_max = mask.logical_and(vals.eq(m)).where(idxs, big).min({-1});
  Tensor nan = mask.logical_and(vals.isnan());
  Tensor last_nan = nan.where(idxs, Tensor::full({}, ConstValue::from_int(-1), dtypes::int64, dev)).max({-1});
  return {move_last_to(m.squeeze(-1), axis), move_last_to(nan.any({-1}).where(last_nan, first_max), axis)};
}

}  // namespace

// Separable: a mean over a rectangle is the mean of its rows' means (every row has the same
// count), and a max is the max of the rows' maxima, so each spatial axis is pooled on its own.
Tensor Tensor::adaptive_avg_pool(std::vector<int64_t> output_size) const {
  return adaptive_pool("avg_pool", *this, std::move(output_size), false);
}

Tensor Tensor::adaptive_max_pool(std::vector<int64_t> output_size) const {
  return adaptive_pool("max_pool", *this, std::move(output_size), true);
}

Tensor Tensor::adaptive_max_pool_indices(std::vector<int64_t> output_size) const {
  std::string op = "adaptive_max_pool" + std::to_string(output_size.size()) + "d";
  AdaptivePlan pl = plan_adaptive(op, *this, std::move(output_size));
  if (auto e = empty_output(pl, dtypes::int64)) return *e;
  Dims s = pl.x.shape();
  int64_t nd = int64_t(pl.out.size()), plane = 1;
  for (int64_t i = 0; i < nd; i++) plane *= s[s.size() - size_t(nd) + size_t(i)];
  Dims spatial(s.end() - nd, s.end());
  Tensor v = pl.x, idx = Tensor::arange(0, plane, 1, dtypes::int64, device()).reshape(spatial).expand(s);
  for (int64_t i = 0; i < nd; i++) std::tie(v, idx) = adaptive_argmax_axis(v, idx, v.ndim() - nd + i, pl.out[size_t(i)]);
  return pl.batched ? idx : idx.squeeze(0);
}

}  // namespace onegrad
