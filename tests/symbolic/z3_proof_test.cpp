// z3 proofs that the simplifier is correct on wide variable domains, where the exhaustive fuzzer
// (tests/symbolic/fuzz_test.cpp, every assignment of tiny domains) cannot go: bounds of size up to
// 10^6 around offsets down to -10^6, and some of ±2^40, with large divisors and constants too.
//
// An expression is translated to z3 integer/bool terms with the spec's floor semantics (decision 2)
// written here from the formulas, independent of exec_alu and of the rules. For each expression e
// and its simplified form s, z3 is asked for an assignment with
//   (variables in bounds) ∧ (no IDIV/MOD in e divides by zero) ∧ ¬(no IDIV/MOD in s divides by zero ∧ e == s)
// Unsat is a proof for every assignment; sat is a counterexample (a failure, printed with z3's
// model); unknown is a give-up (z3's resource limit, mostly nonlinear queries), counted, and a
// failure past 2%. Division by zero is judged eagerly, as the fuzzer's evaluator does: a divisor
// under an untaken WHERE branch counts.
//
// ONEGRAD_Z3_COUNT / ONEGRAD_Z3_SEED / ONEGRAD_Z3_RLIMIT run it longer, elsewhere or harder;
// ONEGRAD_Z3_TRACE prints every query with its time, ONEGRAD_Z3_DUMP each query as SMT-LIB.
#include <gtest/gtest.h>

#include "test_env.h"

#include <z3++.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "symbolic/random_expr.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "uop/text/expr_text.h"
#include "uop/text/text.h"

using namespace onegrad;
using onegrad::testing::RandomExpr;
using onegrad::testing::RandomExprConfig;
using onegrad::testing::VarDomain;

namespace {

using testing_env::env_or;

std::string str(i128 v) { return i128_to_string(v); }

// print_expr, or the graph text for what has no Python spelling (the generator's NEG and SUB nodes).
std::string text(const UOpRef& e) {
  try {
    return print_expr(e);
  } catch (const Error&) {
    return print_graph(e);
  }
}

// ---- UOp -> z3 -------------------------------------------------------------------------------

// Translates the index/bool math of a graph into z3 terms. Variables (PARAMs) become z3 constants
// named as they print, shared across every graph translated by one instance, so an original and its
// simplified form talk about the same unknowns. `defined(e)` is "no IDIV/MOD in e divides by zero".
class Z3Translator {
 public:
  explicit Z3Translator(z3::context& c) : c_(c) {}

  struct Term {
    z3::expr value;    // an Int for index, a Bool for bool
    z3::expr defined;  // every divisor in the graph is non-zero
  };

  // Throws std::runtime_error on an op or dtype the translation does not model, so a simplifier
  // that starts producing new ops fails loudly instead of being proved on a wrong model.
  Term translate(const UOpRef& root) {
    std::unordered_map<const UOp*, z3::expr> memo;
    z3::expr defined = c_.bool_val(true);
    for (const UOp* u : root->toposort()) {
      if (!u->dtype.is_bool() && !u->dtype.is_index())
        throw std::runtime_error("dtype " + u->dtype.name() + " is not modelled: " + print_expr(u->ref()));
      std::vector<z3::expr> s;
      for (const UOpRef& x : u->src) s.push_back(memo.at(x.get()));
      z3::expr v = node(u, s, defined);
      memo.emplace(u, v);
    }
    return {memo.at(root.get()), defined.simplify()};
  }

  // Bounds of every variable met so far.
  z3::expr bounds() const {
    z3::expr b = c_.bool_val(true);
    for (const auto& [u, v] : vars_) b = b && v >= num(u->vmin().as_int()) && v <= num(u->vmax().as_int());
    return b;
  }

  // A value of `m` as text: "-7" (z3 itself prints "(- 7)").
  static std::string value(const z3::model& m, const z3::expr& e) {
    z3::expr v = m.eval(e, true);
    return v.is_numeral() ? v.get_decimal_string(0) : v.to_string();
  }

  // "a=3 in [0, 10], b=-7 in [-10, 5]" under `m`.
  std::string assignment(const z3::model& m) const {
    std::string out;
    for (const auto& [u, v] : vars_) {
      out += (out.empty() ? "" : ", ") + print_expr(u->ref()) + "=" + value(m, v) + " in [" +
             str(u->vmin().as_int()) + ", " + str(u->vmax().as_int()) + "]";
    }
    return out;
  }

 private:
  z3::expr num(i128 v) const { return c_.int_val(str(v).c_str()); }
  z3::expr as_int(const z3::expr& e) const { return e.is_bool() ? z3::ite(e, c_.int_val(1), c_.int_val(0)) : e; }
  z3::expr as_bool(const z3::expr& e) const { return e.is_bool() ? e : e != c_.int_val(0); }

  // Floor division and modulo. z3's div/mod are Euclidean (0 <= a mod b < |b|), which is floor
  // division only for b > 0; for b < 0, floor(a/b) = floor((-a)/(-b)). A constant divisor picks its
  // branch here, which keeps the common case linear for z3.
  z3::expr fdiv(const z3::expr& a, const z3::expr& b, const UOp* divisor) const {
    if (divisor->is_const()) return divisor->const_value().as_int() > 0 ? a / b : (-a) / (-b);
    return z3::ite(b > 0, a / b, (-a) / (-b));
  }
  z3::expr fmod(const z3::expr& a, const z3::expr& b, const UOp* divisor) const {
    if (divisor->is_const() && divisor->const_value().as_int() > 0) return z3::mod(a, b);
    return a - b * fdiv(a, b, divisor);
  }

  z3::expr variable(const UOp* u) {
    for (const auto& [p, v] : vars_)
      if (p == u) return v;
    std::string name = print_expr(u->ref());
    for (const auto& [p, v] : vars_)
      if (print_expr(p->ref()) == name) name += "'" + std::to_string(vars_.size());  // same name, other bounds
    z3::expr v = u->dtype.is_bool() ? c_.bool_const(name.c_str()) : c_.int_const(name.c_str());
    vars_.emplace_back(u, v);
    return v;
  }

  z3::expr node(const UOp* u, const std::vector<z3::expr>& s, z3::expr& defined) {
    bool is_bool = u->dtype.is_bool();
    auto i = [&](int k) { return as_int(s[size_t(k)]); };
    auto b = [&](int k) { return as_bool(s[size_t(k)]); };
    switch (u->op) {
      case Ops::CONST:
        return is_bool ? c_.bool_val(u->const_value().as_int() != 0) : num(u->const_value().as_int());
      case Ops::PARAM: return variable(u);
      case Ops::ADD: if (!is_bool) return i(0) + i(1); break;
      case Ops::SUB: if (!is_bool) return i(0) - i(1); break;
      case Ops::MUL: if (!is_bool) return i(0) * i(1); break;
      case Ops::NEG: if (!is_bool) return -i(0); break;
      case Ops::MAX: return is_bool ? b(0) || b(1) : z3::ite(i(0) >= i(1), i(0), i(1));
      case Ops::IDIV:
      case Ops::MOD:
        if (is_bool) break;
        defined = defined && i(1) != 0;
        return u->op == Ops::IDIV ? fdiv(i(0), i(1), u->src[1].get()) : fmod(i(0), i(1), u->src[1].get());
      case Ops::CMPLT: return i(0) < i(1);
      case Ops::CMPNE: return i(0) != i(1);
      case Ops::CMPGT: return i(0) > i(1);
      case Ops::CMPGE: return i(0) >= i(1);
      case Ops::CMPLE: return i(0) <= i(1);
      case Ops::CMPEQ: return i(0) == i(1);
      case Ops::NOT: return i(0) != 1;  // spec: NOT(a) = (a != 1)
      case Ops::AND: if (is_bool) return b(0) && b(1); break;  // bitwise ops on integers: not modelled
      case Ops::OR: if (is_bool) return b(0) || b(1); break;
      case Ops::XOR: if (is_bool) return b(0) != b(1); break;
      case Ops::WHERE: return is_bool ? z3::ite(b(0), b(1), b(2)) : z3::ite(b(0), i(1), i(2));
      case Ops::CAST: return is_bool ? b(0) : i(0);
      default: break;
    }
    throw std::runtime_error(std::string(op_name(u->op)) + " on " + u->dtype.name() + " is not modelled: " +
                             print_expr(u->ref()));
  }

  z3::context& c_;
  std::vector<std::pair<const UOp*, z3::expr>> vars_;  // in order of first use, for printing
};

// ---- the proof helper ------------------------------------------------------------------------

struct Proof {
  enum Kind { Proved, Counterexample, Unknown } kind;
  std::string detail;  // the counterexample, or why z3 gave up
};

// Proves `simplified` equal to `original` wherever the variables are in bounds and `original`
// divides by no zero, and that `simplified` then divides by no zero either.
//
// The effort is bounded by z3's resource count (`rlimit`, deterministic for one z3 version, so a
// loaded CI machine gives up on the same queries as an idle one); a 1 s wall-clock timeout stays
// as a safety net for the few queries that run past their resource count unchecked.
Proof prove_equal(const UOpRef& original, const UOpRef& simplified, unsigned rlimit = 1000000) {
  // One context for every query: creating one costs milliseconds, more than most proofs here.
  // Each query gets its own solver, so nothing asserted for one expression leaks into the next.
  static z3::context c;
  Z3Translator tr(c);
  Z3Translator::Term e = tr.translate(original), s = tr.translate(simplified);
  z3::expr ev = e.value, sv = s.value;
  if (ev.is_bool() != sv.is_bool()) {  // a dtype change would be its own bug: compare as integers
    ev = ev.is_bool() ? z3::ite(ev, c.int_val(1), c.int_val(0)) : ev;
    sv = sv.is_bool() ? z3::ite(sv, c.int_val(1), c.int_val(0)) : sv;
  }
  z3::solver solver(c, z3::solver::simple());
  z3::params p(c);
  p.set("rlimit", rlimit);
  p.set("timeout", 1000u);
  solver.set(p);
  solver.add(tr.bounds());
  solver.add(e.defined);
  solver.add(!(s.defined && ev == sv));
  if (std::getenv("ONEGRAD_Z3_DUMP")) {
    std::printf("%s\n", solver.to_smt2().c_str());
    std::fflush(stdout);
  }
  switch (solver.check()) {
    case z3::unsat: return {Proof::Proved, ""};
    case z3::unknown: return {Proof::Unknown, solver.reason_unknown()};
    case z3::sat: break;
  }
  z3::model m = solver.get_model();
  std::string d = tr.assignment(m) + ": original " + Z3Translator::value(m, ev) + ", simplified ";
  d += m.eval(s.defined, true).is_true() ? Z3Translator::value(m, sv) : "divides by zero";
  return {Proof::Counterexample, d};
}

// ---- wide domains ----------------------------------------------------------------------------

// Sizes up to 10^6 at offsets down to -10^6; one variable in four spans ±2^40 or sits at 2^40.
VarDomain wide_domain(RandomExpr& g, int, int) {
  const int64_t huge = int64_t(1) << 40;
  switch (g.pick(8)) {
    case 0: return {-huge, huge};
    case 1: return {huge - g.range(0, 1000000), huge + g.range(0, 1000000)};
    case 2: return {0, g.range(1, 1000000)};  // index-like: non-negative, where most folds apply
    default: {
      int64_t lo = g.range(-1000000, 1000000), size = g.range(1, 1000000);
      return {lo, lo + size - 1};
    }
  }
}

}  // namespace

// The proof helper itself must be able to fail: known-wrong rewrites (truncating division where
// floor is meant, a dropped side condition, a divisor that can be zero) give counterexamples.
TEST(SymbolicZ3, WrongRewritesGiveCounterexamples) {
  UOpRef n = UOp::variable("n", -1000000, 1000000), x = UOp::variable("x", 0, 1000000);
  UOpRef y = UOp::variable("y", 0, 1000000);
  // Truncation: (-7)//2 is -4, not -3. -(-n//2) is the truncating quotient.
  Proof p = prove_equal(idiv(n, UOp::index(2)), -idiv(-n, UOp::index(2)));
  EXPECT_EQ(p.kind, Proof::Counterexample) << p.detail;
  // (x*4+y)//8 -> x//2 needs 0 <= y < 4; with y up to 10^6 it is wrong.
  p = prove_equal(idiv(x * UOp::index(4) + y, UOp::index(8)), idiv(x, UOp::index(2)));
  EXPECT_EQ(p.kind, Proof::Counterexample) << p.detail;
  // (x%12)%5 -> x%5: 5 does not divide 12.
  p = prove_equal((x % UOp::index(12)) % UOp::index(5), x % UOp::index(5));
  EXPECT_EQ(p.kind, Proof::Counterexample) << p.detail;
  // x -> x + n//n: n may be 0 where x is defined.
  p = prove_equal(x, x + idiv(n, n) - UOp::index(1));
  EXPECT_EQ(p.kind, Proof::Counterexample) << p.detail;
  EXPECT_NE(p.detail.find("divides by zero"), std::string::npos) << p.detail;
  // Off by one far from zero, where tiny domains never look: max(x, 999999) vs x when x < 999999.
  p = prove_equal(maximum(x, UOp::index(999999)), x);
  EXPECT_EQ(p.kind, Proof::Counterexample) << p.detail;
  // And the right forms prove.
  EXPECT_EQ(prove_equal(idiv(n, UOp::index(-4)), idiv(-n, UOp::index(4))).kind, Proof::Proved);
  EXPECT_EQ(prove_equal(n % UOp::index(-4), -((-n) % UOp::index(4))).kind, Proof::Proved);
  EXPECT_EQ(prove_equal(idiv(n, n), UOp::index(1)).kind, Proof::Proved);  // where n != 0
}

// The examples of docs/symbolic.md's table, on wide domains: each must still fire (the printed form
// is the documented one) and be proved for every assignment of the wide bounds.
TEST(SymbolicZ3, DocumentedExamplesOnWideDomains) {
  const int64_t M = 1000000, H = int64_t(1) << 40;
  UOpRef x = UOp::variable("x", 0, H), y = UOp::variable("y", 0, 3), n = UOp::variable("n", -H, H);
  UOpRef w = UOp::variable("w", -M, M);
  auto I = [](int64_t v) { return UOp::index(v); };
  struct Case {
    UOpRef e;
    const char* want;
  };
  const Case cases[] = {
      {idiv(y, I(4)), "0"},
      {UOp::alu(Ops::SUB, {x, n}), "-n + x"},
      {UOp::alu(Ops::CMPGE, {n, I(3)}), "2 < n"},
      {x * I(1), "x"},
      {idiv(UOp::variable("p", 1, H), UOp::variable("p", 1, H)), "1"},
      {where(n < I(3), x, x), "x"},
      {maximum(x, I(-1)), "x"},
      {(y + I(8)) % I(4), "y"},
      {n + w, "n + w"},
      {w + n, "n + w"},
      {x * I(2) + x * I(3), "x * 5"},
      {(x + I(3)) * I(4), "x * 4 + 12"},
      {idiv(n * I(4) + y, I(4)), "n"},
      {(n * I(5) + I(6)) % I(4), "(n + 2) % 4"},
      {idiv(n * I(6) + I(4), I(4)), "n * 3 // 2 + 1"},
      {idiv(x * I(4) + y, I(8)), "x // 2"},
      {idiv(idiv(n, I(3)), I(4)), "n // 12"},
      {(n % I(12)) % I(4), "n % 4"},
      {idiv(n, I(-4)), "-n // 4"},
      {n % I(-4), "-(-n % 4)"},
      {(n % I(4)) * I(3) + idiv(n, I(4)) * I(12), "n * 3"},
      {n + I(3) < I(7), "n < 4"},
      {n * I(4) + x * I(8) < I(10), "n + x * 2 < 3"},
      {ne(n * I(2), I(3)), "True"},
      {idiv(n, I(4)) < I(3), "n < 12"},
      {ne(n < I(4), UOp::const_bool(true)), "3 < n"},
  };
  for (const Case& c : cases) {
    UOpRef s = simplify(c.e);
    EXPECT_EQ(text(s), c.want) << text(c.e);
    Proof p = prove_equal(c.e, s);
    EXPECT_EQ(p.kind, Proof::Proved) << text(c.e) << " -> " << text(s) << ": " << p.detail;
  }
  // simplify_given: given x < 4 with x in [0, 2^40], x//4 -> 0 and x%4 -> x, proved under the fact.
  UOpRef valid = x < I(4);
  for (const UOpRef& e : {idiv(x, I(4)), x % I(4)}) {
    UOpRef s = simplify_given(e, valid);
    EXPECT_NE(s, e);
    Proof p = prove_equal(where(valid, e, I(0)), where(valid, s, I(0)));
    EXPECT_EQ(p.kind, Proof::Proved) << text(e) << " -> " << text(s) << ": " << p.detail;
  }
}

// z3 found this one: (a*b)*(a*b) with a, b near 2^40 is about 2^160, past the i128 range of
// interval bounds. Its interval used to be [2^127-1, 2^127-1], which fold_single_value took for a
// constant (and `% 2` folded to 1, though a = b = 2^40 gives 0). Bounds past the i128 range are
// infinite now (const_value.h), and an interval lying wholly past one is unknown.
TEST(SymbolicZ3, SaturatedBoundsAreNotConstants) {
  const int64_t H = int64_t(1) << 40;
  UOpRef a = UOp::variable("a", H, H + 1000000), b = UOp::variable("b", H, H + 1000000);
  UOpRef e = (a * b) * (a * b) % UOp::index(2);
  UOpRef s = simplify(e);
  Proof p = prove_equal(e, s);
  EXPECT_EQ(p.kind, Proof::Proved) << text(e) << " -> " << text(s) << ": " << p.detail;
}

// Random expressions over wide domains, proved equal to their simplified forms.
TEST(SymbolicZ3, RandomExpressionsProvedOnWideDomains) {
  const int64_t count = env_or("ONEGRAD_Z3_COUNT", 2500);
  const uint64_t seed = uint64_t(env_or("ONEGRAD_Z3_SEED", 20240612));
  // ~0.2 s of z3 work per query: nonlinear ones (a product of a variable and a remainder, a
  // modulo by a variable) sometimes need more and are counted as give-ups, not as proofs.
  const unsigned rlimit = unsigned(env_or("ONEGRAD_Z3_RLIMIT", 200000));
  const bool trace = std::getenv("ONEGRAD_Z3_TRACE") != nullptr;
  RandomExprConfig config;
  config.domain = wide_domain;
  config.wide_constants = true;
  RandomExpr gen(seed, dtypes::index, config);
  auto start = std::chrono::steady_clock::now();
  int64_t done = 0, proved = 0, trivial = 0, give_ups = 0, failures = 0;
  double slowest = 0;
  std::string slowest_text;
  for (int64_t i = 0; i < count && failures < 5; i++) {
    UOpRef e = gen.expression();
    done++;
    UOpRef s;
    try {
      s = simplify(e);
    } catch (const Error& err) {
      ADD_FAILURE() << "simplify threw on " << text(e) << ": " << err.what();
      failures++;
      continue;
    }
    if (s == e) {  // nothing to prove; still counted so the rate of real proofs shows
      trivial++;
      continue;
    }
    Proof p{Proof::Unknown, ""};
    if (trace) {  // before the query, so a query that hangs is the last one printed
      std::printf("#%lld %s -> %s\n", (long long)i, text(e).c_str(), text(s).c_str());
      std::fflush(stdout);
    }
    auto t0 = std::chrono::steady_clock::now();
    try {
      p = prove_equal(e, s, rlimit);
    } catch (const std::exception& err) {
      ADD_FAILURE() << "cannot translate #" << i << " " << text(e) << " -> " << text(s) << ": " << err.what();
      failures++;
      continue;
    }
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (took > slowest) {  // printed below: the query to look at when the test gets slow
      slowest = took;
      slowest_text = text(e) + " -> " + text(s);
    }
    if (trace) std::printf("   %.3f s\n", took);
    if (p.kind == Proof::Proved) proved++;
    if (p.kind == Proof::Unknown) give_ups++;
    if (p.kind == Proof::Counterexample) {
      failures++;
      ADD_FAILURE() << "counterexample #" << i << "\n  expression: " << text(e) << "\n  simplified: " << text(s)
                    << "\n  model:      " << p.detail;
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("z3: %lld expressions, %lld proved, %lld unchanged, %lld give-ups (rlimit %u), %lld failures, %.1f s\n",
              (long long)done, (long long)proved, (long long)trivial, (long long)give_ups, rlimit,
              (long long)failures, secs);
  std::printf("z3: slowest query %.2f s: %s\n", slowest, slowest_text.c_str());
  EXPECT_EQ(failures, 0);
  // A give-up proves nothing: past 2% the test has stopped checking what it claims to.
  EXPECT_LE(give_ups, count / 50);
  // The simplifier changes most random expressions; if it stops, there is nothing proved here.
  EXPECT_GT(proved, count / 2);
}
