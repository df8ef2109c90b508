// TVMScript in, TIR out: the v0.12–v0.23 `tir` dialect plus `a: T.handle` + T.match_buffer and
// `T.Buffer[...]` (spec/README "Decisions for the TIR front end"), with the sugar of tir-notes 1.3
// (literal typing, operator promotion and folding, slices as Ramp, `+=`, chained comparisons, the
// root block, ...). Errors are TirSyntaxError with the line and column of the offending token.
#pragma once
#include <string_view>

#include "tir/ast/module.h"

namespace onegrad::tir {

// A file holding one @T.prim_func (a module of one function named after it) or an @I.ir_module
// class, with optional imports and module-level constants before it.
IRModule parse_script(std::string_view text);

}  // namespace onegrad::tir
