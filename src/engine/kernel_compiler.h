// Kernels from AST to loaded Program, cached by the AST itself: a kernel AST names no buffer
// (PARAM slots) and numbers its ranges in order, so it *is* the kernel's structural key (DESIGN
// decision 6), and the interned node makes the lookup a pointer hash.
#pragma once
#include <memory>
#include <string>

#include "runtime/device.h"
#include "runtime/program.h"
#include "uop/uop.h"

namespace onegrad {

struct CompiledKernel {
  std::string name;
  std::string source;
  UOpRef linear;  // the LINEAR the source was rendered from
  std::shared_ptr<Program> program;
};

// The compiled kernel of `ast` on `device`; `lowered` is set to whether this call lowered it.
const CompiledKernel& compiled_kernel(const UOpRef& ast, RuntimeDevice& device, bool* lowered = nullptr);

}  // namespace onegrad
