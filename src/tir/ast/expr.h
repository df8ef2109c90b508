// TIR expressions (spec: PrimExpr). Nodes are immutable and shared; a Var is identified by its node,
// not its name (two Vars may share a name_hint). Every node carries the source position it was
// parsed from so later checks can point at the text. The make_* constructors compute dtype by the
// spec's "Rules for Assigning Datatypes" without checking them: the type checker does that.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tir/ast/data_type.h"

namespace onegrad::tir {

struct SourceLoc {
  int line = 0;
  int column = 0;
};

// One kind per PrimExpr constructor of the grammar; BinaryOp, CmpOp and LogicalOp list theirs.
enum class ExprKind : uint8_t {
  Var, IntImm, FloatImm, StringImm, Cast, Select, BufferLoad, Ramp, Broadcast, Let, Call, Shuffle,
  Add, Sub, Mul, Div, Mod, FloorDiv, FloorMod, Min, Max,  // BinaryOp
  EQ, NE, LT, LE, GE, GT,                                 // CmpOp
  And, Or, Not,                                           // LogicalOp
};
const char* expr_kind_name(ExprKind k);
inline bool is_binary_op(ExprKind k) { return k >= ExprKind::Add && k <= ExprKind::Max; }
inline bool is_cmp_op(ExprKind k) { return k >= ExprKind::EQ && k <= ExprKind::GT; }
// A CmpOp on two values of one C++ type (the parser's literal folding, the interpreter's lanes);
// nullopt for a kind that is no comparison.
template <class T>
std::optional<bool> compare_values(ExprKind kind, T a, T b) {
  switch (kind) {
    case ExprKind::EQ: return a == b;
    case ExprKind::NE: return a != b;
    case ExprKind::LT: return a < b;
    case ExprKind::LE: return a <= b;
    case ExprKind::GE: return a >= b;
    case ExprKind::GT: return a > b;
    default: return std::nullopt;
  }
}

struct BufferNode;
using Buffer = std::shared_ptr<const BufferNode>;

struct PrimExprNode {
  PrimExprNode(ExprKind kind, DataType dtype, SourceLoc loc) : kind(kind), dtype(dtype), loc(loc) {}
  virtual ~PrimExprNode() = default;
  ExprKind kind;
  DataType dtype;
  SourceLoc loc;

  // The node as subclass T when its kind is one of T's, else nullptr.
  template <class T>
  const T* as() const {
    return T::has_kind(kind) ? static_cast<const T*>(this) : nullptr;
  }
};
using PrimExpr = std::shared_ptr<const PrimExprNode>;

struct VarNode : PrimExprNode {
  VarNode(std::string name, Type annotation, SourceLoc loc)
      : PrimExprNode(ExprKind::Var, annotation.value_dtype(), loc),
        name_hint(std::move(name)),
        type_annotation(std::move(annotation)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Var; }
  std::string name_hint;
  Type type_annotation;
};
using Var = std::shared_ptr<const VarNode>;

struct IntImmNode : PrimExprNode {
  IntImmNode(int64_t value, DataType dtype, SourceLoc loc) : PrimExprNode(ExprKind::IntImm, dtype, loc), value(value) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::IntImm; }
  int64_t value;
};

struct FloatImmNode : PrimExprNode {
  FloatImmNode(double value, DataType dtype, SourceLoc loc)
      : PrimExprNode(ExprKind::FloatImm, dtype, loc), value(value) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::FloatImm; }
  double value;
};

struct StringImmNode : PrimExprNode {
  StringImmNode(std::string value, SourceLoc loc)
      : PrimExprNode(ExprKind::StringImm, DataType::handle(), loc), value(std::move(value)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::StringImm; }
  std::string value;
};

struct CastNode : PrimExprNode {
  CastNode(DataType dtype, PrimExpr value, SourceLoc loc)
      : PrimExprNode(ExprKind::Cast, dtype, loc), value(std::move(value)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Cast; }
  PrimExpr value;
};

struct SelectNode : PrimExprNode {
  SelectNode(PrimExpr c, PrimExpr t, PrimExpr f, SourceLoc loc)
      : PrimExprNode(ExprKind::Select, t->dtype, loc),
        condition(std::move(c)), true_value(std::move(t)), false_value(std::move(f)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Select; }
  PrimExpr condition, true_value, false_value;
};

struct BufferLoadNode : PrimExprNode {
  BufferLoadNode(DataType dtype, Buffer buffer, std::vector<PrimExpr> indices, SourceLoc loc, PrimExpr predicate = nullptr)
      : PrimExprNode(ExprKind::BufferLoad, dtype, loc),
        buffer(std::move(buffer)), indices(std::move(indices)), predicate(std::move(predicate)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::BufferLoad; }
  Buffer buffer;
  std::vector<PrimExpr> indices;
  // TVM's lane mask (A.vload(..., predicate=m)): a bool with one lane per loaded lane; lanes that
  // are off are not read. Null: every lane is read.
  PrimExpr predicate;
};

struct RampNode : PrimExprNode {
  RampNode(PrimExpr base, PrimExpr stride, int lanes, SourceLoc loc)
      : PrimExprNode(ExprKind::Ramp, base->dtype.with_lanes(lanes), loc),
        base(std::move(base)), stride(std::move(stride)), lanes(lanes) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Ramp; }
  PrimExpr base, stride;
  int lanes;
};

struct BroadcastNode : PrimExprNode {
  BroadcastNode(PrimExpr value, int lanes, SourceLoc loc)
      : PrimExprNode(ExprKind::Broadcast, value->dtype.with_lanes(lanes), loc), value(std::move(value)), lanes(lanes) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Broadcast; }
  PrimExpr value;
  int lanes;
};

struct LetNode : PrimExprNode {
  LetNode(Var var, PrimExpr value, PrimExpr body, SourceLoc loc)
      : PrimExprNode(ExprKind::Let, body->dtype, loc), var(std::move(var)), value(std::move(value)), body(std::move(body)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Let; }
  Var var;
  PrimExpr value, body;
};

// op is a builtin ("tir.exp", "tir.if_then_else", "tir.ret", "tir.call_extern", ...) or, when
// calls_global, the name of a GlobalVar of the IRModule.
struct CallNode : PrimExprNode {
  CallNode(DataType dtype, std::string op, bool calls_global, std::vector<PrimExpr> args, SourceLoc loc)
      : PrimExprNode(ExprKind::Call, dtype, loc), op(std::move(op)), calls_global(calls_global), args(std::move(args)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Call; }
  std::string op;
  bool calls_global;
  std::vector<PrimExpr> args;
};

struct ShuffleNode : PrimExprNode {
  ShuffleNode(DataType dtype, std::vector<PrimExpr> vectors, std::vector<PrimExpr> indices, SourceLoc loc)
      : PrimExprNode(ExprKind::Shuffle, dtype, loc), vectors(std::move(vectors)), indices(std::move(indices)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Shuffle; }
  std::vector<PrimExpr> vectors, indices;
};

// BinaryOp, CmpOp, And and Or: two operands, the kind says which.
struct BinaryNode : PrimExprNode {
  BinaryNode(ExprKind kind, DataType dtype, PrimExpr a, PrimExpr b, SourceLoc loc)
      : PrimExprNode(kind, dtype, loc), a(std::move(a)), b(std::move(b)) {}
  static bool has_kind(ExprKind k) { return k >= ExprKind::Add && k <= ExprKind::Or; }
  PrimExpr a, b;
};

struct NotNode : PrimExprNode {
  NotNode(PrimExpr a, SourceLoc loc) : PrimExprNode(ExprKind::Not, DataType::bool_(a->dtype.lanes), loc), a(std::move(a)) {}
  static bool has_kind(ExprKind k) { return k == ExprKind::Not; }
  PrimExpr a;
};

// Constructors (spec dtype rules, no checks).
Var make_var(std::string name, DataType dtype, SourceLoc loc = {});
Var make_var(std::string name, Type annotation, SourceLoc loc = {});
PrimExpr int_imm(int64_t value, DataType dtype, SourceLoc loc = {});
PrimExpr float_imm(double value, DataType dtype, SourceLoc loc = {});
PrimExpr bool_imm(bool value, SourceLoc loc = {});
PrimExpr string_imm(std::string value, SourceLoc loc = {});
PrimExpr make_cast(DataType dtype, PrimExpr value, SourceLoc loc = {});
PrimExpr make_select(PrimExpr c, PrimExpr t, PrimExpr f, SourceLoc loc = {});
// dtype: the buffer's element type with lanes multiplied by the last index's lanes.
PrimExpr make_buffer_load(Buffer buffer, std::vector<PrimExpr> indices, SourceLoc loc = {}, PrimExpr predicate = nullptr);
PrimExpr make_ramp(PrimExpr base, PrimExpr stride, int lanes, SourceLoc loc = {});
PrimExpr make_broadcast(PrimExpr value, int lanes, SourceLoc loc = {});
PrimExpr make_let(Var var, PrimExpr value, PrimExpr body, SourceLoc loc = {});
PrimExpr make_call(DataType dtype, std::string op, std::vector<PrimExpr> args, SourceLoc loc = {});
PrimExpr make_global_call(DataType dtype, std::string func, std::vector<PrimExpr> args, SourceLoc loc = {});
PrimExpr make_shuffle(std::vector<PrimExpr> vectors, std::vector<PrimExpr> indices, SourceLoc loc = {});
// Any BinaryOp, CmpOp, And or Or: comparisons give Bool with a's lanes, the rest a's dtype.
PrimExpr make_binary(ExprKind kind, PrimExpr a, PrimExpr b, SourceLoc loc = {});
PrimExpr make_not(PrimExpr a, SourceLoc loc = {});

// Literal values, when e is an IntImm (bool included) or a FloatImm.
const IntImmNode* as_int_imm(const PrimExpr& e);
bool is_const_int(const PrimExpr& e, int64_t value);

}  // namespace onegrad::tir
