// Arrays a compiled PrimFunc allocates on the heap (docs/tir.md, "Compiling: storage"). A kernel's
// own arrays are C arrays on its stack while they are small and of constant size; a larger one (a
// convolution's padded input) or one whose extents are computed from the parameters becomes a
// hidden buffer slot after the parameters (and the status slot), which the host allocates before
// the launch, zeroed as the interpreter's are, and frees when the call ends on any path.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <optional>

#include "tir/ast/expr.h"
#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

// An extent as the host computes it from the call's variable slots: integer literals, slot
// variables, casts and the binary arithmetic operators, with the interpreter's wraparound.
struct SizeExpr {
  ExprKind kind = ExprKind::IntImm;
  DataType dtype;
  int64_t value = 0;  // IntImm: the value; Var: the variable slot
  std::vector<SizeExpr> operands;
};

// `e` as a SizeExpr, its Vars found in `slots` (variable slot -> Var); nullopt when it uses
// anything else (a loop variable, a let, a load), whose value only the kernel knows.
std::optional<SizeExpr> size_expr(const PrimExpr& e, const std::vector<const VarNode*>& slots);

struct HeapArray {
  DataType elem;                  // its dtype (lanes counted by element_bytes)
  std::vector<SizeExpr> extents;  // row-major elements: their product (a strided buffer: one extent)
  std::string what;               // "Allocate", "T.alloc_buffer", ... for the error
  int line = 0;
};

// An allocation whose size is negative or beyond the interpreter's limit (interpret.h:
// InterpretLimits::max_allocation_bytes). run_compiled answers it by running the interpreter,
// which raises its own error where the program reaches the allocation (or runs correctly when it
// never does), so compiled code and the interpreter fail alike.
struct TirHeapSizeError : TirRuntimeError {
  using TirRuntimeError::TirRuntimeError;
};

// The heap arrays of one call, allocated from the variable slots' values (as encode_variable
// wrote them) and freed with it. Throws TirHeapSizeError.
class HeapFrame {
 public:
  HeapFrame(const std::vector<HeapArray>& arrays, const std::vector<const VarNode*>& slots, const std::vector<int64_t>& vars);
  const std::vector<void*>& pointers() const { return pointers_; }

 private:
  std::vector<std::unique_ptr<void, void (*)(void*)>> owned_;
  std::vector<void*> pointers_;
};

// How many heap arrays compiled calls have allocated in this process (a test's counter).
uint64_t heap_arrays_allocated_count();

}  // namespace onegrad::tir
