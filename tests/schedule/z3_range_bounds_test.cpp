// z3 proofs of RangeSolver::bounds (schedule/range_bounds.h) on wide domains, where the brute-force
// test of fold_reduce_test.cpp cannot go: for random comparisons linear in a range r (coefficients
// up to ±1000, variables spanning ±10^6), z3 must show that within 0 <= r < N the condition holds
// exactly when lo <= r < hi (and r == pin when a pin is given), for every value of the variables.
// That is the lemma reduce_count and reduce_onehot_load rest on. Floor division is written from the
// spec's formula (z3's div is Euclidean: a // b = a div b for b > 0).
#include <gtest/gtest.h>

#include <z3++.h>

#include <random>
#include <stdexcept>
#include <unordered_map>

#include "schedule/range_bounds.h"
#include "uop/text/text.h"

namespace onegrad::testing {
namespace {

// The index/bool math of the conditions and bounds as z3 terms; variables and the range by node.
class ToZ3 {
 public:
  explicit ToZ3(z3::context& c) : c_(c) {}

  z3::expr operator()(const UOpRef& root) {
    for (const UOp* u : root->toposort()) {
      if (memo_.count(u)) continue;
      memo_.emplace(u, node(u));
    }
    return memo_.at(root.get());
  }

  z3::expr var(const UOp* u) {
    auto it = vars_.find(u);
    if (it == vars_.end()) it = vars_.emplace(u, c_.int_const(("v" + std::to_string(vars_.size())).c_str())).first;
    return it->second;
  }

 private:
  z3::expr num(i128 v) { return c_.int_val(int64_t(v)); }
  z3::expr as_int(const z3::expr& e) { return e.is_bool() ? z3::ite(e, num(1), num(0)) : e; }

  z3::expr node(const UOp* u) {
    auto s = [&](size_t i) { return memo_.at(u->src[i].get()); };
    switch (u->op) {
      case Ops::CONST:
        return u->dtype.is_bool() ? c_.bool_val(u->const_value().truthy()) : num(u->const_value().as_int());
      case Ops::PARAM:
      case Ops::RANGE: return var(u);
      case Ops::CAST: return s(0);  // only index/int casts that lift proved exact reach here
      case Ops::ADD: return s(0) + s(1);
      case Ops::MUL: return s(0) * s(1);
      case Ops::MAX: return u->dtype.is_bool() ? s(0) || s(1) : z3::ite(s(0) >= s(1), s(0), s(1));
      case Ops::IDIV:
        if (!u->src[1]->is_const()) break;
        return u->src[1]->const_value().as_int() > 0 ? s(0) / s(1) : (-s(0)) / (-s(1));
      case Ops::CMPLT: return as_int(s(0)) < as_int(s(1));
      case Ops::CMPNE:
        return u->src[0]->dtype.is_bool() ? s(0) != s(1) : as_int(s(0)) != as_int(s(1));
      case Ops::CMPGT: return s(0) > s(1);
      case Ops::CMPGE: return s(0) >= s(1);
      case Ops::CMPLE: return s(0) <= s(1);
      case Ops::CMPEQ: return s(0) == s(1);
      case Ops::AND: return s(0) && s(1);
      default: break;
    }
    throw std::runtime_error("not modelled: " + u->brief());
  }

  z3::context& c_;
  std::unordered_map<const UOp*, z3::expr> memo_, vars_;
};

TEST(RangeBoundsZ3, LinearConditionsAreExactlyTheirIntervals) {
  z3::context c;
  std::mt19937_64 g(17);
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g); };
  int proved = 0, pins = 0;
  for (int n = 0; n < 400; n++) {
    int64_t N = pick(1, 1000000);
    UOpRef r = UOp::range(N, 1, AxisType::REDUCE);
    UOpRef a = UOp::variable("a", -1000000, 1000000), b = UOp::variable("b", 0, 1000000);
    auto coeff = [&] { return pick(0, 2) == 0 ? pick(-1, 1) : pick(-1000, 1000); };
    UOpRef lhs = r * coeff() + a * coeff() + pick(-1000000, 1000000);
    UOpRef rhs = b * coeff() + pick(-1000, 1000);
    UOpRef cond;
    switch (pick(0, 4)) {
      case 0: cond = lhs < rhs; break;
      case 1: cond = UOp::alu(Ops::CMPGE, {lhs, rhs}); break;
      case 2: cond = UOp::alu(Ops::CMPLE, {rhs, lhs}); break;
      case 3: cond = eq(lhs, rhs); break;
      default: cond = ne(lhs < rhs, UOp::const_bool(true)); break;
    }
    RangeSolver s(r);
    auto bounds = s.bounds(cond);
    if (!bounds) continue;  // r's coefficient came out 0
    ToZ3 z(c);
    z3::expr rv = z.var(r.get()), av = z.var(a.get()), bv = z.var(b.get());
    z3::expr inside = rv >= 0 && rv < c.int_val(N) && av >= -1000000 && av <= 1000000 && bv >= 0 && bv <= 1000000;
    z3::expr interval = c.bool_val(true);
    if (bounds->lo) interval = interval && rv >= z(s.finish(bounds->lo));
    if (bounds->hi) interval = interval && rv < z(s.finish(bounds->hi));
    z3::solver solver(c);
    solver.add(inside && (z(cond) != interval));
    ASSERT_EQ(solver.check(), z3::unsat) << print_graph(cond) << "model: " << solver.get_model();
    if (bounds->pin) {
      z3::solver pin(c);
      pin.add(inside && (z(cond) != (rv == z(s.finish(bounds->pin)))));
      ASSERT_EQ(pin.check(), z3::unsat) << print_graph(cond);
      pins++;
    }
    proved++;
  }
  EXPECT_GT(proved, 300);
  EXPECT_GT(pins, 5);
}

}  // namespace
}  // namespace onegrad::testing
