// The typed exceptions of the TIR front end. Text that does not parse as TVMScript (the dialect of
// spec/README.md) raises TirSyntaxError: a ParseError, so callers that already catch text errors
// catch it too, carrying the line and column of the offending token.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "uop/errors.h"

namespace onegrad::tir {

struct TirSyntaxError : ParseError {
  TirSyntaxError(const std::string& what, int line, int column)
      : ParseError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what,
                   line, column),
        what_only(what) {}
  std::string what_only;  // the message without the position prefix
};

// One violation of a typing rule of the spec, found by the type checker (tir/check/type_check.h).
struct TypeIssue {
  std::string rule;     // the construct whose rule is broken: "Cast", "For", "MatchBufferRegion", ...
  std::string message;  // what is wrong, with the types involved
  int line = 0;
  int column = 0;
  // Set where TVM accepts what the spec refuses (docs/tir.md "Where the spec and TVM disagree"): the
  // spec's rule, as "PrimExprs 7.2". Such an issue is a warning unless the check is strict.
  std::string tvm_accepts;

  // "line 4, column 9: For: ..."
  std::string to_string() const {
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + rule + ": " + message;
  }
  // The same with the rule of the spec it breaks and what strict checking does about it.
  std::string warning_string() const { return to_string() + " " + spec_note(); }
  std::string spec_note() const {
    return "[spec rule " + tvm_accepts + " refuses this, TVM accepts it; an error under --strict / strict=True]";
  }
};

// A program that breaks the spec's typing rules: every issue found, in source order; line and
// column are those of the first.
struct TirTypeError : Error {
  explicit TirTypeError(std::vector<TypeIssue> found)
      : Error(join(found)), issues(std::move(found)),
        line(issues.empty() ? 0 : issues[0].line), column(issues.empty() ? 0 : issues[0].column) {}
  std::vector<TypeIssue> issues;
  int line, column;

 private:
  static std::string join(const std::vector<TypeIssue>& found) {
    std::string s;
    for (const TypeIssue& i : found) s += (s.empty() ? "" : "\n") + i.to_string();
    return s;
  }
};

}  // namespace onegrad::tir
