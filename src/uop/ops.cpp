#include "uop/ops.h"

namespace onegrad {

namespace {

constexpr std::string_view kOpNames[] = {
#define ONEGRAD_OP_NAME(name, group) #name,
    ONEGRAD_OPS(ONEGRAD_OP_NAME)
#undef ONEGRAD_OP_NAME
};

constexpr OpGroup kOpGroups[] = {
#define ONEGRAD_OP_GROUP(name, group) OpGroup::group,
    ONEGRAD_OPS(ONEGRAD_OP_GROUP)
#undef ONEGRAD_OP_GROUP
};

constexpr std::string_view kAxisTypeNames[] = {"GLOBAL", "LOCAL",        "WARP",   "THREAD", "LOOP",
                                               "REDUCE", "GROUP_REDUCE", "UPCAST", "UNROLL"};
constexpr char kAxisTypeLetters[] = {'g', 'l', 'w', 't', 'L', 'R', 'G', 'u', 'r'};

constexpr std::string_view kOptOpNames[] = {"SPLIT", "PADTO", "SWAP", "NOLOCALS", "TC"};

}  // namespace

std::string_view op_name(Ops op) { return kOpNames[static_cast<int>(op)]; }

std::optional<Ops> parse_op(std::string_view name) {
  for (int i = 0; i < kNumOps; i++)
    if (kOpNames[i] == name) return op_at(i);
  return std::nullopt;
}

OpGroup op_group(Ops op) { return kOpGroups[static_cast<int>(op)]; }

std::string_view op_group_name(OpGroup g) {
  constexpr std::string_view kNames[] = {"source",   "movement", "reduce",  "call",    "load",   "store",
                                         "ordering", "unary",    "binary",  "ternary", "marker", "codegen"};
  return kNames[static_cast<int>(g)];
}

bool is_alu(Ops op) {
  OpGroup g = op_group(op);
  return g == OpGroup::Unary || g == OpGroup::Binary || g == OpGroup::Ternary;
}

bool is_commutative(Ops op) {
  switch (op) {
    case Ops::ADD: case Ops::MUL: case Ops::MAX: case Ops::CMPNE: case Ops::CMPEQ:
    case Ops::XOR: case Ops::OR: case Ops::AND:
      return true;
    default:
      return false;
  }
}

bool is_comparison(Ops op) {
  switch (op) {
    case Ops::CMPLT: case Ops::CMPNE: case Ops::CMPGT: case Ops::CMPGE: case Ops::CMPLE: case Ops::CMPEQ:
      return true;
    default:
      return false;
  }
}

int alu_arity(Ops op) {
  switch (op_group(op)) {
    case OpGroup::Unary: return 1;
    case OpGroup::Binary: return 2;
    case OpGroup::Ternary: return 3;
    default: return 0;
  }
}

std::string_view axis_type_name(AxisType t) { return kAxisTypeNames[static_cast<int>(t)]; }
char axis_type_letter(AxisType t) { return kAxisTypeLetters[static_cast<int>(t)]; }

std::optional<AxisType> parse_axis_type(std::string_view name) {
  for (int i = 0; i < kNumAxisTypes; i++)
    if (kAxisTypeNames[i] == name) return static_cast<AxisType>(i);
  return std::nullopt;
}

std::string_view opt_op_name(OptOp o) { return kOptOpNames[static_cast<int>(o)]; }

std::optional<OptOp> parse_opt_op(std::string_view name) {
  for (int i = 0; i < kNumOptOps; i++)
    if (kOptOpNames[i] == name) return static_cast<OptOp>(i);
  return std::nullopt;
}

}  // namespace onegrad
