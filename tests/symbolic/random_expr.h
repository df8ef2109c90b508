// The random expression generator shared by the simplifier's exhaustive fuzzer (tiny domains,
// every assignment evaluated) and its z3 proof test (wide domains, proved for all assignments).
// One generator, so both tests exercise the same shapes of expression; only the variables' domains
// (and, for the proofs, the size of constants) differ, through `RandomExprConfig`.
//
// The default configuration draws exactly the random numbers the fuzzer always drew, in the same
// order, so a fixed seed keeps producing the same expressions (and the fuzzer's summary line).
#pragma once
#include <algorithm>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "uop/uop.h"

namespace onegrad::testing {

class RandomExpr;

struct VarDomain {
  i128 lo, hi;
};

struct RandomExprConfig {
  // Bounds of variable `i` of `n`, drawn from the generator's own random stream (so a seed fixes
  // them). The default: small domains, some negative, at most ~125 assignments per expression.
  std::function<VarDomain(RandomExpr& gen, int n, int i)> domain;
  // Wide domains make the fuzzer's small constants uninteresting next to the variables: with
  // `wide_constants` some constants (divisors, offsets, factors) are drawn from a large range too.
  // The draw for it happens only when set, so the default stream stays the fuzzer's.
  bool wide_constants = false;
};

// The fuzzer's domains: lo in [-6, 4], size 1..10 (two variables) or 1..5 (three).
VarDomain tiny_domain(RandomExpr& gen, int n, int i);

class RandomExpr {
 public:
  RandomExpr(uint64_t seed, DType dtype, RandomExprConfig config = {}) : rng_(seed), dtype_(dtype), config_(std::move(config)) {
    if (!config_.domain) config_.domain = tiny_domain;
  }

  // A fresh set of 2-3 variables, then an expression over them.
  UOpRef expression() {
    vars_.clear();
    int n = 2 + int(pick(2));
    static const char* names[] = {"a", "b", "c"};
    for (int i = 0; i < n; i++) {
      VarDomain d = config_.domain(*this, n, i);
      vars_.push_back(UOp::variable(names[i], d.lo, d.hi, dtype_));
    }
    return gen_int(int(range(2, 4)));
  }
  const std::vector<UOpRef>& vars() const { return vars_; }

  // The random stream, for domain functions.
  uint64_t pick(uint64_t n) { return rng_() % n; }
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(pick(uint64_t(hi - lo + 1))); }

 private:
  // A constant in [lo, hi], or with wide constants sometimes a large one of either sign.
  int64_t value(int64_t lo, int64_t hi) {
    if (config_.wide_constants && pick(4) == 0) return wide_value();
    return range(lo, hi);
  }
  // Around powers of two and ten, where div/mod folds that depend on the divisor's size live.
  int64_t wide_value() {
    static const int64_t tens[] = {10, 100, 1000, 10000, 100000, 1000000, 10000000};
    int64_t base = pick(2) ? int64_t(1) << range(3, 24) : tens[pick(7)];
    int64_t v = base + range(-2, 2);
    return pick(3) == 0 ? -v : v;
  }
  UOpRef cst(int64_t lo, int64_t hi) { return UOp::const_int(dtype_, value(lo, hi)); }
  UOpRef nonzero_const() {
    if (config_.wide_constants && pick(4) == 0) return UOp::const_int(dtype_, wide_value());  // never 0
    int64_t v = range(1, 6);
    return UOp::const_int(dtype_, pick(3) == 0 ? -v : v);
  }

  UOpRef leaf() {
    if (pick(10) < 7) return vars_[pick(vars_.size())];
    return cst(-8, 8);
  }

  UOpRef gen_int(int depth) {
    if (depth <= 0) return leaf();
    int d = depth - 1;
    switch (pick(18)) {
      case 0: case 1: return gen_int(d) + gen_int(d);
      case 2: return gen_int(d) - gen_int(d);                      // ADD(a, MUL(b, -1))
      case 3: return -gen_int(d);                                  // MUL(a, -1)
      case 4: case 5: return gen_int(d) * cst(-5, 5);
      case 6: return depth <= 2 ? gen_int(d) * gen_int(d) : gen_int(d) * cst(-3, 3);
      case 7: case 8: return idiv(gen_int(d), nonzero_const());
      case 9: case 10: return gen_int(d) % nonzero_const();
      case 11: return pick(2) ? idiv(gen_int(d), gen_int(d)) : gen_int(d) % gen_int(d);  // may divide by zero
      case 12: return maximum(gen_int(d), gen_int(d));
      case 13: return minimum(gen_int(d), gen_int(d));
      case 14: return where(gen_bool(d), gen_int(d), gen_int(d));
      case 15: return UOp::alu(Ops::SUB, {gen_int(d), gen_int(d)});  // decomposed ops as nodes
      case 16: return UOp::alu(Ops::NEG, {gen_int(d)});
      default: return gen_int(d) + cst(-8, 8);
    }
  }

  UOpRef gen_bool(int depth) {
    if (depth < 0) return UOp::const_bool(pick(2));
    int d = std::max(depth - 1, 0);
    static const Ops compares[] = {Ops::CMPGT, Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ};
    static const Ops logic[] = {Ops::AND, Ops::OR, Ops::XOR};
    switch (pick(10)) {
      case 0: case 1: return gen_int(d) < gen_int(d);
      case 2: return ne(gen_int(d), gen_int(d));
      case 3: return eq(gen_int(d), gen_int(d));                     // CMPNE(CMPNE(a, b), true)
      case 4: return ne(gen_bool(d - 1), UOp::const_bool(true));     // NOT, as uop.cpp spells it
      case 5: return UOp::alu(compares[pick(4)], {gen_int(d), gen_int(d)});
      case 6: return UOp::alu(Ops::NOT, {gen_bool(d - 1)});
      case 7: return where(gen_bool(d - 1), gen_bool(d - 1), gen_bool(d - 1));
      default: return UOp::alu(logic[pick(3)], {gen_bool(d - 1), gen_bool(d - 1)});
    }
  }

  std::mt19937_64 rng_;
  DType dtype_;
  RandomExprConfig config_;
  std::vector<UOpRef> vars_;
};

inline VarDomain tiny_domain(RandomExpr& gen, int n, int) {
  int max_size = n == 2 ? 10 : 5;  // keeps every expression under ~125 assignments
  int64_t lo = gen.range(-6, 4), size = gen.range(1, max_size);
  return {lo, lo + size - 1};
}

}  // namespace onegrad::testing
