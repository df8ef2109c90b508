// The op set of the UOp dialect, under the spec's names (uop-dialect.tex and uop-dialect.md),
// with the group each op belongs to, plus the AxisType and OptOp enums of "Kernel Optimizations".
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace onegrad {

// X-macro: NAME, group. The order is the spec's order of sections.
#define ONEGRAD_OPS(X)                                                                    \
  /* source ops: leaf nodes */                                                            \
  X(PARAM, Source) X(BUFFER, Source) X(CONST, Source) X(BINARY, Source)                   \
  /* movement ops */                                                                      \
  X(PERMUTE, Movement) X(FLIP, Movement) X(RESHAPE, Movement) X(EXPAND, Movement)         \
  X(PAD, Movement) X(SHRINK, Movement) X(INDEX, Movement) X(STACK, Movement)              \
  X(REPLICATED, Movement) X(SLICE, Movement) X(BITCAST, Movement)                         \
  /* reduce ops */                                                                        \
  X(REDUCE, Reduce)                                                                       \
  /* call ops */                                                                          \
  X(FUNCTION, Call) X(CALL, Call) X(TUPLE, Call) X(GETTUPLE, Call)                        \
  /* load, copy and store */                                                              \
  X(LOAD, Load) X(COPY, Load) X(STORE, Store)                                             \
  /* ordering ops */                                                                      \
  X(RANGE, Ordering) X(END, Ordering) X(AFTER, Ordering) X(GROUP, Ordering)               \
  X(SINK, Ordering) X(LINEAR, Ordering)                                                   \
  /* elementwise primitives */                                                            \
  X(RECIP, Unary) X(TRUNC, Unary) X(CAST, Unary)                                          \
  X(ADD, Binary) X(MUL, Binary) X(MAX, Binary) X(MOD, Binary) X(IDIV, Binary)             \
  X(CMPLT, Binary) X(CMPNE, Binary)                                                       \
  X(XOR, Binary) X(OR, Binary) X(AND, Binary) X(SHR, Binary) X(SHL, Binary)               \
  X(WHERE, Ternary)                                                                       \
  /* decomposed elementwise ops */                                                        \
  X(NEG, Unary) X(SUB, Binary) X(DIV, Binary) X(CMPGT, Binary) X(CMPGE, Binary)           \
  X(CMPLE, Binary) X(CMPEQ, Binary) X(NOT, Unary) X(EXP2, Unary) X(LOG2, Unary)           \
  X(SIN, Unary) X(SQRT, Unary) X(POW, Binary) X(MULACC, Ternary) X(THREEFRY, Binary)      \
  /* marker ops: identity on data */                                                      \
  X(CONTIGUOUS, Marker) X(CONTIGUOUSBACKWARD, Marker) X(DETACH, Marker)                   \
  /* codegen ops */                                                                       \
  X(BARRIER, Codegen) X(INS, Codegen) X(GETADDR, Codegen) X(SPECIAL, Codegen)             \
  X(IF, Codegen) X(ENDIF, Codegen) X(WMMA, Codegen) X(CUSTOM, Codegen)                    \
  X(ATOMICADD, Codegen) X(CUSTOMFUNCTION, Codegen) X(PROGRAM, Codegen) X(SOURCE, Codegen)

enum class Ops : uint8_t {
#define ONEGRAD_OP_ENUM(name, group) name,
  ONEGRAD_OPS(ONEGRAD_OP_ENUM)
#undef ONEGRAD_OP_ENUM
};

#define ONEGRAD_OP_COUNT(name, group) +1
inline constexpr int kNumOps = 0 ONEGRAD_OPS(ONEGRAD_OP_COUNT);
#undef ONEGRAD_OP_COUNT

enum class OpGroup : uint8_t { Source, Movement, Reduce, Call, Load, Store, Ordering, Unary, Binary, Ternary, Marker, Codegen };

std::string_view op_name(Ops op);
std::optional<Ops> parse_op(std::string_view name);
OpGroup op_group(Ops op);
std::string_view op_group_name(OpGroup g);

// Elementwise ops: unary, binary and ternary ALU ops (primitive and decomposed).
bool is_alu(Ops op);
// Source order does not matter: ADD MUL MAX CMPNE CMPEQ XOR OR AND.
bool is_commutative(Ops op);
// Comparisons produce bool.
bool is_comparison(Ops op);
// Number of sources of an ALU op (1, 2 or 3); 0 for other ops.
int alu_arity(Ops op);

// spec: Kernel Optimizations, the AxisType table (letter in the second column).
enum class AxisType : uint8_t { GLOBAL, LOCAL, WARP, THREAD, LOOP, REDUCE, GROUP_REDUCE, UPCAST, UNROLL };
inline constexpr int kNumAxisTypes = 9;
std::string_view axis_type_name(AxisType t);
char axis_type_letter(AxisType t);
std::optional<AxisType> parse_axis_type(std::string_view name);

// spec: the OptOp table.
enum class OptOp : uint8_t { SPLIT, PADTO, SWAP, NOLOCALS, TC };
inline constexpr int kNumOptOps = 5;
std::string_view opt_op_name(OptOp o);
std::optional<OptOp> parse_opt_op(std::string_view name);

// Iteration helper over every op.
inline constexpr Ops op_at(int i) { return static_cast<Ops>(i); }

}  // namespace onegrad
