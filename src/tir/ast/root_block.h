// The root block of TVMScript (tir-notes 1.3 "Root block"): a function body that holds blocks, or
// allocates buffers at its top level, is wrapped in an opaque block named "root". The parser wraps
// and the printer unwraps by the same rule, so printing and parsing agree.
#pragma once
#include <vector>

#include "tir/ast/stmt.h"

namespace onegrad::tir {

bool script_wraps_in_root(const Stmt& body, bool has_root_allocs);
Stmt make_root_block(Stmt body, std::vector<Buffer> alloc_buffers);

}  // namespace onegrad::tir
