// Index expressions as Python text, both ways. One grammar for input and output, with Python's
// meaning of every operator (`//` and `%` floor, comparisons give bool, bool counts as int):
//
//   expr    := compare ['if' compare 'else' expr]
//   compare := or (('<' | '<=' | '>' | '>=' | '==' | '!=') or)*   (a chain means 'and', as in Python)
//   or      := xor ('|' xor)*       xor := and ('^' and)*       and := shift ('&' shift)*
//   shift   := sum (('<<' | '>>') sum)*
//   sum     := term (('+' | '-') term)*
//   term    := unary (('*' | '//' | '%') unary)*
//   unary   := ('-' | '+') unary | atom
//   atom    := INT | NAME | True | False | ('min' | 'max') '(' expr (',' expr)+ ')' | '(' expr ')'
#pragma once
#include <map>
#include <string>
#include <string_view>

#include "uop/uop.h"

namespace onegrad {

// Parse `text`; names are looked up in `vars` (variables made with UOp::variable). Integers are
// index CONSTs. Throws ParseError (line 1, 1-based column) naming what was expected.
UOpRef parse_expr(std::string_view text, const std::map<std::string, UOpRef>& vars);

// Print an index/bool expression in the same grammar, with as few parentheses as Python needs.
// Decomposed forms print as what they mean: ADD(a, MUL(b, -1)) as `a - b`, MUL(a, -1) as `-a`,
// CMPNE(CMPNE(a, b), True) as `a == b`, -max(-a, -b) as `min(a, b)`, WHERE(c, a, b) as
// `a if c else b`. A RANGE prints as `r<id>`, a SPECIAL as its name. Throws Error for ops that
// have no Python spelling.
std::string print_expr(const UOpRef& expr);

// "  (x*4+\n        ^" : the source line with a caret under `column` (1-based), for messages.
std::string caret_line(std::string_view text, int column);

}  // namespace onegrad
