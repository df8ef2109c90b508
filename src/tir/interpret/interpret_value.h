// Run-time values of the TIR interpreter: a scalar or a vector (lanes) of one DataType. Integer
// lanes (Int, UInt, Bool, Handle) are kept as int64 already wrapped to the type's width (two's
// complement: signed sign-extended, unsigned zero-extended), float lanes as double already rounded
// to the type's precision, so every operation on them gives what the spec's C semantics give.
#pragma once
#include <cstdint>
#include <vector>

#include "tir/ast/data_type.h"

namespace onegrad::tir {

struct RuntimeValue {
  DataType dtype;
  std::vector<int64_t> ints;   // when !dtype.is_float()
  std::vector<double> floats;  // when dtype.is_float()

  int lanes() const { return dtype.lanes; }
  static RuntimeValue of_int(DataType t, int64_t v);       // broadcast to t.lanes, wrapped
  static RuntimeValue of_float(DataType t, double v);      // broadcast to t.lanes, rounded
  static RuntimeValue zeros(DataType t);
  // Lane i as an integer (floats truncate) or as a double (unsigned ints read as unsigned).
  int64_t int_at(int i = 0) const;
  double float_at(int i = 0) const;
  bool truthy(int i = 0) const { return dtype.is_float() ? floats[i] != 0 : ints[i] != 0; }
  RuntimeValue lane(int i) const;
};

// v rounded to t's float format (float16 and bfloat16 round to nearest even).
double round_float(double v, DataType t);
// C's static_cast, lane by lane; the result has v's lanes and t's code and bits.
RuntimeValue cast_value(const RuntimeValue& v, DataType t);
// Lanes of several values, in order, as one vector of their element type.
RuntimeValue concat_lanes(const std::vector<RuntimeValue>& parts);

}  // namespace onegrad::tir
