// Python tokens for TVMScript: names, numbers, strings, operators, and the NEWLINE / INDENT /
// DEDENT structure of indentation. Newlines inside brackets and after a backslash join lines;
// comments and blank lines vanish. Every token carries its line and column (1-based).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace onegrad::tir {

enum class TokenKind : uint8_t { Name, Int, Float, String, Op, Newline, Indent, Dedent, End };

struct Token {
  TokenKind kind;
  std::string text;  // the name, operator or (unescaped) string contents
  int line = 0;
  int column = 0;
  int64_t int_value = 0;
  // Int: the value is in [2^63, 2^64) and int_value holds its bits (only a uint64 literal takes it).
  bool above_int64 = false;
  double float_value = 0;
};

// Throws TirSyntaxError for text Python itself would reject (bad indentation, an unterminated
// string, a stray character, an integer above 2^64 - 1).
std::vector<Token> tokenize(std::string_view text);

const char* token_kind_name(TokenKind k);

}  // namespace onegrad::tir
