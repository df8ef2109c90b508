// Helpers shared by the checkers (type_check, well_formed): findings in source order, and a
// module's findings as its functions' in turn.
#pragma once
#include <algorithm>
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

inline void sort_by_position(std::vector<TypeIssue>& issues) {
  std::stable_sort(issues.begin(), issues.end(), [](const TypeIssue& a, const TypeIssue& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
}

template <class PerFunction>
std::vector<TypeIssue> issues_of_module(const IRModule& mod, PerFunction per_function) {
  std::vector<TypeIssue> all;
  for (const auto& [name, f] : mod.functions) {
    std::vector<TypeIssue> found = per_function(*f);
    all.insert(all.end(), found.begin(), found.end());
  }
  return all;
}

}  // namespace onegrad::tir
