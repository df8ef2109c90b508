// What the suite's oracles share (see suite_oracles.h): their type and small C helpers.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "suite_inputs.h"

namespace onegrad::tir::testing {

using Oracle = std::function<std::optional<RuntimeValue>(SuiteArgs&, const RunSpec&)>;

inline int64_t var(const RunSpec& run, const std::string& name) { return static_cast<int64_t>(run.vars.at(name)); }
inline std::optional<RuntimeValue> returns_int(DataType t, int64_t v) { return RuntimeValue::of_int(t, v); }
inline std::optional<RuntimeValue> returns_float(DataType t, double v) { return RuntimeValue::of_float(t, v); }

// C's floor division and modulo (the // and % of TIR), for the oracles.
template <class T>
T floordiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
template <class T>
T floormod(T a, T b) {
  return a - floordiv(a, b) * b;
}

// The oracles of one theme, keyed "file.py:function".
using OracleTable = std::map<std::string, Oracle>;

}  // namespace onegrad::tir::testing
