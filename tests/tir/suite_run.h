// Running suite programs through an executor and comparing two runs. The interpreter is the
// reference; a second executor (compiled code: compile_prim_func(module, name)->run(
// bind_arguments(...))) plugs in as another Executor and is checked with
// expect_matches_interpreter — exact for integers and bools, a per-dtype float tolerance.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "suite_inputs.h"
#include "tir/interpret/interpret.h"

namespace onegrad::tir::testing {

// Every run line of the suite runs on these seeds.
inline constexpr uint64_t kSuiteSeeds[] = {20261125, 7};

// Runs function `name` of a module on `args` in place and gives its return value.
using Executor = std::function<std::optional<RuntimeValue>(const IRModule&, const std::string&, SuiteArgs&)>;

inline std::optional<RuntimeValue> run_interpreter(const IRModule& m, const std::string& name, SuiteArgs& args) {
  return interpret(m, name, args.arguments());
}

// Every array and the return value of `got` match `want`.
inline void expect_same_results(const SuiteArgs& got, const std::optional<RuntimeValue>& got_ret, const SuiteArgs& want,
                                const std::optional<RuntimeValue>& want_ret) {
  ASSERT_EQ(got.arrays.size(), want.arrays.size());
  for (size_t i = 0; i < want.arrays.size(); ++i) EXPECT_EQ(array_difference(got.arrays[i], want.arrays[i]), "");
  EXPECT_EQ(return_difference(got_ret, want_ret), "");
}

// `execute` and the interpreter on the same inputs (run line `run`, seed `seed`) leave the same
// arrays and return the same value. Exceptions of `execute` propagate (TirNotLowerable included).
inline void expect_matches_interpreter(const IRModule& m, const RunSpec& run, uint64_t seed, const Executor& execute) {
  SuiteArgs want = make_inputs(m, run, seed);
  std::optional<RuntimeValue> want_ret = run_interpreter(m, run.func, want);
  SuiteArgs got = make_inputs(m, run, seed);
  std::optional<RuntimeValue> got_ret = execute(m, run.func, got);
  expect_same_results(got, got_ret, want, want_ret);
}

}  // namespace onegrad::tir::testing
