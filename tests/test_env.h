// Settings that let a long-running test (a fuzzer, the z3 proofs) run longer or with another seed.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace onegrad::testing_env {

// The integer in environment variable `name`, or `fallback` when it is not set.
inline int64_t env_or(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoll(v) : fallback;
}

}  // namespace onegrad::testing_env
