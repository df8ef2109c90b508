#include "tensor/repeated_view.h"

#include <unordered_set>

namespace onegrad {

namespace {

// A dim's value, or 0 when it is symbolic (a model's batch dimension).
int64_t dim(const UOpRef& d) { return d->is_const() ? int64_t(d->const_value().as_int()) : 0; }

bool repeats(const UOp& reshape) {
  if (reshape.op != Ops::RESHAPE || reshape.src.empty() || reshape.src[0]->op != Ops::EXPAND) return false;
  const UOp& expand = *reshape.src[0];
  if (!expand.src[0]->has_shape() || !expand.has_shape() || !reshape.has_shape()) return false;
  const Shape &in = expand.src[0]->shape(), &wide = expand.shape();
  if (in.size() != wide.size() || reshape.shape().size() >= wide.size()) return false;
  for (size_t a = 1; a < in.size(); a++)
    if (dim(in[a]) == 1 && dim(wide[a]) > 1 && dim(in[a - 1]) > 1) return true;
  return false;
}

// A PERMUTE whose last axis is not its source's innermost run: the source's axes after the one it
// moves last hold more than one element, so consecutive outputs are that many elements apart.
bool strides_rows(const UOp& permute) {
  if (permute.op != Ops::PERMUTE || !permute.src[0]->has_shape() || !permute.arg.is<Arg::Ints>()) return false;
  const Shape& in = permute.src[0]->shape();
  const auto& perm = permute.arg.get<Arg::Ints>();
  if (perm.empty()) return false;
  for (size_t a = size_t(perm.back()) + 1; a < in.size(); a++)
    if (dim(in[a]) != 1) return true;
  return false;
}

// Whether `is` holds for a node of the value's own kernel: not looking past a REDUCE, a CONTIGUOUS
// or a BUFFER (those are realized apart).
template <class Pred>
bool in_own_kernel(const UOpRef& value, Pred is) {
  std::vector<const UOp*> todo{value.get()};
  std::unordered_set<const UOp*> seen;
  while (!todo.empty()) {
    const UOp* u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second) continue;
    if (is(*u)) return true;
    if (u->op == Ops::REDUCE || u->op == Ops::CONTIGUOUS || u->op == Ops::BUFFER) continue;
    for (const UOpRef& s : u->src) todo.push_back(s.get());
  }
  return false;
}

}  // namespace

bool reads_repeated_view(const UOpRef& value) {
  if (!value->has_shape() || value->shape().empty()) return false;
  int64_t row = dim(value->shape().back());
  if (row == 0 || row % kRepeatedRowLanes != 0) return false;
  return in_own_kernel(value, repeats);
}

bool reads_interleaved_view(const UOpRef& value) {
  if (!value->has_shape() || value->shape().empty()) return false;
  return in_own_kernel(value, strides_rows);
}

}  // namespace onegrad
