// torch's gather / scatter family along any axis, as the spec's one-hot compositions. gather builds
// the mask over one more axis: for an index of shape O and a target axis of size K,
// `mask[o, k] = index[o] == k` has shape O + (K,), and
//
//   gather:  out[o] = sum_k mask[o, k] * x[o with o[dim] -> k]                 (a sum over K)
//
// The scatters work on the flattened input: each index entry o has one flat target (its coordinates
// with o[dim] replaced by index[o]), and the 1-D compositions of scatter_compositions.h (the
// spec's scatter_add among them) combine src[o] into its target (a sum, product, maximum or last
// write).
// An index outside [0, K) matches no k: gather gives 0 there and scatter writes nothing; each op
// marks its result with an index check (index_check.h), so realizing it raises IndexError as
// PyTorch does (docs/tensor.md).
#include <algorithm>

#include "tensor/broadcast.h"
#include "tensor/gradient.h"
#include "tensor/graph_template.h"
#include "tensor/index_check.h"
#include "tensor/index_dtype.h"
#include "tensor/literal_check.h"
#include "tensor/scatter_compositions.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/reduce_identity.h"

namespace onegrad {

namespace {

// mask[o, k] = index[o] == k, shape O + (K,).
Tensor onehot(const std::string& op, const Tensor& index, int64_t K) {
  auto [pos, idx] = spec::index_positions(op, K, index);
  Dims o = index.shape();
  Dims col = o, row(o.size(), 1);
  col.push_back(1);
  row.push_back(K);
  return idx.reshape(col).eq(pos.reshape(row));
}

// Torch's rank rule: a 0-d tensor counts as 1-D of size 1 (gather/scatter of 0-d tensors work).
Dims as_1d(const Dims& s) { return s.empty() ? Dims{1} : s; }

void check_rank(const std::string& op, const Dims& self, const Dims& index) {
  if (as_1d(index).size() != as_1d(self).size())
    throw ShapeError(op + ": index " + shape_text(index) + " must have as many dims as the input " + shape_text(self));
}

void check_index(const std::string& op, const Dims& self, const Dims& index, int64_t dim) {
  for (size_t i = 0; i < self.size(); i++)
    if (int64_t(i) != dim && index[i] > self[i])
      throw ShapeError(op + ": index " + shape_text(index) + " is larger than the input " + shape_text(self) +
                       " along axis " + std::to_string(i) + " (only axis " + std::to_string(dim) + " may be)");
}

std::vector<std::pair<int64_t, int64_t>> upto(const Dims& s) {
  std::vector<std::pair<int64_t, int64_t>> b;
  for (int64_t d : s) b.push_back({0, d});
  return b;
}

// What the scatter family shares: the checked operands and how to place a per-(O without dim, K)
// result into the input's shape.
struct Scatter {
  std::string op;
  Tensor self, index;
  Dims s, o;  // the input's and the index's shapes (0-d as (1,))
  int64_t dim, K;
  bool zero_d;

  Scatter(std::string name, const Tensor& self_, int64_t dim_, const Tensor& index_)
      : op(std::move(name)), self(self_), index(index_) {
    Dims s0 = self.shape(), o0 = index.shape();
    zero_d = s0.empty();
    s = as_1d(s0);
    o = as_1d(o0);
    check_rank(op, s0, o0);
    dim = zero_d ? (normalize_axis_ext(op, dim_, s0, 1), 0) : normalize_axis(op, dim_, s0);
    check_index(op, s, o, dim);
    K = s[dim];
    self = self.reshape(s);
    index = index.reshape(o);
    spec::index_positions(op, K, index);  // DTypeError for a non-integer index
  }

  // src restricted to the index's extent, as (O + (1,)); src must be at least as large as index.
  Tensor source(const Tensor& src) const {
    Dims ss = as_1d(src.shape());
    bool fits = ss.size() == o.size();
    for (size_t i = 0; fits && i < o.size(); i++) fits = o[i] <= ss[i];
    if (!fits)
      throw ShapeError(op + ": index " + shape_text(index.shape()) + " is larger than src " + shape_text(src.shape()));
    if (src.dtype() != self.dtype())
      throw DTypeError(op + ": src has dtype " + src.dtype().name() + " but the input has " + self.dtype().name());
    check_same_device(op, {self, index, src});
    Dims col = o;
    col.push_back(1);
    return src.reshape(ss).shrink(upto(o)).reshape(col);
  }

  // No index entries: nothing is written.
  bool nothing() const { return dims_numel(o) == 0; }

  // The result when nothing is written: the input, still a function of the (empty) values for
  // autograd, which then gives them an empty gradient as PyTorch does rather than none.
  Tensor unchanged(const Tensor& values) const {
    if (!grad_enabled() || !values.requires_grad()) return self;
    Tensor always = Tensor::scalar(ConstValue::from_bool(true), dtypes::bool_, self.device());
    return finish(always.where(self, values.sum().cast(self.dtype())));
  }

  // The input flattened, as the 1-D scatters of the flat targets see it.
  Tensor flat_self() const { return self.reshape({dims_numel(s)}); }

  // Whether some index entry hits each place of the flat input.
  Tensor hit() const { return scatter::hit(dims_numel(s), flat_targets()); }

  Tensor finish(const Tensor& r) const {
    return with_index_check(zero_d ? r.reshape({}) : r, index, index_bounds(op, dim, K));
  }

  // The flat position in the input of each index entry (O row-major, as (numel O,)): its own
  // coordinates with `dim`'s replaced by the index value, or -1 where that value is outside [0, K)
  // (the spec's scatter_add matches no position then). Lazy: the scatter loops compute it inline.
  Tensor flat_targets() const {
    int64_t total = dims_numel(s);
    DType it = index_dtype(total);
    Tensor wide = index.cast(dtypes::int64);
    Tensor inside = wide.ge(Tensor::scalar(ConstValue::from_int(0), dtypes::int64, self.device()))
                        .logical_and(wide.lt(Tensor::scalar(ConstValue::from_int(K), dtypes::int64, self.device())));
    Tensor flat;
    int64_t stride = 1;
    for (size_t i = s.size(); i-- > 0;) {
      Tensor coord;
      if (int64_t(i) == dim) {
        coord = inside.where(index.cast(it), Tensor::scalar(ConstValue::from_int(0), it, self.device()));
      } else {
        Dims at(o.size(), 1);
        at[i] = o[i];
        coord = Tensor::arange(0, o[i], 1, it, self.device()).reshape(at).expand(o);
      }
      if (stride != 1) coord = coord.mul(ConstValue::from_int(stride));
      flat = flat.uop() ? flat.add(coord) : coord;
      stride *= s[i];
    }
    Tensor none = Tensor::scalar(ConstValue::from_int(-1), it, self.device());
    return inside.where(flat, none).reshape({dims_numel(o)});
  }
};

}  // namespace

Tensor Tensor::gather(int64_t dim, const Tensor& index) const {
  Dims s0 = shape(), o0 = index.shape();
  check_rank("gather", s0, o0);
  check_same_device("gather", {*this, index});
  Dims s = as_1d(s0), o = as_1d(o0);
  int64_t d = s0.empty() ? (normalize_axis_ext("gather", dim, s0, 1), 0) : normalize_axis("gather", dim, s0);
  check_index("gather", s, o, d);
  int64_t K = s[d];
  // torch reads only x[..., :O[i], ...] off `dim`: shrink to that, move `dim` last, and put a size-1
  // axis in its place so x broadcasts against the mask O + (K,).
  auto bounds = upto(o);
  bounds[d] = {0, K};
  Tensor x = reshape(s).shrink(bounds);
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < int64_t(s.size()); i++)
    if (i != d) perm.push_back(i);
  perm.push_back(d);
  Dims spread = o;
  spread[d] = 1;
  spread.push_back(K);
  x = x.permute(perm).reshape(spread);
  Tensor mask = onehot("gather", index.reshape(o), K);
  Tensor r = spec::masked_values(x, mask).sum({-1}).cast(dtype());
  return with_index_check(r.reshape(o0), index, index_bounds("gather", d, K));
}

Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  Dims s = shape(), i = index.shape();
  if (i.size() > 1) throw ShapeError("index_select: index must be 1-D or 0-d, got shape " + shape_text(i));
  Dims s1 = as_1d(s);
  int64_t d = s.empty() ? (normalize_axis_ext("index_select", dim, s, 1), 0) : normalize_axis("index_select", dim, s);
  int64_t n = i.empty() ? 1 : i[0];
  Dims out = s1, col(s1.size(), 1);
  out[d] = n;
  col[d] = n;
  if (!index.dtype().is_int())
    throw DTypeError("index_select: index must be an integer tensor, got " + index.dtype().name());
  // The graph depends on the shapes, dtypes and d alone: built once per those (graph_template.h).
  Tensor r = from_graph_template("index_select", {d}, {*this, index}, [&](const std::vector<Tensor>& in) {
    NestedIndexOp nested;  // checked once below, as index_select
    Tensor g = in[0].reshape(s1).gather(d, in[1].reshape(col).expand(out));
    return s.empty() ? g.reshape(i.empty() ? Dims{} : Dims{n}) : g;
  });
  return with_index_check(r, index, index_bounds("index_select", d, s1[size_t(d)]));
}

// Last write wins along `dim` (PyTorch's CPU loop order): among the index entries that hit a
// place, the one with the largest position along `dim` gives the value. The entries are taken in
// row-major order of the index, in which two entries with the same target differ only along `dim`.
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  Scatter sc("scatter", *this, dim, index);
  Tensor v = sc.source(src);  // O + (1,)
  if (sc.nothing()) return sc.unchanged(v);
  Tensor r = scatter::last_write(sc.flat_self(), sc.flat_targets(), v.reshape({dims_numel(sc.o)}));
  return sc.finish(r.reshape(sc.s));
}

Tensor Tensor::scatter(int64_t dim, const Tensor& index, Scalar value) const {
  Scatter sc("scatter", *this, dim, index);
  check_same_device("scatter", {*this, index});
  Tensor v = literal_scalar("scatter", value, dtype(), device_);
  if (sc.nothing()) return *this;
  return sc.finish(sc.hit().where(v, sc.flat_self()).reshape(sc.s));
}

// The spec's 1-D scatter_add over the flattened input, each entry at its flat target, as
// scatter::combine sums it: a float place no entry hits adds -0.0, not the spec's +0.0, so a -0.0
// in the input stays -0.0 as in torch. Realized alone, its kernel is the one-hot form Rangeify's
// onehot_to_scatter runs as an indexed update (docs/schedule.md, "Scatters"), K + D work.
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  Scatter sc("scatter_add", *this, dim, index);
  Tensor v = sc.source(src);
  if (sc.nothing()) return sc.unchanged(v);
  Tensor r = scatter::combine(sc.flat_self(), sc.flat_targets(), v.reshape({dims_numel(sc.o)}), Ops::ADD);
  return sc.finish(r.reshape(sc.s));
}

// The reduction over the hits, each a scatter::combine over the flat targets (linear); places
// without a hit keep the input. Without include_self the input starts as op's identity where hit.
// mean is the sum over the count (one more with include_self); integer mean floors (PyTorch).
// amin is amax of the negated values (bitwise not for ints: an exact order-reversing map).
Tensor Tensor::scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce,
                              bool include_self) const {
  static const char* kinds[] = {"sum", "prod", "mean", "amax", "amin"};
  if (std::find(std::begin(kinds), std::end(kinds), reduce) == std::end(kinds))
    throw ShapeError("scatter_reduce: reduce must be one of sum, prod, mean, amax, amin, got '" + reduce + "'");
  Scatter sc("scatter_reduce", *this, dim, index);
  Tensor v = sc.source(src).reshape({dims_numel(sc.o)});
  if (sc.nothing()) return sc.unchanged(v);
  DType dt = dtype();
  Tensor self = sc.flat_self(), targets = sc.flat_targets();
  bool mean = reduce == "mean";
  // With include_self, a place no entry hits ends as self op e, which is self exactly (a float
  // sum's e is -0.0: scatter::combine): the hit count is needed without include_self and for mean.
  bool counted = mean || !include_self;
  Tensor count, hit;
  if (counted) {
    Tensor ones = Tensor::full({v.numel()}, ConstValue::from_int(1), dtypes::int32, device_);
    count = scatter::combine(Tensor::zeros({self.numel()}, dtypes::int32, device_), targets, ones, Ops::ADD);
    hit = count.gt(Tensor::scalar(ConstValue::from_int(0), dtypes::int32, device_));
  }
  auto fold = [&](Ops op, const Tensor& base, const Tensor& val) {
    if (include_self) return scatter::combine(base, targets, val, op);
    // tagged: PyTorch's amax/amin gradient counts self's ties all the same (scatter_gradient.cpp)
    Tensor start = hit.where(Tensor::scalar(reduce_identity(op, dt)->const_value(), dt, device_), base);
    return scatter::combine(Tensor(start.uop()->with_tag(kScatterTag), device_), targets, val, op);
  };
  auto reverse = [&](const Tensor& t) { return dt.is_float() ? t.neg() : t.bitwise_not(); };
  Tensor r;
  if (reduce == "sum") {
    r = fold(Ops::ADD, self, v);
  } else if (reduce == "prod") {
    r = fold(Ops::MUL, self, v);
  } else if (reduce == "amax") {
    r = fold(Ops::MAX, self, v);
  } else if (reduce == "amin") {
    r = reverse(fold(Ops::MAX, reverse(self), reverse(v)));
  } else {
    Tensor total = fold(Ops::ADD, self, v);
    Tensor n = include_self ? count.add(ConstValue::from_int(1)) : count;
    // a count of 0 (no hit, no self) divides by 1: that place keeps self, and 0/0 would send NaN
    // into the gradient
    n = n.maximum(Tensor::scalar(ConstValue::from_int(1), n.dtype(), device_)).cast(dt);
    r = dt.is_float() ? total.div(n) : total.idiv(n);
  }
  return sc.finish((counted ? hit.where(r, self) : r).reshape(sc.s));
}

// self where mask is false, value where it is true: WHERE(CAST(mask, bool), value, self). The value
// takes self's dtype and the mask and self broadcast together (PyTorch's out-of-place masked_fill).
// A mask of another dtype counts non-zero as true (PyTorch accepts int masks too).
Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
  if (!value.shape().empty())
    throw ShapeError("masked_fill: value must be a 0-d tensor or a number, got shape " + shape_text(value.shape()));
  broadcast_shape("masked_fill", {shape(), mask.shape()});
  return mask.where(value.cast(dtype()), *this);
}

Tensor Tensor::masked_fill(const Tensor& mask, Scalar value) const {
  return masked_fill(mask, literal_scalar("masked_fill", value, dtype(), device_));
}

}  // namespace onegrad
