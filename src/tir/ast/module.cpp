#include "tir/ast/module.h"

namespace onegrad::tir {

Buffer PrimFuncNode::buffer_of(const Var& param) const {
  for (const auto& [var, buffer] : buffer_map)
    if (var == param) return buffer;
  return nullptr;
}

PrimFunc IRModule::find(const std::string& name) const {
  for (const auto& [n, f] : functions)
    if (n == name) return f;
  return nullptr;
}

std::string IRModule::names_text() const {
  std::string s;
  for (const auto& [n, f] : functions) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace onegrad::tir
