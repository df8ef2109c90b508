// The decomposition table and the Instruction Selection pass (codegen/isel.h). Each builder is the
// spec's formula written with the primitive ops, one line per op.
#include "codegen/isel.h"

#include <cmath>
#include <numbers>

#include "codegen/decompositions.h"
#include "codegen/threefry.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

UOpRef alu(Ops op, std::vector<UOpRef> src) { return UOp::alu(op, std::move(src)); }
UOpRef one_of(DType dt) { return UOp::const_int(dt, 1); }       // the table's "1" (true for bool)
UOpRef minus_one(DType dt) { return UOp::const_int(dt, -1); }  // wraps to all ones for unsigned
const UOpRef& A(const UOp& u) { return u.src[0]; }
const UOpRef& B(const UOp& u) { return u.src[1]; }

// spec: NEG = MUL(A, -1). Ints wrap as negation does (unsigned: times 2^n - 1).
UOpRef neg(const UOp& u) { return alu(Ops::MUL, {A(u), minus_one(A(u)->dtype)}); }
// spec: SUB = ADD(A, NEG(B))
UOpRef sub(const UOp& u) { return alu(Ops::ADD, {A(u), alu(Ops::NEG, {B(u)})}); }
// spec: DIV = MUL(A, RECIP(B))
UOpRef div(const UOp& u) { return alu(Ops::MUL, {A(u), alu(Ops::RECIP, {B(u)})}); }
// spec: CMPGT = CMPLT(B, A)
UOpRef cmpgt(const UOp& u) { return alu(Ops::CMPLT, {B(u), A(u)}); }
// spec: CMPGE = CMPNE(CMPLT(A, B), 1)
UOpRef cmpge(const UOp& u) { return alu(Ops::CMPNE, {alu(Ops::CMPLT, {A(u), B(u)}), one_of(dtypes::bool_)}); }
// spec: CMPLE = CMPNE(CMPLT(B, A), 1)
UOpRef cmple(const UOp& u) { return alu(Ops::CMPNE, {alu(Ops::CMPLT, {B(u), A(u)}), one_of(dtypes::bool_)}); }
// spec: CMPEQ = CMPNE(CMPNE(A, B), 1)
UOpRef cmpeq(const UOp& u) { return alu(Ops::CMPNE, {alu(Ops::CMPNE, {A(u), B(u)}), one_of(dtypes::bool_)}); }
// spec: NOT = CMPNE(A, 1)
UOpRef not_(const UOp& u) { return alu(Ops::CMPNE, {A(u), one_of(A(u)->dtype)}); }
UOpRef exp2(const UOp& u) { return exp2_primitives(A(u)); }
UOpRef log2(const UOp& u) { return log2_primitives(A(u)); }
UOpRef sin(const UOp& u) { return sin_primitives(A(u)); }
// spec: SQRT = EXP2(0.5 * LOG2(A))
UOpRef sqrt(const UOp& u) {
  return alu(Ops::EXP2, {alu(Ops::MUL, {UOp::const_float(u.dtype, 0.5), alu(Ops::LOG2, {A(u)})})});
}
// spec: POW = EXP2(LOG2(A) * B)
UOpRef pow(const UOp& u) { return alu(Ops::EXP2, {alu(Ops::MUL, {alu(Ops::LOG2, {A(u)}), B(u)})}); }
UOpRef threefry(const UOp& u) { return threefry2x32_primitives(A(u), B(u)); }
// spec: MULACC = ADD(MUL(A, B), C). Exact on ints only: a float MULACC rounds once (a fused
// multiply-add, docs/codegen.md "MULACC"), which no ADD of a rounded MUL reproduces.
UOpRef mulacc(const UOp& u) { return alu(Ops::ADD, {alu(Ops::MUL, {A(u), B(u)}), u.src[2]}); }

bool any_value(DType) { return true; }
bool number(DType dt) { return dt.is_int() || dt.is_float(); }  // NEG, SUB: not bool (verify_dtype)
bool floats(DType dt) { return dt.is_float(); }
bool ints(DType dt) { return dt.is_int(); }
bool bool_only(DType dt) { return dt.is_bool(); }
bool narrow_float(DType dt) { return is_transcendental_dtype(dt); }
bool packed_uint64(DType dt) { return dt == dtypes::uint64; }

// The operand dtype a node's row is judged by: its first source's (a comparison's result is bool).
DType operand_dtype(const UOp& u) { return u.src.empty() ? u.dtype : u.src[0]->dtype; }

const Capabilities& caps_of(Match& m) { return m.ctx<const Capabilities>(); }

// The rule for one row: decline when the backend renders the op, else build the decomposition.
UOpRef apply_row(const Decomposition& d, Match& m) {
  const UOp& u = *m.root();
  DType dt = operand_dtype(u);
  const Capabilities& caps = caps_of(m);
  if (caps.renders(u.op, dt)) return nullptr;
  if (!d.defined_on(dt) || !d.build)
    throw TargetError("instruction selection: target '" + caps.name + "' lacks " + std::string(op_name(u.op)) + " on " + dt.name() +
                        " and the decomposition table has none for it (" + u.brief() + ")");
  return d.build(u);
}

// cos and tan as Tensor::cos / Tensor::tan build them: SIN(x + pi/2) and SIN(x) / SIN(x + pi/2),
// where pi/2 is the CONST pi/2 rounded to x's dtype. When the backend lacks SIN, the quadrant is
// shifted exactly instead of adding (decompositions.h: cos_primitives, tan_primitives).
bool is_half_pi(const UOp& c) {
  return c.op == Ops::CONST && c.const_value().as_double() == round_to_float_dtype(std::numbers::pi / 2, c.dtype);
}
bool lacks_sin(Match& m, DType dt) { return is_transcendental_dtype(dt) && !caps_of(m).renders(Ops::SIN, dt); }

UOpRef cos_rule(Match& m) {
  if (!is_half_pi(*m["c"]) || !lacks_sin(m, m.root()->dtype)) return nullptr;
  return cos_primitives(m["x"]);
}

UOpRef tan_rule(Match& m) {
  if (m["x"] != m["y"] || !is_half_pi(*m["c"]) || !lacks_sin(m, m.root()->dtype)) return nullptr;
  return tan_primitives(m["x"]);
}

UPat shifted_by_half_pi(const char* x) {
  return UPat::op(Ops::SIN, {UPat::alu(Ops::ADD, {UPat::var(x), UPat::cvar("c")})});
}

}  // namespace

const std::vector<Decomposition>& decomposition_table() {
  static const std::vector<Decomposition> table = {
      {Ops::NEG, "MUL(A, -1)", number, neg},
      {Ops::SUB, "ADD(A, NEG(B))", number, sub},
      {Ops::DIV, "MUL(A, RECIP(B))", floats, div},
      {Ops::CMPGT, "CMPLT(B, A)", any_value, cmpgt},
      {Ops::CMPGE, "CMPNE(CMPLT(A, B), 1)", any_value, cmpge},
      {Ops::CMPLE, "CMPNE(CMPLT(B, A), 1)", any_value, cmple},
      {Ops::CMPEQ, "CMPNE(CMPNE(A, B), 1)", any_value, cmpeq},
      {Ops::NOT, "CMPNE(A, 1)", bool_only, not_},
      {Ops::EXP2, "polynomial approx + MUL, ADD", narrow_float, exp2},
      {Ops::LOG2, "exponent extract + polynomial approx", narrow_float, log2},
      {Ops::SIN, "argument reduction + polynomial approx", narrow_float, sin},
      {Ops::SQRT, "EXP2(0.5 * LOG2(A))", floats, sqrt},
      {Ops::POW, "EXP2(LOG2(A) * B)", floats, pow},
      {Ops::MULACC, "ADD(MUL(A, B), C)", ints, mulacc},
      {Ops::THREEFRY, "5 rounds of add-rotate-xor (ARX)", packed_uint64, threefry},
  };
  return table;
}

const Decomposition* find_decomposition(Ops op) {
  for (const Decomposition& d : decomposition_table())
    if (d.op == op) return &d;
  return nullptr;
}

bool has_decomposition(Ops op, DType dt) {
  const Decomposition* d = find_decomposition(op);
  return d && d->build && d->defined_on(dt);
}

Capabilities lacks_every_decomposed_op(std::string name) {
  return {std::move(name), [](Ops op, DType dt) { return !has_decomposition(op, dt); }};
}

const PatternMatcher& isel_rules() {
  static const PatternMatcher pm([] {
    std::vector<Rule> rules = {
        // tan and cos first: they see SIN's operand before SIN's own rule rewrites it.
        {"tan", UPat::op(Ops::DIV, {UPat::op(Ops::SIN, {UPat::var("y")}), shifted_by_half_pi("x")}), tan_rule},
        {"cos", shifted_by_half_pi("x"), cos_rule},
    };
    for (const Decomposition& d : decomposition_table()) {
      std::string name(op_name(d.op));
      for (char& ch : name) ch = char(std::tolower(ch));
      rules.push_back({name, UPat::op(d.op), [&d](Match& m) { return apply_row(d, m); }});
    }
    return rules;
  }());
  return pm;
}

UOpRef select_instructions(const UOpRef& sink, const Capabilities& caps, RewriteTrace* trace) {
  RewriteOptions opts;
  // Parents first: the cos and tan rules must see SIN(x + pi/2) before SIN's rule and before the
  // ADD's operands change; the sources of each replacement are visited after it.
  opts.mode = RewriteMode::TopDown;
  opts.ctx = const_cast<Capabilities*>(&caps);
  opts.trace = trace;
  opts.name = "select_instructions";
  return graph_rewrite(sink, isel_rules(), opts);
}

}  // namespace onegrad
