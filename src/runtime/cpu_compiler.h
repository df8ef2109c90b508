// The CPU backend's compiler: C source to a shared object with the system C compiler.
#pragma once
#include <mutex>
#include <string>

#include "runtime/compiler.h"

namespace onegrad {

class CpuCompiler final : public Compiler {
 public:
  // No -ffast-math: kernels must keep IEEE NaN/inf behaviour. -ffp-contract=off stops the compiler
  // fusing a*b+c into an FMA, so results match the reference semantics bit for bit.
  // -funswitch-loops: an inner loop under a condition that holds for the whole loop (a row written
  // or kept, x[idx] = rows) is only vectorized once GCC 12 moves the test out (without it, a row copy
  // of 10^5 floats stayed scalar: 69 us against 10 us).
  // -fno-trapping-math: kernels never read the floating-point exception flags, and without it GCC will
  // not evaluate both sides of a select that holds arithmetic (the NaN-propagating max's `a + b`), so
  // every loop with a MAX (relu, clip, hardswish) stayed scalar ("control flow in loop"): a
  // 48x80x80 hardswish 1.20 -> 0.20 ms. Values are unchanged: it permits no reassociation or contraction.
  static constexpr const char* kFlags =
      "-O2 -funswitch-loops -march=native -fno-trapping-math -fPIC -shared -std=c11 -ffp-contract=off";

  // `cc` is the compiler command as the shell sees it (it may carry a launcher: "ccache gcc").
  explicit CpuCompiler(std::string cc);
  // The compiler named by $ONEGRAD_CC, else `cc`.
  static std::string default_command();

  const std::string& cc() const { return cc_; }
  const std::string& cache_id() const override;
  std::string_view object_extension() const override { return ".so"; }
  void compile(std::string_view source, const std::filesystem::path& out) const override;

 private:
  std::string cc_;
  mutable std::once_flag id_once_;
  mutable std::string id_;
};

}  // namespace onegrad
