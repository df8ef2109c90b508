// Tensor-form graphs built by hand (docs/tensor.md), so the scheduler's tests do not depend on the
// Tensor front end: inputs are RESHAPE(BUFFER), broadcasting is an explicit EXPAND.
#pragma once
#include <vector>

#include "schedule/callify.h"
#include "schedule/rangeify.h"
#include "uop/uop.h"

namespace onegrad::testing {

using Dims = std::vector<int64_t>;

inline int64_t numel_of(const Dims& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return n;
}
inline UOpRef input(const Dims& shape, DType dt = dtypes::float32) {
  UOpRef buf = UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), numel_of(shape), dt, Device("CPU")});
  return UOp::create(Ops::RESHAPE, {buf, UOp::shape_operand(shape)});
}
inline UOpRef reshape(const UOpRef& x, const Dims& s) { return UOp::create(Ops::RESHAPE, {x, UOp::shape_operand(s)}); }
inline UOpRef expand(const UOpRef& x, const Dims& s) { return UOp::create(Ops::EXPAND, {x, UOp::shape_operand(s)}); }
inline UOpRef permute(const UOpRef& x, std::vector<int64_t> order) { return UOp::create(Ops::PERMUTE, {x}, Arg(order)); }
inline UOpRef pad(const UOpRef& x, const Dims& offsets, const Dims& s) {
  return UOp::create(Ops::PAD, {x, UOp::shape_operand(offsets), UOp::shape_operand(s)});
}
inline UOpRef shrink(const UOpRef& x, const Dims& offsets, const Dims& s) {
  return UOp::create(Ops::SHRINK, {x, UOp::shape_operand(offsets), UOp::shape_operand(s)});
}
inline UOpRef reduce(const UOpRef& x, Ops op, std::vector<int64_t> axes) {
  return UOp::create(Ops::REDUCE, {x}, ReduceArg{op, std::move(axes)});
}
inline UOpRef full_like(const UOpRef& x, double v) {
  auto s = *x->static_shape();
  UOpRef c = UOp::const_float(x->dtype, v);
  if (s.empty()) return c;
  return expand(reshape(c, Dims(s.size(), 1)), s);
}
inline UOpRef alu(Ops op, const UOpRef& a, const UOpRef& b) { return UOp::create(op, {a, b}); }
inline UOpRef relu(const UOpRef& x) { return alu(Ops::MAX, x, full_like(x, 0)); }
inline UOpRef contiguous(const UOpRef& x) { return UOp::create(Ops::LOAD, x->dtype, {x}, LoadArg{Device("CPU")}); }

// The spec's gemm: (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1).reshape(M,N).
inline UOpRef gemm(const UOpRef& a, const UOpRef& b) {
  auto sa = *a->static_shape(), sb = *b->static_shape();
  int64_t M = sa[0], K = sa[1], N = sb[1];
  UOpRef prod = alu(Ops::MUL, expand(reshape(a, {M, K, 1}), {M, K, N}), expand(reshape(b, {1, K, N}), {M, K, N}));
  return reshape(reduce(prod, Ops::ADD, {1}), {M, N});
}

// How many nodes of `op` a graph (a kernel AST, a schedule's sink) holds.
inline int count_ops(const UOpRef& root, Ops op) {
  int n = 0;
  for (const UOp* u : root->toposort()) n += u->op == op;
  return n;
}

inline Schedule schedule_of(std::vector<UOpRef> outs) { return rangeify(callify(outs).function); }

}  // namespace onegrad::testing
