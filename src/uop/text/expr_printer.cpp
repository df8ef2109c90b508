// print_expr: index expressions as Python text (grammar in expr_text.h), with Python precedence
// deciding where parentheses go.
#include "uop/errors.h"
#include "uop/text/expr_text.h"

namespace onegrad {

namespace {

// Python precedence, loosest first.
enum Prec : int { TERNARY = 1, COMPARE, OR, XOR, AND, SHIFT, SUM, TERM, UNARY, ATOM };

struct Printed {
  std::string text;
  int prec;
};

bool is_const_int(const UOpRef& u, i128 v) {
  return u->is_const() && !u->const_value().is_float() && !u->dtype.is_bool() && u->const_value().as_int() == v;
}
bool is_true(const UOpRef& u) { return u->is_const() && u->dtype.is_bool() && u->const_value().truthy(); }

// The x of MUL(x, -1), or of a negative int CONST -x; else null.
UOpRef negated(const UOpRef& u) {
  if (u->op == Ops::MUL && is_const_int(u->src[1], -1)) return u->src[0];
  if (u->is_const() && u->dtype.is_int() && u->const_value().is_int() && u->const_value().as_int() < 0)
    return UOp::const_int(u->dtype, -u->const_value().as_int());
  return nullptr;
}

Printed print(const UOpRef& u);
std::string as_min(const UOpRef& u);

std::string wrap(const UOpRef& u, int min_prec) {
  Printed p = print(u);
  return p.prec >= min_prec ? p.text : "(" + p.text + ")";
}

Printed binary(const UOpRef& a, const char* op, const UOpRef& b, int prec) {
  // left-associative: the left operand may share the precedence, the right one must bind tighter
  return {wrap(a, prec) + " " + op + " " + wrap(b, prec + 1), prec};
}

Printed compare(const UOpRef& a, const char* op, const UOpRef& b) {
  // comparisons chain in Python, so neither operand may be a bare comparison
  return {wrap(a, COMPARE + 1) + " " + op + " " + wrap(b, COMPARE + 1), COMPARE};
}

// -max(-a, -b) is min(a, b): returns "min(a, b)", or "" when u is not of that form.
std::string as_min(const UOpRef& u) {
  if (u->op != Ops::MUL || !is_const_int(u->src[1], -1) || u->src[0]->op != Ops::MAX) return "";
  UOpRef a = negated(u->src[0]->src[0]), b = negated(u->src[0]->src[1]);
  if (!a || !b) return "";
  return "min(" + print(a).text + ", " + print(b).text + ")";
}

Printed print(const UOpRef& u) {
  const auto& s = u->src;
  switch (u->op) {
    case Ops::CONST: {
      if (u->dtype.is_bool()) return {u->const_value().truthy() ? "True" : "False", ATOM};
      if (u->const_value().is_float()) throw Error("print_expr: float constant " + u->const_value().str() + " in index math");
      i128 v = u->const_value().as_int();
      return {i128_to_string(v), v < 0 ? UNARY : ATOM};
    }
    case Ops::PARAM: {
      const ParamArg& p = u->arg.get<ParamArg>();
      if (p.name.empty()) return {"param" + std::to_string(p.slot), ATOM};
      return {p.name, ATOM};
    }
    case Ops::RANGE: return {"r" + std::to_string(u->arg.get<RangeArg>().id), ATOM};  // a loop variable
    case Ops::SPECIAL: return {u->arg.get<std::string>(), ATOM};                       // gidx0, lidx1
    case Ops::MUL: {
      if (std::string m = as_min(u); !m.empty()) return {m, ATOM};
      if (u->op == Ops::MUL && is_const_int(s[1], -1)) return {"-" + wrap(s[0], UNARY), UNARY};
      return binary(s[0], "*", s[1], TERM);
    }
    case Ops::ADD: {
      if (std::string m = as_min(s[1]); !m.empty()) return {wrap(s[0], SUM) + " + " + m, SUM};
      if (UOpRef b = negated(s[1])) return binary(s[0], "-", b, SUM);
      return binary(s[0], "+", s[1], SUM);
    }
    case Ops::IDIV: return binary(s[0], "//", s[1], TERM);
    case Ops::MOD: return binary(s[0], "%", s[1], TERM);
    case Ops::MAX: return {"max(" + print(s[0]).text + ", " + print(s[1]).text + ")", ATOM};
    case Ops::CMPLT: return compare(s[0], "<", s[1]);
    case Ops::CMPNE:
      if (is_true(s[1]) && s[0]->op == Ops::CMPNE) return compare(s[0]->src[0], "==", s[0]->src[1]);
      if (is_true(s[1]) && s[0]->op == Ops::CMPLT) return compare(s[0]->src[0], ">=", s[0]->src[1]);
      return compare(s[0], "!=", s[1]);
    case Ops::WHERE:
      return {wrap(s[1], TERNARY + 1) + " if " + wrap(s[0], TERNARY + 1) + " else " + wrap(s[2], TERNARY), TERNARY};
    case Ops::AND: return binary(s[0], "&", s[1], AND);
    case Ops::OR: return binary(s[0], "|", s[1], OR);
    case Ops::XOR: return binary(s[0], "^", s[1], XOR);
    case Ops::SHL: return binary(s[0], "<<", s[1], SHIFT);
    case Ops::SHR: return binary(s[0], ">>", s[1], SHIFT);
    case Ops::CAST:
      // Python's bool is an int already; other casts do not occur in index math
      if (s[0]->dtype.is_bool() && u->dtype.is_int()) return print(s[0]);
      break;
    default:
      break;
  }
  throw Error("print_expr: " + std::string(op_name(u->op)) + " (" + u->dtype.name() + ") has no Python spelling");
}

}  // namespace

std::string print_expr(const UOpRef& expr) { return print(expr).text; }

}  // namespace onegrad
