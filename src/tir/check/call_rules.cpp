#include "tir/check/call_rules.h"

#include <string_view>

namespace onegrad::tir {

namespace {

struct CallRule {
  std::string_view op;
  void (*check)(const CallNode& c, std::vector<std::string>& problems);
};

std::string name(DataType t) { return t.name(); }

void arity(const CallNode& c, size_t n, std::vector<std::string>& problems) {
  if (c.args.size() != n)
    problems.push_back("takes " + std::to_string(n) + " arguments, got " + std::to_string(c.args.size()));
}

// TVM: type_check_int_or_bool_args / type_check_integer_args, then both sides of one type.
void bit_operands(const CallNode& c, bool bool_too, std::vector<std::string>& problems) {
  for (const PrimExpr& a : c.args)
    if (!a->dtype.is_integer() || (a->dtype.is_bool() && !bool_too))
      return problems.push_back("needs " + std::string(bool_too ? "integer or bool" : "integer") + " operands, not " + name(a->dtype));
  for (const PrimExpr& a : c.args)
    if (a->dtype != c.dtype) return problems.push_back("an operand is " + name(a->dtype) + ", the result " + name(c.dtype));
}

void bitwise(const CallNode& c, std::vector<std::string>& problems) {
  arity(c, c.op == "tir.bitwise_not" ? 1 : 2, problems);
  if (problems.empty()) bit_operands(c, true, problems);
}

void shift(const CallNode& c, std::vector<std::string>& problems) {
  arity(c, 2, problems);
  if (problems.empty()) bit_operands(c, false, problems);
}

void reinterpret(const CallNode& c, std::vector<std::string>& problems) {
  arity(c, 1, problems);
  if (!problems.empty()) return;
  DataType from = c.args[0]->dtype, to = c.dtype;
  if (from.is_bool() || to.is_bool()) return problems.push_back("of " + name(from) + " as " + name(to) + ": bools have no bit layout");
  if (int64_t{from.bits} * from.lanes != int64_t{to.bits} * to.lanes)
    problems.push_back("of " + name(from) + " as " + name(to) + ": the sizes differ (" + std::to_string(from.bits * from.lanes) +
                       " and " + std::to_string(to.bits * to.lanes) + " bits)");
}

void likely(const CallNode& c, std::vector<std::string>& problems) {
  arity(c, 1, problems);
  if (problems.empty() && c.args[0]->dtype != c.dtype)
    problems.push_back("of a " + name(c.args[0]->dtype) + " cannot be a " + name(c.dtype));
}

void assume(const CallNode& c, std::vector<std::string>& problems) {
  arity(c, 1, problems);
  if (problems.empty() && !(c.args[0]->dtype.is_bool() && c.args[0]->dtype.is_scalar()))
    problems.push_back("needs a bool scalar condition, not " + name(c.args[0]->dtype));
}

const CallRule kRules[] = {
    {"tir.bitwise_and", bitwise}, {"tir.bitwise_or", bitwise},  {"tir.bitwise_xor", bitwise},
    {"tir.bitwise_not", bitwise}, {"tir.shift_left", shift},    {"tir.shift_right", shift},
    {"tir.reinterpret", reinterpret}, {"tir.likely", likely}, {"tir.assume", assume},
};

}  // namespace

void check_call(const CallNode& c, std::vector<TypeIssue>& issues) {
  if (c.calls_global) return;
  for (const CallRule& r : kRules) {
    if (r.op != c.op) continue;
    std::vector<std::string> problems;
    r.check(c, problems);
    for (const std::string& p : problems) issues.push_back({"Call", c.op + " " + p, c.loc.line, c.loc.column, ""});
  }
}

}  // namespace onegrad::tir
