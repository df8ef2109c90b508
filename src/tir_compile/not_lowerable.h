// A construct the TIR lowering (docs/tir.md, "Compiling") does not turn into UOps yet. The message
// names the construct and its source line; such a function still runs through the interpreter.
#pragma once
#include <string>

#include "uop/errors.h"

namespace onegrad::tir {

struct TirNotLowerable : Error {
  TirNotLowerable(const std::string& construct, const std::string& why, int line)
      : Error("line " + std::to_string(line) + ": " + construct + " cannot be compiled: " + why),
        construct(construct), why(why), line(line) {}
  std::string construct;  // "While", "tir.call_extern", "PrimFunc call", ...
  std::string why;
  int line;
};

}  // namespace onegrad::tir
