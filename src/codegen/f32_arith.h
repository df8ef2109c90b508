// Building blocks of the float32 transcendentals (codegen/exp_log_f32.h, codegen/sin_f32.h): float32
// constants, Horner's rule, and Veltkamp's split for exact products. The exact steps rely on no FMA
// contraction (-ffp-contract=off on the CPU, FP_CONTRACT OFF in OpenCL).
#pragma once
#include <utility>
#include <vector>

#include "uop/uop.h"

namespace onegrad::f32_arith {

inline UOpRef F(double v) { return UOp::const_float(dtypes::float32, v); }
inline UOpRef bitcast(const UOpRef& a, DType dt) { return UOp::create(Ops::BITCAST, dt, {a}); }

// c[0] + t*(c[1] + t*(c[2] + ...)) in float32
inline UOpRef horner(const UOpRef& t, const std::vector<double>& c) {
  UOpRef acc = F(c.back());
  for (size_t i = c.size() - 1; i-- > 0;) acc = acc * t + F(c[i]);
  return acc;
}

// Veltkamp's split of a float32 into two halves of 12 significant bits each (hi + lo == a exactly),
// so that products of halves are exact in float32.
inline std::pair<UOpRef, UOpRef> split12(const UOpRef& a) {
  UOpRef t = a * F(4097.0);
  UOpRef hi = t - (t - a);
  return {hi, a - hi};
}

// a*b - p exactly, for p = a*b rounded to float32 (Dekker's product of halves)
inline UOpRef product_error(const UOpRef& a, const UOpRef& b, const UOpRef& p) {
  auto [ah, al] = split12(a);
  auto [bh, bl] = split12(b);
  return (((ah * bh - p) + ah * bl) + al * bh) + al * bl;
}

}  // namespace onegrad::f32_arith
