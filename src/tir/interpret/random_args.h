// Arguments for running a PrimFunc on made-up data (`onegrad tir run`, tests, Python): one array per
// buffer parameter filled from a seeded generator, one value per scalar parameter, with the sizes
// of symbolic shapes taken from named values or a default. The same seed gives the same bytes on
// every machine: the generator is SplitMix64 and the mapping from its 64-bit outputs to values is
// written out here, not left to <random>'s implementation-defined distributions.
//
// Values, drawn buffer by buffer in parameter order, element by element in row-major order of the
// logical shape, lane by lane:
//   float16/bfloat16/float32/float64: uniform in [-1, 1) (53 random bits, then rounded to the type)
//   signed ints: uniform integers in [-10, 10];  unsigned ints: in [0, 10];  bool: 0 or 1
// An integer in [lo, hi] is lo + (draw mod (hi - lo + 1)).
// Buffer parameters over one data Var (`data=A.data`) share one memory, large enough for each.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "tir/interpret/interpret.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

// A request the function's signature cannot satisfy: an unknown variable name, a bare handle
// parameter, an extent that is negative or uses a variable nothing binds, an array over the size
// limit. The message names the parameter or variable.
struct RandomArgsError : Error {
  using Error::Error;
};

// The generator: SplitMix64 (Steele, Lea, Flood 2014), state += 0x9e3779b97f4a7c15, then the mix.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  double uniform_pm1();                   // [-1, 1): (next() >> 11) * 2^-53 * 2 - 1
  int64_t integer(int64_t lo, int64_t hi);  // [lo, hi]

 private:
  uint64_t state_;
};

using ScalarSetting = std::variant<int64_t, double>;

struct RandomArgumentOptions {
  uint64_t seed = 0;
  // Values by name for scalar parameters and for the Vars of buffer parameters' shapes, strides and
  // elem_offsets. Unset: scalars and extents take default_extent (a float parameter the same
  // number), elem_offsets 0, strides those of the compact row-major layout.
  std::map<std::string, ScalarSetting> vars;
  int64_t default_extent = 8;
  int64_t max_bytes = int64_t{1} << 32;  // per array
};

struct RandomArguments {
  RandomArguments() = default;
  RandomArguments(RandomArguments&&) = default;
  RandomArguments& operator=(RandomArguments&&) = default;
  RandomArguments(const RandomArguments&) = delete;  // args point into storage

  std::vector<Argument> args;  // one per parameter, in order
  // The variables the arguments give a value, by name, in the order first met (for printing).
  std::vector<std::pair<std::string, ScalarSetting>> values;
  std::vector<std::vector<uint64_t>> storage;  // the arrays' memory (8-byte aligned)
};

// The names RandomArgumentOptions::vars may set for f, in the order of the parameters.
std::vector<std::string> settable_variables(const PrimFuncNode& f);

// Throws RandomArgsError when a name of opts.vars is none of settable_variables(f), or f's
// arguments cannot be made (see RandomArgsError).
RandomArguments random_arguments(const PrimFuncNode& f, const RandomArgumentOptions& opts);

}  // namespace onegrad::tir
