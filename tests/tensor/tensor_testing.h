// Helpers for the Tensor tests: every graph a test builds passes the tensor-stage verifier, and
// errors are checked by type and message.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/verify/verify.h"

namespace onegrad::testing {

using Dims = std::vector<int64_t>;

// The tensor, after checking its graph with the spec verifier.
inline Tensor verified(const Tensor& t) {
  verify(t.uop());
  return t;
}

// A float32 (or `dt`) tensor of host data (zeros) with shape `s`.
inline Tensor data(Dims s, DType dt = dtypes::float32) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  std::vector<std::byte> bytes(size_t(n) * dt.itemsize());
  return Tensor::from_data(bytes.data(), bytes.size(), s, dt);
}

// 0, 1, ..., prod(s)-1 as int32 host data of shape s.
inline Tensor iota(Dims s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  std::vector<int32_t> v(n);
  for (int64_t i = 0; i < n; i++) v[i] = int32_t(i);
  return Tensor::from_vector(v, s, dtypes::int32);
}
// Host data with the given values.
inline Tensor floats(std::vector<float> v, Dims s) { return Tensor::from_vector(v, s, dtypes::float32); }
inline Tensor int32s(std::vector<int32_t> v, Dims s) { return Tensor::from_vector(v, s, dtypes::int32); }

// How many nodes of `op` the tensor's graph holds.
inline size_t count_op(const Tensor& t, Ops op) {
  auto nodes = t.uop()->toposort();
  return size_t(std::count_if(nodes.begin(), nodes.end(), [&](const UOp* u) { return u->op == op; }));
}

inline ConstValue ival(int64_t v) { return ConstValue::from_int(v); }
inline ConstValue fval(double v) { return ConstValue::from_float(v); }

}  // namespace onegrad::testing

// EXPECT that `stmt` throws `type` with a message containing `text`.
#define EXPECT_THROW_MSG(stmt, type, text)                                                  \
  do {                                                                                      \
    try {                                                                                   \
      stmt;                                                                                 \
      ADD_FAILURE() << "expected " #type " from: " #stmt;                                   \
    } catch (const type& e) {                                                               \
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << "message: " << e.what(); \
    }                                                                                       \
  } while (0)
