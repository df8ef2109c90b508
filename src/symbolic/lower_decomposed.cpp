// Decomposed ops become the primitives they are defined as (spec: Decomposed elementwise ops), so
// every other rule only has to know the primitive forms that uop.cpp's builders produce.
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

UOpRef true_() { return UOp::const_bool(true); }
bool not_bool(const UOp& u) { return !u.dtype.is_bool(); }

}  // namespace

std::vector<Rule> lower_decomposed_rules() {
  UPat x = UPat::var("x"), a = UPat::var("a"), b = UPat::var("b");
  return {
      // NEG(x) -> MUL(x, -1)
      {"neg", UPat::op(Ops::NEG, {x}).where(not_bool), [](Match& m) { return -m["x"]; }},
      // SUB(a, b) -> ADD(a, NEG(b))
      {"sub", UPat::op(Ops::SUB, {a, b}).where(not_bool), [](Match& m) { return m["a"] - m["b"]; }},
      // CMPGT(a, b) -> CMPLT(b, a)
      {"cmpgt", UPat::op(Ops::CMPGT, {a, b}), [](Match& m) { return m["b"] < m["a"]; }},
      // CMPGE(a, b) -> CMPNE(CMPLT(a, b), 1)
      {"cmpge", UPat::op(Ops::CMPGE, {a, b}), [](Match& m) { return ne(m["a"] < m["b"], true_()); }},
      // CMPLE(a, b) -> CMPNE(CMPLT(b, a), 1)
      {"cmple", UPat::op(Ops::CMPLE, {a, b}), [](Match& m) { return ne(m["b"] < m["a"], true_()); }},
      // CMPEQ(a, b) -> CMPNE(CMPNE(a, b), 1)
      {"cmpeq", UPat::op(Ops::CMPEQ, {a, b}), [](Match& m) { return eq(m["a"], m["b"]); }},
      // NOT(x) -> CMPNE(x, 1), for bools (NOT of an int has the int dtype, CMPNE gives bool)
      {"not", UPat::op(Ops::NOT, {x}).with_dtypes({dtypes::bool_}), [](Match& m) { return ne(m["x"], true_()); }},
  };
}

}  // namespace onegrad::symbolic
