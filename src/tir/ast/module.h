// PrimFunc and IRModule (spec: PrimFunc, IRModule). A module maps GlobalVar names to functions in
// the order they were written; a PrimFunc calls another as CallNode{calls_global, op = name}.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tir/ast/stmt.h"

namespace onegrad::tir {

struct PrimFuncNode {
  std::vector<Var> params;
  Stmt body;
  std::optional<Type> ret_type;
  std::vector<std::pair<Var, Buffer>> buffer_map;  // param -> the buffer bound to it
  Annotations attrs;
  // Decorator flags of @T.prim_func(private=..., check_well_formed=...): not semantics, kept so
  // printing reproduces them and the checker can honour check_well_formed=False.
  bool is_private = false;
  bool check_well_formed = true;
  SourceLoc loc;

  Buffer buffer_of(const Var& param) const;
};
using PrimFunc = std::shared_ptr<const PrimFuncNode>;

struct IRModule {
  std::vector<std::pair<std::string, PrimFunc>> functions;

  PrimFunc find(const std::string& name) const;
  // "f, g, main": the function names in order, for messages that say what there is.
  std::string names_text() const;
};

}  // namespace onegrad::tir
