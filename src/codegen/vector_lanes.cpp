#include "codegen/vector_lanes.h"

namespace onegrad {

int64_t vector_lanes(const UOp& u) {
  if (u.op == Ops::INDEX) return u.src.size() == 2 ? vector_lanes(*u.src[1]) : 1;
  // a buffer's shape is its size, a STORE's is (): neither is a vector of values
  if (u.dtype.is_ptr || u.dtype == dtypes::void_ || !u.has_shape()) return 1;
  const Shape& s = u.shape();
  if (s.size() != 1 || !s[0]->is_const()) return 1;
  return int64_t(s[0]->const_value().as_int());
}

UOpRef broadcast(const UOpRef& x, int64_t k) { return UOp::create(Ops::STACK, x->dtype, std::vector<UOpRef>(size_t(k), x)); }

UOpRef contiguous_index(const UOpRef& base, int64_t k) {
  std::vector<UOpRef> lanes{base};
  for (int64_t j = 1; j < k; j++) lanes.push_back(UOp::create(Ops::ADD, dtypes::index, {base, UOp::index(j)}));
  return UOp::create(Ops::STACK, dtypes::index, std::move(lanes));
}

UOpRef contiguous_base(const UOpRef& index) {
  if (index->op != Ops::STACK || index->src.size() < 2 || !index->dtype.is_index()) return nullptr;
  const UOpRef& base = index->src[0];
  for (size_t j = 1; j < index->src.size(); j++) {
    const UOpRef& l = index->src[j];
    if (l->op != Ops::ADD || l->src.size() != 2 || l->src[0] != base || !l->src[1]->is_const() ||
        l->src[1]->const_value().as_int() != i128(j))
      return nullptr;
  }
  return base;
}

}  // namespace onegrad
