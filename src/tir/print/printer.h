// TVMScript out of the TIR AST, in the v0.12–v0.23 dialect the parser reads: parse(print(x))
// gives back x's structure, and print(parse(print(x))) == print(x).
#pragma once
#include <string>

#include "tir/ast/module.h"

namespace onegrad::tir {

// A whole module: one function prints as a lone @T.prim_func, more as an @I.ir_module class.
std::string print_script(const IRModule& mod);
std::string print_prim_func(const std::string& name, const PrimFunc& f);
// One expression, Vars and buffers by their name hints (for error messages and tests).
std::string print_expr(const PrimExpr& e);

}  // namespace onegrad::tir
