// The simplifier's fuzzer: random integer expression trees over 2-3 bounded variables (negative
// ranges included), simplified, then the original and the simplified form evaluated on EVERY
// assignment of the variables with an evaluator written here from the spec's formulas (Python
// floor division and modulo), independent of exec_alu and of the rules. Assignments where the
// original divides by zero are skipped; the simplified form must not divide by zero anywhere the
// original does not. Fixed seed; ONEGRAD_FUZZ_COUNT / ONEGRAD_FUZZ_SEED override the defaults.
#include <gtest/gtest.h>

#include "test_env.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_map>

#include "uop/text/expr_text.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "symbolic/random_expr.h"

using namespace onegrad;
using onegrad::testing::RandomExpr;

namespace {

using testing_env::env_or;

// ---- the evaluator ---------------------------------------------------------------------------

i128 py_floordiv(i128 a, i128 b) {  // Python's a // b
  i128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Two's complement wrap of an int8 value; index values do not wrap.
i128 wrap8(i128 v) {
  i128 m = ((v % 256) + 256) % 256;
  return m >= 128 ? m - 256 : m;
}

// An expression flattened into instructions, sources before users. Integer results wrap to int8
// when the instruction's dtype is int8.
class Program {
 public:
  Program(const UOpRef& root, const std::vector<UOpRef>& vars) {
    std::unordered_map<const UOp*, int> slot;
    for (const UOp* u : root->toposort()) {
      Instr in{u->op, {}, 0, -1, u->dtype == dtypes::int8};
      for (const UOpRef& s : u->src) in.src.push_back(slot.at(s.get()));
      if (u->op == Ops::CONST) in.value = u->const_value().as_int();
      if (u->op == Ops::PARAM) {
        for (size_t i = 0; i < vars.size(); i++)
          if (vars[i].get() == u) in.var = int(i);
        if (in.var < 0) unsupported = "a PARAM that is not one of the variables";
      }
      if (!supported(u->op)) unsupported = std::string(op_name(u->op));
      slot[u] = int(code_.size());
      code_.push_back(std::move(in));
    }
    regs_.resize(code_.size());
  }

  size_t size() const { return code_.size(); }
  std::string unsupported;

  // The value under `env`; nullopt when some IDIV/MOD divides by zero.
  std::optional<i128> run(const std::vector<i128>& env) {
    for (size_t i = 0; i < code_.size(); i++) {
      const Instr& in = code_[i];
      auto s = [&](int k) { return regs_[in.src[k]]; };
      i128 v = 0;
      switch (in.op) {
        case Ops::CONST: v = in.value; break;
        case Ops::PARAM: v = env[in.var]; break;
        case Ops::ADD: v = s(0) + s(1); break;
        case Ops::MUL: v = s(0) * s(1); break;
        case Ops::MAX: v = std::max(s(0), s(1)); break;
        case Ops::IDIV:
          if (s(1) == 0) return std::nullopt;
          v = py_floordiv(s(0), s(1));
          break;
        case Ops::MOD:
          if (s(1) == 0) return std::nullopt;
          v = s(0) - py_floordiv(s(0), s(1)) * s(1);
          break;
        case Ops::CMPLT: v = s(0) < s(1); break;
        case Ops::CMPNE: v = s(0) != s(1); break;
        case Ops::AND: v = s(0) & s(1); break;
        case Ops::OR: v = s(0) | s(1); break;
        case Ops::XOR: v = s(0) ^ s(1); break;
        case Ops::SUB: v = s(0) - s(1); break;
        case Ops::NEG: v = -s(0); break;
        case Ops::CMPGT: v = s(0) > s(1); break;
        case Ops::CMPGE: v = s(0) >= s(1); break;
        case Ops::CMPLE: v = s(0) <= s(1); break;
        case Ops::CMPEQ: v = s(0) == s(1); break;
        case Ops::NOT: v = s(0) != 1; break;
        case Ops::WHERE: v = s(0) != 0 ? s(1) : s(2); break;
        default: return std::nullopt;
      }
      regs_[i] = in.wrap8 ? wrap8(v) : v;
    }
    return regs_.back();
  }

 private:
  static bool supported(Ops op) {
    switch (op) {
      case Ops::CONST: case Ops::PARAM: case Ops::ADD: case Ops::MUL: case Ops::MAX: case Ops::IDIV: case Ops::MOD:
      case Ops::CMPLT: case Ops::CMPNE: case Ops::AND: case Ops::OR: case Ops::XOR: case Ops::WHERE:
      case Ops::SUB: case Ops::NEG: case Ops::CMPGT: case Ops::CMPGE: case Ops::CMPLE: case Ops::CMPEQ: case Ops::NOT:
        return true;
      default:
        return false;
    }
  }
  struct Instr {
    Ops op;
    std::vector<int> src;
    i128 value;
    int var;
    bool wrap8;
  };
  std::vector<Instr> code_;
  std::vector<i128> regs_;
};

std::string str(i128 v) { return i128_to_string(v); }

// Every assignment of the variables, in odometer order.
template <class F>
void for_each_assignment(const std::vector<UOpRef>& vars, F&& f) {
  std::vector<i128> env;
  for (const UOpRef& v : vars) env.push_back(v->vmin().as_int());
  while (true) {
    f(env);
    size_t i = 0;
    for (; i < vars.size(); i++) {
      if (env[i] < vars[i]->vmax().as_int()) {
        env[i]++;
        break;
      }
      env[i] = vars[i]->vmin().as_int();
    }
    if (i == vars.size()) return;
  }
}

std::string assignment_text(const std::vector<UOpRef>& vars, const std::vector<i128>& env) {
  std::string s;
  for (size_t i = 0; i < vars.size(); i++)
    s += (i ? ", " : "") + print_expr(vars[i]) + "=" + str(env[i]) + " in [" + str(vars[i]->vmin().as_int()) + ", " +
         str(vars[i]->vmax().as_int()) + "]";
  return s;
}

}  // namespace

namespace {

void fuzz(DType dtype, int64_t count, uint64_t seed) {
  RandomExpr gen(seed, dtype);  // the default config: the fuzzer's tiny domains
  auto start = std::chrono::steady_clock::now();
  std::map<std::string, int64_t> fired;
  int64_t mismatches = 0, nodes_before = 0, nodes_after = 0, to_const = 0, assignments = 0, not_fixed = 0;
  for (int64_t i = 0; i < count && mismatches < 5; i++) {
    UOpRef e = gen.expression();
    UOpRef s;
    RewriteTrace trace;
    try {
      s = simplify(e, i % 8 == 0 ? &trace : nullptr);  // a sample of the rewrites, for rule coverage
      for (const TraceEntry& t : trace.entries) fired[t.rule]++;
    } catch (const Error& err) {
      ADD_FAILURE() << "simplify threw on " << print_expr(e) << ": " << err.what();
      mismatches++;
      continue;
    }
    if (simplify(s) != s) {  // the result is a fixed point of the rules
      if (not_fixed++ < 3) ADD_FAILURE() << "not a fixed point: " << print_expr(e) << " -> " << print_expr(s) << " -> " << print_expr(simplify(s));
    }
    Program orig(e, gen.vars()), simp(s, gen.vars());
    ASSERT_TRUE(simp.unsupported.empty()) << "simplified form uses " << simp.unsupported << ": " << print_expr(s);
    nodes_before += int64_t(orig.size());
    nodes_after += int64_t(simp.size());
    to_const += s->is_const();
    for_each_assignment(gen.vars(), [&](const std::vector<i128>& env) {
      auto want = orig.run(env);
      if (!want) return;  // the original divides by zero here: no value to keep
      assignments++;
      auto got = simp.run(env);
      if (got == want) return;
      if (mismatches++ < 5)
        ADD_FAILURE() << "mismatch #" << i << "\n  expression: " << print_expr(e) << "\n  simplified: " << print_expr(s)
                      << "\n  assignment: " << assignment_text(gen.vars(), env) << "\n  original " << str(*want)
                      << ", simplified " << (got ? str(*got) : "divides by zero");
    });
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz %s: %lld expressions, %lld assignments, nodes %lld -> %lld (%.1f%%), %lld folded to a constant, %.1f s\n",
              dtype.name().c_str(), (long long)count, (long long)assignments, (long long)nodes_before, (long long)nodes_after,
              100.0 * double(nodes_after) / double(nodes_before), (long long)to_const, secs);
  // Rule coverage: on index every rule must fire somewhere in the sample, except those that an
  // earlier fold always pre-empts (x*0 and x%1 are single-valued intervals; bool AND/OR/XOR of a
  // known operand are decided by min_max) or that random trees almost never build (x&x).
  static const std::set<std::string> preempted = {"x*0", "x%1", "x%-1", "x!=false", "x&x", "x|x",
                                                  "x^x", "x&false", "x|true", "x&0", "x|0"};
  std::string never, uncovered;
  for (const Rule& r : symbolic_rules().rules()) {
    if (fired.count(r.name)) continue;
    never += " " + r.name;
    if (!preempted.count(r.name)) uncovered += " " + r.name;
  }
  if (!never.empty()) std::printf("fuzz %s: rules that never fired:%s\n", dtype.name().c_str(), never.c_str());
  if (dtype.is_index() && count >= 100000) {
    EXPECT_EQ(uncovered, "") << "rules the fuzzer does not exercise";
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(not_fixed, 0);
  // The simplifier must do work, not only stay correct: a do-nothing simplifier keeps every node.
  EXPECT_LT(double(nodes_after), 0.75 * double(nodes_before));
  EXPECT_GT(to_const, count / 50);
}

}  // namespace

TEST(SymbolicFuzz, RandomExpressionsAgreeOnEveryAssignment) {
  fuzz(dtypes::index, env_or("ONEGRAD_FUZZ_COUNT", 100000), uint64_t(env_or("ONEGRAD_FUZZ_SEED", 20240611)));
}

// int8 wraps around: only the rules that hold modulo 2^8 may fire (ring identities, intervals that
// already account for wrapping); the structural ones stay on index.
TEST(SymbolicFuzz, Int8ExpressionsAgreeWithWraparound) {
  fuzz(dtypes::int8, env_or("ONEGRAD_FUZZ_COUNT", 100000) / 5, uint64_t(env_or("ONEGRAD_FUZZ_SEED", 20240611)) + 1);
}
