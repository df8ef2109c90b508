#include "schedule/index_math.h"

#include "uop/errors.h"

namespace onegrad {

namespace {

bool is_zero_index(const UOpRef& u) { return u->is_const() && !u->const_value().truthy(); }

UOpRef add_const(const UOpRef& a, int64_t c) { return c == 0 ? a : a + c; }

}  // namespace

UOpRef flatten_index(const IndexVec& idx, const Dims& shape) {
  UOpRef flat = UOp::index(0);
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] != 1 && !is_zero_index(idx[k])) {
      UOpRef term = stride == 1 ? idx[k] : idx[k] * stride;
      flat = is_zero_index(flat) ? term : term + flat;
    }
    stride *= shape[k];
  }
  return flat;
}

IndexVec unflatten_index(const UOpRef& flat, const Dims& shape) {
  IndexVec out(shape.size());
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 1) {
      out[k] = UOp::index(0);
    } else {
      UOpRef q = stride == 1 ? flat : idiv(flat, stride);
      // The outermost non-unit axis needs no MOD: the flat position is below the element count.
      bool outermost = true;
      for (size_t j = 0; j < k; j++) outermost = outermost && shape[j] == 1;
      out[k] = outermost ? q : q % shape[k];
    }
    stride *= shape[k];
  }
  return out;
}

// A reshape splits into groups of consecutive axes whose element counts match on both sides
// ((8, 6, 4) -> (48, 2, 2): groups (8, 6) | (48) and (4) | (2, 2)); each group is flattened and
// split on its own, so an axis a reshape leaves alone reads its own index, with no div or mod
// over the axes around it (conv's window view: the batch and channel axes stay out of the
// spatial axes' index math).
IndexVec reshape_index(const IndexVec& out_idx, const Dims& out_shape, const Dims& in_shape) {
  for (int64_t d : out_shape)
    if (d == 0) return unflatten_index(flatten_index(out_idx, out_shape), in_shape);
  IndexVec in;
  size_t i = 0, j = 0;
  while (i < out_shape.size() || j < in_shape.size()) {
    size_t i0 = i, j0 = j;
    int64_t po = 1, pi = 1;
    do {
      if (i < out_shape.size() && (po <= pi || j == in_shape.size())) po *= out_shape[i++];
      else pi *= in_shape[j++];
    } while (po != pi && (i < out_shape.size() || j < in_shape.size()));
    IndexVec group_idx(out_idx.begin() + long(i0), out_idx.begin() + long(i));
    Dims group_out(out_shape.begin() + long(i0), out_shape.begin() + long(i)), group_in(in_shape.begin() + long(j0), in_shape.begin() + long(j));
    IndexVec part = unflatten_index(flatten_index(group_idx, group_out), group_in);
    in.insert(in.end(), part.begin(), part.end());
  }
  return in;
}

IndexVec permute_index(const IndexVec& out_idx, const std::vector<int64_t>& order) {
  IndexVec in(out_idx.size());
  for (size_t k = 0; k < order.size(); k++) in[size_t(order[k])] = out_idx[k];
  return in;
}

IndexVec expand_index(const IndexVec& out_idx, const Dims& in_shape) {
  IndexVec in = out_idx;
  for (size_t k = 0; k < in_shape.size(); k++)
    if (in_shape[k] == 1) in[k] = UOp::index(0);
  return in;
}

IndexVec pad_index(const IndexVec& out_idx, const Dims& offsets) {
  IndexVec in(out_idx.size());
  for (size_t k = 0; k < out_idx.size(); k++) in[k] = add_const(out_idx[k], -offsets[k]);
  return in;
}

UOpRef pad_valid(const IndexVec& out_idx, const Dims& offsets, const Dims& in_shape) {
  UOpRef valid = UOp::const_bool(true);
  for (size_t k = 0; k < out_idx.size(); k++) {
    // offset <= i written as offset-1 < i: CMPLT is the primitive comparison.
    if (offsets[k] > 0) valid = and_valid(valid, UOp::index(offsets[k] - 1) < out_idx[k]);
    valid = and_valid(valid, out_idx[k] < offsets[k] + in_shape[k]);
  }
  return valid;
}

IndexVec shrink_index(const IndexVec& out_idx, const Dims& offsets) {
  IndexVec in(out_idx.size());
  for (size_t k = 0; k < out_idx.size(); k++) in[k] = add_const(out_idx[k], offsets[k]);
  return in;
}

IndexVec flip_index(const IndexVec& out_idx, const std::vector<bool>& flips, const Dims& shape) {
  IndexVec in = out_idx;
  for (size_t k = 0; k < flips.size(); k++)
    if (flips[k] && shape[k] > 1) in[k] = UOp::index(shape[k] - 1) - out_idx[k];
  return in;
}

namespace {

int64_t static_dim(const UOp* d, const char* op) {
  if (!d->is_const())
    throw ShapeError(std::string(op) + ": symbolic dims are not supported by the scheduler yet (" + d->brief() + ")");
  return int64_t(d->const_value().as_int());
}

}  // namespace

Dims static_dims(const UOp* shape_operand, const char* op) {
  if (shape_operand->op != Ops::STACK) return {static_dim(shape_operand, op)};
  Dims out;
  for (const UOpRef& d : shape_operand->src) out.push_back(static_dim(d.get(), op));
  return out;
}

Dims static_shape_of(const UOp* u, const char* op) {
  Dims out;
  for (const UOpRef& d : u->shape()) out.push_back(static_dim(d.get(), op));
  return out;
}

UOpRef and_valid(const UOpRef& a, const UOpRef& b) {
  if (is_true(a)) return b;
  if (is_true(b)) return a;
  return UOp::create(Ops::AND, {a, b});
}

}  // namespace onegrad
