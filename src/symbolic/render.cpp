#include "symbolic/render.h"

namespace onegrad::symbolic {

namespace {

// Python's binding strengths: higher binds tighter.
enum Prec { kCompare = 1, kOr = 2, kXor = 3, kAnd = 4, kAdd = 5, kMul = 6, kUnary = 7, kAtom = 8 };

struct Text {
  std::string s;
  int prec;
};

std::string const_text(const UOp& u) {
  const ConstValue& v = u.const_value();
  if (u.dtype.is_bool()) return v.truthy() ? "true" : "false";
  return v.str();
}

bool is_neg_one(const UOpRef& u) { return u->is_const() && u->const_value().is_int() && u->const_value().as_int() == -1; }

class Renderer {
 public:
  Text go(const UOp& u, int depth) {
    if (depth > 200) return {"...", kAtom};
    auto sub = [&](size_t i) { return go(*u.src[i], depth + 1); };
    auto wrap = [](const Text& t, int min_prec) { return t.prec >= min_prec ? t.s : "(" + t.s + ")"; };
    auto binary = [&](const char* op, int prec) {
      return Text{wrap(sub(0), prec) + op + wrap(sub(1), prec + 1), prec};
    };
    auto call = [&](std::string name) {
      std::string s = name + "(";
      for (size_t i = 0; i < u.src.size(); i++) s += (i ? ", " : "") + sub(i).s;
      return Text{s + ")", kAtom};
    };
    switch (u.op) {
      case Ops::CONST: {
        std::string s = const_text(u);
        return {s, s[0] == '-' ? kUnary : kAtom};
      }
      case Ops::PARAM: {
        const auto* p = u.arg.get_if<ParamArg>();
        if (p && !p->name.empty()) return {p->name, kAtom};
        return {"param" + std::to_string(p ? p->slot : -1), kAtom};
      }
      case Ops::RANGE:
        if (const auto* r = u.arg.get_if<RangeArg>()) return {"r" + std::to_string(r->id), kAtom};
        break;
      case Ops::ADD: {
        // a + b*-1 reads a - b, and a + -3 reads a - 3
        const UOpRef& b = u.src[1];
        if (b->op == Ops::MUL && is_neg_one(b->src[1]))
          return {wrap(sub(0), kAdd) + " - " + wrap(go(*b->src[0], depth + 1), kAdd + 1), kAdd};
        if (b->is_const() && b->const_value().is_int() && b->const_value().as_int() < 0 && !u.dtype.is_unsigned())
          return {wrap(sub(0), kAdd) + " - " + i128_to_string(-b->const_value().as_int()), kAdd};
        return binary(" + ", kAdd);
      }
      case Ops::MUL:
        if (is_neg_one(u.src[1])) return {"-" + wrap(sub(0), kUnary), kUnary};
        return binary("*", kMul);
      case Ops::IDIV: return binary("//", kMul);
      case Ops::MOD: return binary("%", kMul);
      case Ops::CMPLT: return binary(" < ", kCompare);
      case Ops::CMPNE:
        if (u.src[0]->dtype.is_bool() && u.src[1]->is_const() && u.src[1]->const_value().truthy())
          return {"!" + wrap(sub(0), kUnary), kUnary};
        return binary(" != ", kCompare);
      case Ops::AND: return binary(" & ", kAnd);
      case Ops::OR: return binary(" | ", kOr);
      case Ops::XOR: return binary(" ^ ", kXor);
      case Ops::SHL: return binary(" << ", kAdd - 1);
      case Ops::SHR: return binary(" >> ", kAdd - 1);
      case Ops::MAX: return call("max");
      case Ops::WHERE: return call("where");
      case Ops::CAST: return call("cast<" + u.dtype.name() + ">");
      default: break;
    }
    return call(std::string(op_name(u.op)));
  }
};

}  // namespace

std::string render(const UOpRef& e) { return Renderer().go(*e, 0).s; }

}  // namespace onegrad::symbolic
