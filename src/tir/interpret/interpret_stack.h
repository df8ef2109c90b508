// How deep the interpreter may recurse: TIR recursion (PrimFunc calls) and long statement chains
// recurse in C++, so a run checks the thread's remaining stack and raises a TirRuntimeError well
// before it would overflow, whatever the thread's stack size or the build's frame sizes (sanitizer
// builds use several times more stack per frame).
#pragma once
#include <cstdint>

namespace onegrad::tir {

class StackGuard {
 public:
  // Allows the calling thread three quarters of the stack it has left now.
  StackGuard();
  // Throws TirRuntimeError at `line` when the budget is spent.
  void check(int line) const;

 private:
  uintptr_t limit_ = 0;  // the lowest frame address allowed (stacks grow down)
};

}  // namespace onegrad::tir
