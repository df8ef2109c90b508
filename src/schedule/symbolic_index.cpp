#include "schedule/symbolic_index.h"

#include "uop/errors.h"

namespace onegrad {

namespace {

bool is_one(const UOpRef& d) { return d->is_const() && d->const_value().as_int() == 1; }
bool is_zero(const UOpRef& d) { return d->is_const() && d->const_value().as_int() == 0; }

// a*b with constants folded (strides of static inner dims stay numbers).
UOpRef mul_dim(const UOpRef& a, const UOpRef& b) {
  if (is_one(a)) return b;
  if (is_one(b)) return a;
  if (a->is_const() && b->is_const()) return UOp::index(a->const_value().as_int() * b->const_value().as_int());
  return a * b;
}

}  // namespace

std::optional<Dims> const_dims(const Shape& s) {
  Dims out;
  out.reserve(s.size());
  for (const UOpRef& d : s) {
    if (!d->is_const()) return std::nullopt;
    out.push_back(int64_t(d->const_value().as_int()));
  }
  return out;
}

Shape dims_of(const UOp* u, const char* op) {
  if (!u->has_shape()) throw ShapeError(std::string(op) + ": " + u->brief() + " has no shape");
  return u->shape();
}

Shape operand_dims(const UOp* shape_operand) {
  if (shape_operand->op != Ops::STACK) return {shape_operand->ref()};
  return shape_operand->src;
}

UOpRef flatten_index(const IndexVec& idx, const Shape& shape) {
  if (auto d = const_dims(shape)) return flatten_index(idx, *d);
  UOpRef flat = UOp::index(0), stride = UOp::index(1);
  for (size_t k = shape.size(); k-- > 0;) {
    if (!is_one(shape[k]) && !is_zero(idx[k])) {
      UOpRef term = is_one(stride) ? idx[k] : idx[k] * stride;
      flat = is_zero(flat) ? term : term + flat;
    }
    stride = mul_dim(stride, shape[k]);
  }
  return flat;
}

IndexVec unflatten_index(const UOpRef& flat, const Shape& shape) {
  if (auto d = const_dims(shape)) return unflatten_index(flat, *d);
  IndexVec out(shape.size());
  UOpRef stride = UOp::index(1);
  for (size_t k = shape.size(); k-- > 0;) {
    if (is_one(shape[k])) {
      out[k] = UOp::index(0);
    } else {
      UOpRef q = is_one(stride) ? flat : idiv(flat, stride);
      bool outermost = true;  // below the element count: no MOD
      for (size_t j = 0; j < k; j++) outermost = outermost && is_one(shape[j]);
      out[k] = outermost ? q : q % shape[k];
    }
    stride = mul_dim(stride, shape[k]);
  }
  return out;
}

IndexVec reshape_index(const IndexVec& out_idx, const Shape& out_shape, const Shape& in_shape) {
  auto od = const_dims(out_shape), id = const_dims(in_shape);
  if (od && id) return reshape_index(out_idx, *od, *id);
  // Peel axes equal on both sides from the front and the back (unit axes read 0 / are skipped).
  size_t i0 = 0, j0 = 0, i1 = out_shape.size(), j1 = in_shape.size();
  IndexVec front, back;
  while (true) {
    if (i0 < i1 && is_one(out_shape[i0])) i0++;
    else if (j0 < j1 && is_one(in_shape[j0])) front.push_back(UOp::index(0)), j0++;
    else if (i0 < i1 && j0 < j1 && out_shape[i0] == in_shape[j0]) front.push_back(out_idx[i0++]), j0++;
    else break;
  }
  while (true) {
    if (i1 > i0 && is_one(out_shape[i1 - 1])) i1--;
    else if (j1 > j0 && is_one(in_shape[j1 - 1])) back.push_back(UOp::index(0)), j1--;
    else if (i1 > i0 && j1 > j0 && out_shape[i1 - 1] == in_shape[j1 - 1]) back.push_back(out_idx[--i1]), j1--;
    else break;
  }
  IndexVec in = front;
  if (j0 < j1) {
    IndexVec mid_idx(out_idx.begin() + long(i0), out_idx.begin() + long(i1));
    Shape mid_out(out_shape.begin() + long(i0), out_shape.begin() + long(i1));
    Shape mid_in(in_shape.begin() + long(j0), in_shape.begin() + long(j1));
    IndexVec part = unflatten_index(flatten_index(mid_idx, mid_out), mid_in);
    in.insert(in.end(), part.begin(), part.end());
  }
  in.insert(in.end(), back.rbegin(), back.rend());
  return in;
}

IndexVec expand_index(const IndexVec& out_idx, const Shape& in_shape) {
  IndexVec in = out_idx;
  for (size_t k = 0; k < in_shape.size(); k++)
    if (is_one(in_shape[k])) in[k] = UOp::index(0);
  return in;
}

UOpRef pad_valid(const IndexVec& out_idx, const Dims& offsets, const Shape& in_shape) {
  if (auto d = const_dims(in_shape)) return pad_valid(out_idx, offsets, *d);
  UOpRef valid = UOp::const_bool(true);
  for (size_t k = 0; k < out_idx.size(); k++) {
    if (offsets[k] > 0) valid = and_valid(valid, UOp::index(offsets[k] - 1) < out_idx[k]);
    UOpRef end = offsets[k] == 0 ? in_shape[k] : in_shape[k] + offsets[k];
    valid = and_valid(valid, out_idx[k] < end);
  }
  return valid;
}

UOpRef pad_valid(const IndexVec& out_idx, const Shape& offsets, const Shape& in_shape) {
  if (auto o = const_dims(offsets)) return pad_valid(out_idx, *o, in_shape);
  UOpRef valid = UOp::const_bool(true);
  for (size_t k = 0; k < out_idx.size(); k++) {
    if (!is_zero(offsets[k])) valid = and_valid(valid, (offsets[k] - 1) < out_idx[k]);
    valid = and_valid(valid, out_idx[k] < (is_zero(offsets[k]) ? in_shape[k] : offsets[k] + in_shape[k]));
  }
  return valid;
}

IndexVec pad_index(const IndexVec& out_idx, const Shape& offsets) {
  if (auto o = const_dims(offsets)) return pad_index(out_idx, *o);
  IndexVec in = out_idx;
  for (size_t k = 0; k < in.size(); k++)
    if (!is_zero(offsets[k])) in[k] = out_idx[k] - offsets[k];
  return in;
}

IndexVec shrink_index(const IndexVec& out_idx, const Shape& offsets) {
  if (auto o = const_dims(offsets)) return shrink_index(out_idx, *o);
  IndexVec in = out_idx;
  for (size_t k = 0; k < in.size(); k++)
    if (!is_zero(offsets[k])) in[k] = out_idx[k] + offsets[k];
  return in;
}

IndexVec flip_index(const IndexVec& out_idx, const std::vector<bool>& flips, const Shape& shape) {
  if (auto d = const_dims(shape)) return flip_index(out_idx, flips, *d);
  IndexVec in = out_idx;
  for (size_t k = 0; k < flips.size(); k++)
    if (flips[k] && !is_one(shape[k])) in[k] = (shape[k] - 1) - out_idx[k];
  return in;
}

int64_t upper_numel(const Shape& s) {
  int64_t n = 1;
  for (const UOpRef& d : s) n *= d->is_const() ? int64_t(d->const_value().as_int()) : int64_t(d->vmax().as_int());
  return n;
}

}  // namespace onegrad
