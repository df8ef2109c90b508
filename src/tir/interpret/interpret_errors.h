// The typed run-time errors of the TIR interpreter (tir/interpret/interpret.h). Each carries the source line
// of the construct that failed, so a user can find it in the TVMScript text.
#pragma once
#include <string>
#include <utility>

#include "tir/ast/expr.h"
#include "uop/errors.h"

namespace onegrad::tir {

// The text of a run-time error around the one value known only when it happens (a dividend, an
// index). The interpreter fills it in at once; compiled code keeps `before` and `after` and fills
// in the value its kernel reports, so both raise the same message.
struct MessageAround {
  std::string before, after;
  std::string with(const std::string& value) const { return before + value + after; }
};

// "FloorDiv: integer division by zero (<dividend> / 0, int32)"
inline MessageAround division_by_zero_message(ExprKind kind, DataType t) {
  return {std::string(expr_kind_name(kind)) + ": integer division by zero (", " / 0, " + t.name() + ")"};
}

// "index <index> is out of bounds of buffer A with shape (4,)"
inline MessageAround out_of_bounds_message(const std::string& buffer, const std::string& shape) {
  return {"index ", " is out of bounds of buffer " + buffer + " with shape " + shape};
}

// Base of every error the interpreter raises while running a program: "line 7: <what>".
struct TirRuntimeError : Error {
  TirRuntimeError(const std::string& what, int line)
      : Error("line " + std::to_string(line) + ": " + what), what_only(what), line(line) {}
  std::string what_only;
  int line;
};

// Div, Mod, FloorDiv or FloorMod of integers with a zero divisor (spec/README decision 7).
struct TirDivisionByZero : TirRuntimeError {
  using TirRuntimeError::TirRuntimeError;
};

// An AssertStmt whose condition was false; message is the assert's own text.
struct TirAssertionError : TirRuntimeError {
  TirAssertionError(const std::string& message, int line)
      : TirRuntimeError("assertion failed: " + message, line), message(message) {}
  std::string message;
};

// A BufferLoad/BufferStore outside the buffer's shape: names the buffer and the index.
struct TirIndexError : TirRuntimeError {
  TirIndexError(const std::string& what, std::string buffer, int line)
      : TirRuntimeError(what, line), buffer(std::move(buffer)) {}
  std::string buffer;
};

}  // namespace onegrad::tir

namespace onegrad::tir {

// Arguments that do not fit the called PrimFunc's parameters (spec: "Semantics of Statements" 1.ii,
// tir/interpret/bind_arguments.h): a wrong count, a scalar for a buffer, a dtype, rank, extent, stride or
// offset that the buffer's declaration rules out, two arrays that overlap. Names the function and
// the parameter ("buffer A" or "parameter n"); the message holds both the actual and the declared value.
struct TirArgumentError : TirRuntimeError {
  TirArgumentError(std::string function, std::string parameter, const std::string& what, int line)
      : TirRuntimeError("call of " + function + ": " + (parameter.empty() ? "" : parameter + ": ") + what, line),
        function(std::move(function)), parameter(std::move(parameter)), detail(what) {}
  // The same error reported at another line (a nested call's call site).
  TirArgumentError at_line(int other) const { return TirArgumentError(function, parameter, detail, other); }
  std::string function;
  std::string parameter;  // "buffer A", "buffer A (parameter a)", "parameter n"; empty for the count
  std::string detail;     // what is wrong, without the function and parameter
};

}  // namespace onegrad::tir
