// Algebraic identities that hold for every value: neutral and absorbing elements, an op applied
// to the same operand twice, WHERE with equal arms or a known condition, double negation of bools.
// Float rules are limited to those exact in IEEE arithmetic (x*1, where(c,a,a)); x+0 is not
// (-0.0 + 0.0 is +0.0), x*0 is not (NaN*0 is NaN).
#include "symbolic/int_math.h"
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

bool int_or_bool(const UOp& u) { return u.dtype.is_int() || u.dtype.is_bool(); }
bool is_int(const UOp& u) { return u.dtype.is_int(); }
bool is_bool(const UOp& u) { return u.dtype.is_bool(); }
bool nonzero(const UOp& u) { return lo(u) > 0 || hi(u) < 0; }

UOpRef keep(Match& m) { return m["x"]; }
UOpRef zero(Match& m) { return const_like(m.root(), 0); }
UOpRef one(Match& m) { return const_like(m.root(), 1); }
UOpRef false_(Match&) { return UOp::const_bool(false); }
UOpRef true_(Match&) { return UOp::const_bool(true); }

}  // namespace

std::vector<Rule> identity_rules() {
  UPat x = UPat::var("x"), c = UPat::var("c"), a = UPat::var("a"), b = UPat::var("b");
  UPat ix = x.where(is_int), bx = x.where(is_bool);
  return {
      {"x+0", (x + 0).where(int_or_bool), keep},
      {"x*1", x * 1, keep},
      {"x*0", (x * 0).where(int_or_bool), zero},
      {"x//1", idiv(ix, 1), keep},
      {"x//-1", idiv(ix, -1), [](Match& m) { return -m["x"]; }},
      {"x%1", ix % 1, zero},
      {"x%-1", ix % -1, zero},
      // x//x -> 1 needs x != 0; x%x is 0 for x != 0 and 0 where the runtime divides by zero
      {"x//x", idiv(ix, x).where([](const UOp& u) { return nonzero(*u.src[1]); }), one},
      {"x%x", ix % x, zero},
      {"0//x", idiv(UPat::const_(0), ix), zero},
      {"0%x", UPat::const_(0) % ix, zero},
      {"max(x,x)", maximum(x, x), keep},
      {"x<x", (x < x).where([](const UOp& u) { return int_or_bool(*u.src[0]); }), false_},
      {"x!=x", ne(x, x).where([](const UOp& u) { return int_or_bool(*u.src[0]); }), false_},
      {"where(c,a,a)", where(c, a, a), [](Match& m) { return m["a"]; }},
      {"where(const,a,b)", where(UPat::cvar("c"), a, b),
       [](Match& m) { return m["c"]->const_value().truthy() ? m["a"] : m["b"]; }},
      {"where(c,true,false)", where(c, UPat::const_(1), UPat::const_(0)).where(is_bool), [](Match& m) { return m["c"]; }},
      {"where(c,false,true)", where(c, UPat::const_(0), UPat::const_(1)).where(is_bool),
       [](Match& m) { return ne(m["c"], UOp::const_bool(true)); }},
      // where(!c, a, b) -> where(c, b, a)
      {"where(!c,a,b)", where(ne(c.where(is_bool), 1), a, b), [](Match& m) { return where(m["c"], m["b"], m["a"]); }},
      // !!x -> x; x != false -> x (bools)
      {"!!x", ne(ne(bx, 1), 1).where(is_bool), keep},
      {"x!=false", ne(bx, 0), keep},
      {"x&x", UPat::alu(Ops::AND, {x, x}), keep},
      {"x|x", UPat::alu(Ops::OR, {x, x}), keep},
      {"x^x", UPat::alu(Ops::XOR, {x, x}).where(int_or_bool), zero},
      {"x&true", UPat::alu(Ops::AND, {bx, UPat::const_(1)}), keep},
      {"x&false", UPat::alu(Ops::AND, {bx, UPat::const_(0)}), false_},
      {"x|false", UPat::alu(Ops::OR, {bx, UPat::const_(0)}), keep},
      {"x|true", UPat::alu(Ops::OR, {bx, UPat::const_(1)}), true_},
      {"x&0", UPat::alu(Ops::AND, {ix, UPat::const_(0)}), zero},
      {"x|0", UPat::alu(Ops::OR, {ix, UPat::const_(0)}), keep},
      {"x^0", UPat::alu(Ops::XOR, {x.where(int_or_bool), UPat::const_(0)}), keep},
  };
}

}  // namespace onegrad::symbolic
