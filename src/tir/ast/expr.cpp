#include "tir/ast/expr.h"

#include "tir/ast/buffer.h"

namespace onegrad::tir {

const char* expr_kind_name(ExprKind k) {
  static const char* const kNames[] = {
      "Var", "IntImm", "FloatImm", "StringImm", "Cast", "Select", "BufferLoad", "Ramp", "Broadcast", "Let",
      "Call", "Shuffle", "Add", "Sub", "Mul", "Div", "Mod", "FloorDiv", "FloorMod", "Min", "Max",
      "EQ", "NE", "LT", "LE", "GE", "GT", "And", "Or", "Not"};
  return kNames[static_cast<int>(k)];
}

Var make_var(std::string name, DataType dtype, SourceLoc loc) {
  // spec: a Var of dtype void is annotated TupleType([]), any other PrimType(dtype).
  return make_var(std::move(name), dtype.is_void() ? Type::tuple() : Type::prim(dtype), loc);
}

Var make_var(std::string name, Type annotation, SourceLoc loc) {
  return std::make_shared<const VarNode>(std::move(name), std::move(annotation), loc);
}

PrimExpr int_imm(int64_t value, DataType dtype, SourceLoc loc) {
  return std::make_shared<const IntImmNode>(value, dtype, loc);
}

PrimExpr float_imm(double value, DataType dtype, SourceLoc loc) {
  return std::make_shared<const FloatImmNode>(value, dtype, loc);
}

PrimExpr bool_imm(bool value, SourceLoc loc) { return int_imm(value ? 1 : 0, DataType::bool_(), loc); }

PrimExpr string_imm(std::string value, SourceLoc loc) {
  return std::make_shared<const StringImmNode>(std::move(value), loc);
}

PrimExpr make_cast(DataType dtype, PrimExpr value, SourceLoc loc) {
  return std::make_shared<const CastNode>(dtype, std::move(value), loc);
}

PrimExpr make_select(PrimExpr c, PrimExpr t, PrimExpr f, SourceLoc loc) {
  return std::make_shared<const SelectNode>(std::move(c), std::move(t), std::move(f), loc);
}

PrimExpr make_buffer_load(Buffer buffer, std::vector<PrimExpr> indices, SourceLoc loc, PrimExpr predicate) {
  int index_lanes = indices.empty() ? 1 : indices.back()->dtype.lanes;
  DataType dtype = buffer->dtype.with_lanes(buffer->dtype.lanes * index_lanes);
  return std::make_shared<const BufferLoadNode>(dtype, std::move(buffer), std::move(indices), loc, std::move(predicate));
}

PrimExpr make_ramp(PrimExpr base, PrimExpr stride, int lanes, SourceLoc loc) {
  return std::make_shared<const RampNode>(std::move(base), std::move(stride), lanes, loc);
}

PrimExpr make_broadcast(PrimExpr value, int lanes, SourceLoc loc) {
  return std::make_shared<const BroadcastNode>(std::move(value), lanes, loc);
}

PrimExpr make_let(Var var, PrimExpr value, PrimExpr body, SourceLoc loc) {
  return std::make_shared<const LetNode>(std::move(var), std::move(value), std::move(body), loc);
}

PrimExpr make_call(DataType dtype, std::string op, std::vector<PrimExpr> args, SourceLoc loc) {
  return std::make_shared<const CallNode>(dtype, std::move(op), false, std::move(args), loc);
}

PrimExpr make_global_call(DataType dtype, std::string func, std::vector<PrimExpr> args, SourceLoc loc) {
  return std::make_shared<const CallNode>(dtype, std::move(func), true, std::move(args), loc);
}

PrimExpr make_shuffle(std::vector<PrimExpr> vectors, std::vector<PrimExpr> indices, SourceLoc loc) {
  DataType element = vectors.empty() ? DataType::int_(32) : vectors[0]->dtype.element();
  DataType dtype = element.with_lanes(static_cast<int>(indices.size()));
  return std::make_shared<const ShuffleNode>(dtype, std::move(vectors), std::move(indices), loc);
}

PrimExpr make_binary(ExprKind kind, PrimExpr a, PrimExpr b, SourceLoc loc) {
  DataType dtype = is_cmp_op(kind) ? DataType::bool_(a->dtype.lanes) : a->dtype;
  return std::make_shared<const BinaryNode>(kind, dtype, std::move(a), std::move(b), loc);
}

PrimExpr make_not(PrimExpr a, SourceLoc loc) { return std::make_shared<const NotNode>(std::move(a), loc); }

const IntImmNode* as_int_imm(const PrimExpr& e) { return e ? e->as<IntImmNode>() : nullptr; }

bool is_const_int(const PrimExpr& e, int64_t value) {
  const IntImmNode* imm = as_int_imm(e);
  return imm && imm->value == value;
}

}  // namespace onegrad::tir
