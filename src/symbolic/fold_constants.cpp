// Constant folding: an ALU op over CONSTs is evaluated with exec_alu (the dtype's wraparound and
// rounding included); an integer or bool node whose min_max interval is a single value is that value.
#include "symbolic/rules.h"
#include "uop/exec_alu.h"

namespace onegrad::symbolic {

std::vector<Ops> alu_ops() {
  std::vector<Ops> ops;
  for (int i = 0; i < kNumOps; i++)
    if (is_alu(op_at(i))) ops.push_back(op_at(i));
  return ops;
}

namespace {

// op(c0, c1, ...) -> exec_alu(op, c0, c1, ...)
UOpRef fold_alu(Match& m) {
  const UOp& u = *m.root();
  std::vector<ConstValue> args;
  args.reserve(u.src.size());
  for (const UOpRef& s : u.src) args.push_back(s->const_value());
  // comparisons evaluate in their operands' dtype; every other op in its own
  DType dt = is_comparison(u.op) ? u.src[0]->dtype : u.dtype;
  std::optional<ConstValue> v = exec_alu(u.op, dt, args);
  if (!v) return nullptr;  // division by zero, or no value: the runtime decides
  return UOp::const_(u.dtype, *v);
}

// vmin == vmax -> that constant (sound: min_max always contains every value the node takes)
UOpRef fold_single_value(Match& m) {
  const UOp& u = *m.root();
  return UOp::const_(u.dtype, u.vmin());
}

bool single_valued(const UOp& u) {
  return (u.dtype.is_int() || u.dtype.is_bool()) && !u.dtype.is_ptr && u.vmin() == u.vmax() &&
         !is_infinite_bound(u.vmin().as_int());
}

}  // namespace

std::vector<Rule> fold_constant_rules() {
  return {
      {"fold_alu", UPat::ops(alu_ops()).with_repeated_src(UPat::cvar()), fold_alu},
      {"fold_single_value", UPat::ops(alu_ops()).where(single_valued), fold_single_value},
  };
}

}  // namespace onegrad::symbolic
