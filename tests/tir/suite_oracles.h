// The suite's independent oracles: for each (program, function) of tests/tir/suite, the same
// computation as plain C++ loops over the run's input arrays, writing what the function should
// leave in them and giving what it should return. Written from the programs' meaning, not from the
// interpreter: casts are C's, float16 is _Float16, bfloat16 rounds with host_array.h's bf16_round.
#pragma once
#include "oracles_casts.h"
#include "oracles_kernels.h"
#include "oracles_scalars.h"

namespace onegrad::tir::testing {

inline const OracleTable& oracle_table() {
  static const OracleTable table = [] {
    OracleTable t;
    add_kernel_oracles(t);
    add_scalar_oracles(t);
    add_cast_oracles(t);
    return t;
  }();
  return table;
}

inline const Oracle* find_oracle(const std::string& file, const std::string& func) {
  auto it = oracle_table().find(file + ":" + func);
  return it == oracle_table().end() ? nullptr : &it->second;
}

}  // namespace onegrad::tir::testing
