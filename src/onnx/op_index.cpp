// Indexing ops: Gather, GatherElements, GatherND, ScatterElements (and the older Scatter),
// ScatterND, OneHot, Trilu, Compress, NonZero, TopK. ONNX indices may be negative (counted from the
// end): they are made non-negative first; out-of-range ones raise IndexError when realized.
#include "onnx/op_table.h"
#include "tensor/sort.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

// idx + size where idx < 0, as int64.
Tensor wrap_negative(const Tensor& idx, int64_t size) {
  Tensor i = idx.cast(dtypes::int64);
  Tensor zero = Tensor::scalar(ConstValue::from_int(0), dtypes::int64, idx.device());
  return i.lt(zero).where(i.add(ConstValue::from_int(size)), i);
}

// index_select along axis for a batch of indices of any shape: data.shape[:axis] + idx.shape + data.shape[axis+1:].
Tensor gather(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  const Tensor& idx = n.in(1);
  Tensor flat = wrap_negative(idx, x.shape()[size_t(axis)]).reshape({idx.numel()});
  Tensor picked = x.index_select(axis, flat);
  auto s = x.shape();
  std::vector<int64_t> out(s.begin(), s.begin() + axis);
  for (int64_t d : idx.shape()) out.push_back(d);
  out.insert(out.end(), s.begin() + axis + 1, s.end());
  return picked.reshape(out);
}

Tensor gather_elements(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  return x.gather(axis, wrap_negative(n.in(1), x.shape()[size_t(axis)]));
}

Tensor scatter_elements(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  Tensor idx = wrap_negative(n.in(1), x.shape()[size_t(axis)]);
  std::string red = n.attr_string("reduction", "none");
  if (red == "none") return x.scatter(axis, idx, n.in(2));
  if (red == "add") return x.scatter_reduce(axis, idx, n.in(2), "sum");
  if (red == "mul") return x.scatter_reduce(axis, idx, n.in(2), "prod");
  if (red == "max") return x.scatter_reduce(axis, idx, n.in(2), "amax");
  if (red == "min") return x.scatter_reduce(axis, idx, n.in(2), "amin");
  throw ArgumentError("ScatterElements: reduction '" + red + "' is not one of none, add, mul, max, min");
}

// data[idx[..., 0], idx[..., 1], ...]: advanced indexing with one index tensor per leading axis.
std::vector<IndexItem> nd_index(const Node& n, const Tensor& x, const Tensor& idx) {
  if (n.attr_int("batch_dims", 0) != 0) n.unsupported("batch_dims other than 0");
  auto is = idx.shape();
  if (is.empty()) throw ShapeError(n.op() + ": indices must have rank >= 1");
  int64_t k = is.back();
  if (k > x.ndim()) throw ShapeError(n.op() + ": index tuples of length " + std::to_string(k) + " for data of rank " + std::to_string(x.ndim()));
  std::vector<IndexItem> items;
  for (int64_t j = 0; j < k; ++j) {
    std::vector<IndexItem> pick(is.size() - 1, Slice{});
    pick.push_back(j);
    items.push_back(wrap_negative(idx.getitem(pick), x.shape()[size_t(j)]));
  }
  return items;
}

// batch_dims b: the first b axes of data and indices pair up. They are folded into one axis, and
// each index tuple gets its batch position in front, which makes it a batch_dims 0 GatherND.
Tensor gather_nd(const Node& n) {
  const Tensor& x = n.in(0);
  const Tensor& idx = n.in(1);
  int64_t b = n.attr_int("batch_dims", 0);
  if (b == 0) return x.getitem(nd_index(n, x, idx));
  auto xs = x.shape(), is = idx.shape();
  if (b < 0 || b >= int64_t(is.size()) || b >= x.ndim()) throw ShapeError("GatherND: batch_dims " + std::to_string(b) + " out of range");
  int64_t batch = 1;
  for (int64_t i = 0; i < b; ++i) {
    if (xs[size_t(i)] != is[size_t(i)]) throw ShapeError("GatherND: the batch dims of data and indices differ");
    batch *= xs[size_t(i)];
  }
  std::vector<int64_t> fx{batch}, fi{batch};
  fx.insert(fx.end(), xs.begin() + b, xs.end());
  fi.insert(fi.end(), is.begin() + b, is.end());
  Tensor flat_idx = idx.reshape(fi);
  std::vector<int64_t> bshape(fi.size() - 1, 1);
  bshape[0] = batch;
  std::vector<IndexItem> items{Tensor::arange(0, batch, 1, dtypes::int64, x.device()).reshape(bshape)};
  Tensor fxv = x.reshape(fx);
  for (int64_t j = 0; j < fi.back(); ++j) {
    std::vector<IndexItem> pick(fi.size() - 1, Slice{});
    pick.push_back(j);
    items.push_back(wrap_negative(flat_idx.getitem(pick), fx[size_t(j + 1)]));
  }
  Tensor y = fxv.getitem(items);
  std::vector<int64_t> out(xs.begin(), xs.begin() + b);
  auto ys = y.shape();
  out.insert(out.end(), ys.begin() + 1, ys.end());
  return y.reshape(out);
}

// data viewed as (rows of the k indexed axes, rest...), each index tuple a row number, and the
// updates scattered (or reduced) into those rows along axis 0.
Tensor scatter_nd(const Node& n) {
  const Tensor& x = n.in(0);
  const Tensor& idx = n.in(1);
  std::string red = n.attr_string("reduction", "none");
  if (red == "none") {
    Tensor out = x.clone();
    out.setitem(nd_index(n, out, idx), n.in(2));
    return out;
  }
  auto xs = x.shape();
  int64_t k = idx.shape().back();
  Tensor row = Tensor::zeros({}, dtypes::int64, x.device());
  auto items = nd_index(n, x, idx);
  int64_t rows = 1;
  for (int64_t j = 0; j < k; ++j) {
    row = row.mul(ConstValue::from_int(xs[size_t(j)])).add(std::get<Tensor>(items[size_t(j)]));
    rows *= xs[size_t(j)];
  }
  std::vector<int64_t> rest(xs.begin() + k, xs.end()), flat_x{rows}, flat_u{row.numel()}, idx_shape{row.numel()};
  flat_x.insert(flat_x.end(), rest.begin(), rest.end());
  flat_u.insert(flat_u.end(), rest.begin(), rest.end());
  idx_shape.resize(flat_u.size(), 1);
  Tensor index = row.reshape(idx_shape).expand(flat_u);
  const char* how = red == "add" ? "sum" : red == "mul" ? "prod" : red == "max" ? "amax" : red == "min" ? "amin" : nullptr;
  if (!how) throw ArgumentError("ScatterND: reduction '" + red + "' is not one of none, add, mul, max, min");
  return x.reshape(flat_x).scatter_reduce(0, index, n.in(2).reshape(flat_u), how).reshape(xs);
}

// Reverses the first len[b] steps of each batch entry b along the time axis.
Tensor reverse_sequence(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t bax = n.axis(n.attr_int("batch_axis", 1), x.ndim()), tax = n.axis(n.attr_int("time_axis", 0), x.ndim());
  auto lens = n.ints(1);
  int64_t steps = x.shape()[size_t(tax)], batch = x.shape()[size_t(bax)];
  if (int64_t(lens.size()) != batch) throw ShapeError("ReverseSequence: " + std::to_string(lens.size()) + " lengths for a batch of " + std::to_string(batch));
  std::vector<int64_t> index(size_t(steps * batch));
  for (int64_t t = 0; t < steps; ++t)
    for (int64_t b = 0; b < batch; ++b) index[size_t(t * batch + b)] = t < lens[size_t(b)] ? lens[size_t(b)] - 1 - t : t;
  std::vector<int64_t> shape(size_t(x.ndim()), 1);
  shape[size_t(tax)] = steps;
  shape[size_t(bax)] = batch;
  Tensor idx = Tensor::from_vector(index, {steps, batch}, dtypes::int64).to(n.device());
  if (tax > bax) idx = idx.transpose(0, 1);
  return x.gather(tax, idx.reshape(shape).expand(x.shape()));
}

Tensor one_hot(const Node& n) {
  const Tensor& idx = n.in(0);
  int64_t depth = int64_t(n.floats(1).at(0));
  const Tensor& values = n.in(2);  // [off, on]
  int64_t rank = idx.ndim() + 1;
  int64_t axis = n.axis(n.attr_int("axis", -1), rank);
  Tensor i = wrap_negative(idx, depth);
  std::vector<int64_t> shape(size_t(rank), 1);
  shape[size_t(axis)] = depth;
  Tensor pos = Tensor::arange(0, depth, 1, dtypes::int64, idx.device()).reshape(shape);
  Tensor hit = pos.eq(i.unsqueeze(axis));
  std::vector<IndexItem> off{int64_t(0)}, on{int64_t(1)};
  return hit.where(values.getitem(on), values.getitem(off));
}

Tensor trilu(const Node& n) {
  int64_t k = n.has(1) ? n.ints(1).at(0) : 0;
  return n.attr_int("upper", 1) ? n.in(0).triu(k) : n.in(0).tril(k);
}

Tensor compress(const Node& n) {
  const Tensor& x = n.in(0);
  Tensor cond = n.in(1).cast(dtypes::bool_);
  std::vector<int64_t> keep;
  auto c = ints_of(cond);
  if (!n.has_attr("axis")) {
    Tensor flat = x.reshape({x.numel()});
    for (size_t i = 0; i < c.size() && int64_t(i) < flat.numel(); ++i)
      if (c[i]) keep.push_back(int64_t(i));
    return flat.index_select(0, Tensor::from_vector(keep, {int64_t(keep.size())}, dtypes::int64).to(n.device()));
  }
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  for (size_t i = 0; i < c.size() && int64_t(i) < x.shape()[size_t(axis)]; ++i)
    if (c[i]) keep.push_back(int64_t(i));
  return x.index_select(axis, Tensor::from_vector(keep, {int64_t(keep.size())}, dtypes::int64).to(n.device()));
}

Outs topk(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t k = n.opset() < 10 ? n.attr_int("k", 1) : n.ints(1).at(0);
  int64_t axis = n.axis(n.attr_int("axis", -1), x.ndim());
  bool largest = n.attr_int("largest", 1) != 0;
  Sorted s = onegrad::topk(x, k, axis, largest);
  return {s.values, s.indices};
}

}  // namespace

void add_index_ops(OpTable& t) {
  t["Gather"] = [](const Node& n) { return Outs{gather(n)}; };
  t["GatherElements"] = [](const Node& n) { return Outs{gather_elements(n)}; };
  t["GatherND"] = [](const Node& n) { return Outs{gather_nd(n)}; };
  t["ScatterElements"] = [](const Node& n) { return Outs{scatter_elements(n)}; };
  t["Scatter"] = t["ScatterElements"];
  t["ScatterND"] = [](const Node& n) { return Outs{scatter_nd(n)}; };
  t["OneHot"] = [](const Node& n) { return Outs{one_hot(n)}; };
  t["Trilu"] = [](const Node& n) { return Outs{trilu(n)}; };
  t["Compress"] = [](const Node& n) { return Outs{compress(n)}; };
  t["NonZero"] = [](const Node& n) { return Outs{n.in(0).nonzero().transpose(0, 1)}; };
  t["TopK"] = topk;
  t["ReverseSequence"] = [](const Node& n) { return Outs{reverse_sequence(n)}; };
}

}  // namespace onegrad::onnx
