// The typed exceptions of the TIR front end. Text that does not parse as TVMScript (the dialect of
// spec/README.md) raises TirSyntaxError: a ParseError, so callers that already catch text errors
// catch it too, carrying the line and column of the offending token.
#pragma once
#include <string>

#include "uop/errors.h"

namespace onegrad::tir {

struct TirSyntaxError : ParseError {
  TirSyntaxError(const std::string& what, int line, int column)
      : ParseError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what,
                   line, column),
        what_only(what) {}
  std::string what_only;  // the message without the position prefix
};

}  // namespace onegrad::tir
