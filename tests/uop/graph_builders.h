// Small builders for tensor-level test graphs: buffers of a given shape and the movement ops, so a
// test reads like the graph it builds.
#pragma once
#include <atomic>
#include <initializer_list>
#include <span>
#include <vector>

#include "uop/uop.h"

namespace onegrad::testing {

using onegrad::next_buffer_id;  // fresh ids come from the uop layer

inline Shape dims(std::vector<int64_t> s) {
  Shape out;
  for (int64_t d : s) out.push_back(UOp::index(d));
  return out;
}

// A fresh BUFFER of `size` elements.
inline UOpRef buffer(int64_t size, DType dt = dtypes::float32, Device dev = Device("CPU")) {
  return UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), size, dt, std::move(dev), AddrSpace::GLOBAL});
}
inline UOpRef reshape(const UOpRef& x, const Shape& s) { return UOp::create(Ops::RESHAPE, {x, UOp::shape_operand(s)}); }
// (the integer forms take an initializer_list so `reshape(x, {12})` is not read as a Shape of 12)
inline UOpRef reshape(const UOpRef& x, std::initializer_list<int64_t> s) {
  return UOp::create(Ops::RESHAPE, {x, UOp::shape_operand(std::span<const int64_t>(s.begin(), s.size()))});
}
// A fresh buffer viewed with shape `s` (RESHAPE of a BUFFER of prod(s) elements).
inline UOpRef tensor(std::vector<int64_t> s, DType dt = dtypes::float32, Device dev = Device("CPU")) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return UOp::create(Ops::RESHAPE, {buffer(n, dt, std::move(dev)), UOp::shape_operand(s)});
}
inline UOpRef expand(const UOpRef& x, const Shape& s) { return UOp::create(Ops::EXPAND, {x, UOp::shape_operand(s)}); }
inline UOpRef expand(const UOpRef& x, std::initializer_list<int64_t> s) {
  return expand(x, dims(s));
}
inline UOpRef pad(const UOpRef& x, const Shape& o, const Shape& s) {
  return UOp::create(Ops::PAD, {x, UOp::shape_operand(o), UOp::shape_operand(s)});
}
inline UOpRef pad(const UOpRef& x, std::initializer_list<int64_t> o, std::initializer_list<int64_t> s) {
  return pad(x, dims(o), dims(s));
}
inline UOpRef shrink(const UOpRef& x, const Shape& o, const Shape& s) {
  return UOp::create(Ops::SHRINK, {x, UOp::shape_operand(o), UOp::shape_operand(s)});
}
inline UOpRef shrink(const UOpRef& x, std::initializer_list<int64_t> o, std::initializer_list<int64_t> s) {
  return shrink(x, dims(o), dims(s));
}
inline UOpRef permute(const UOpRef& x, std::vector<int64_t> order) {
  return UOp::create(Ops::PERMUTE, {x}, Arg(std::move(order)));
}
inline UOpRef reduce(const UOpRef& x, Ops op, std::vector<int64_t> axes) {
  return UOp::create(Ops::REDUCE, {x}, ReduceArg{op, std::move(axes)});
}
// A placeholder PARAM k of shape `s`.
inline UOpRef param(int64_t slot, const Shape& s, DType dt = dtypes::float32) {
  return UOp::create(Ops::PARAM, {UOp::shape_operand(s)}, ParamArg{slot, dt, Device("CPU"), std::nullopt, "", {}, {}});
}

}  // namespace onegrad::testing
