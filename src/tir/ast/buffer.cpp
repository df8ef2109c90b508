#include "tir/ast/buffer.h"

namespace onegrad::tir {

std::string BufferNode::scope() const {
  if (data && data->type_annotation.kind == Type::Kind::Pointer) return data->type_annotation.storage_scope;
  return "global";
}

DataType shape_index_dtype(const std::vector<PrimExpr>& shape) {
  for (const PrimExpr& e : shape)
    if (e->dtype.is_int() && e->dtype.bits == 64) return DataType::int_(64);
  return DataType::int_(32);
}

bool has_default_elem_offset(const BufferNode& b) {
  return b.elem_offset && is_const_int(b.elem_offset, 0) && b.elem_offset->dtype == shape_index_dtype(b.shape);
}

Var make_data_var(const std::string& name, DataType dtype, const std::string& scope, SourceLoc loc) {
  DataType element = dtype.is_bool() ? DataType::int_(8, dtype.lanes) : dtype;
  return make_var(name, Type::pointer(element, scope), loc);
}

}  // namespace onegrad::tir
