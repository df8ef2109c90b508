// Views: a tensor whose graph is movement ops over a BUFFER views that buffer (numpy's views:
// slicing with any step, transposing, reshaping, flipping, broadcasting). setitem writes through
// them, autograd's write history follows them.
#pragma once
#include <vector>

#include "uop/dims.h"
#include "uop/uop.h"

namespace onegrad {

inline bool is_view_op(Ops op) {
  return op == Ops::RESHAPE || op == Ops::PERMUTE || op == Ops::SHRINK || op == Ops::FLIP || op == Ops::PAD ||
         op == Ops::EXPAND;
}

// The BUFFER that u is a view of, if any.
inline const UOp* viewed_buffer(const UOp* u) {
  while (is_view_op(u->op)) u = u->src[0].get();
  return u->op == Ops::BUFFER ? u : nullptr;
}

// The BUFFER that u holds whole (the BUFFER, or a RESHAPE of it with every element), if any: such a
// tensor is realized already, and its buffer's bytes are its values in order.
inline const UOp* whole_buffer(const UOpRef& u) {
  const UOp* n = u.get();
  if (n->op == Ops::RESHAPE) n = n->src[0].get();
  if (n->op != Ops::BUFFER) return nullptr;
  auto shape = u->static_shape();
  if (!shape) return nullptr;
  return dims_numel(*shape) == n->arg.get<BufferArg>().size ? n : nullptr;
}

// The movement nodes from u down to the node directly over its viewed buffer (last), or nothing
// when u is not a view of a buffer.
inline std::vector<UOpRef> view_chain(const UOpRef& u) {
  const UOp* buffer = viewed_buffer(u.get());
  if (!buffer) return {};
  std::vector<UOpRef> chain;
  for (UOpRef n = u; n.get() != buffer; n = n->src[0]) chain.push_back(n);
  return chain;
}

}  // namespace onegrad
