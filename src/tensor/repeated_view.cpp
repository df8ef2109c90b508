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

}  // namespace

bool reads_repeated_view(const UOpRef& value) {
  if (!value->has_shape() || value->shape().empty()) return false;
  int64_t row = dim(value->shape().back());
  if (row == 0 || row % kRepeatedRowLanes != 0) return false;
  std::vector<const UOp*> todo{value.get()};
  std::unordered_set<const UOp*> seen;
  while (!todo.empty()) {
    const UOp* u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second) continue;
    if (repeats(*u)) return true;
    if (u->op == Ops::REDUCE || u->op == Ops::CONTIGUOUS || u->op == Ops::BUFFER) continue;
    for (const UOpRef& s : u->src) todo.push_back(s.get());
  }
  return false;
}

}  // namespace onegrad
