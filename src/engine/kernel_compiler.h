// Kernels from AST to loaded Program, cached by the AST itself: a kernel AST names no buffer
// (PARAM slots) and numbers its ranges in order, so it *is* the kernel's structural key (DESIGN
// decision 6), and the interned node makes the lookup a pointer hash.
#pragma once
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "runtime/device.h"
#include "runtime/program.h"
#include "uop/uop.h"

namespace onegrad {

struct CompiledKernel {
  UOpRef ast;
  std::string name;
  std::string source;
  UOpRef linear;  // the LINEAR the source was rendered from
  std::shared_ptr<Program> program;
};

// The compiled kernel of `ast` on `device`; `lowered` is set to whether this call lowered it.
// Thread-safe; a kernel asked for by two threads is built once.
const CompiledKernel& compiled_kernel(const UOpRef& ast, RuntimeDevice& device, bool* lowered = nullptr);

// Builds the kernels of `asts` that are not built yet, on up to one thread per core (lowering is
// C++, compiling a C compiler process: both run in parallel), and returns the ASTs it lowered. A
// kernel that fails to build is left for compiled_kernel to report when it is asked for, so errors
// come in schedule order.
std::unordered_set<const UOp*> build_kernels(const std::vector<UOpRef>& asts, RuntimeDevice& device);

}  // namespace onegrad
