// A cursor over UOp graph text, shared by the graph parser and the arg parser: it skips blanks and
// comments, reads the small tokens the format is made of, and turns every mistake into a
// ParseError that names the line, the column, what was expected and what was found.
//
// Newlines are significant (one node per line), so skipping never crosses one; the parser asks
// for the next line explicitly. Line and column are computed only when an error is raised, so the
// happy path stays a single forward scan.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "uop/const_value.h"

namespace onegrad {

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  // Skip spaces, tabs, carriage returns and comments (`#` or `//` to the end of the line).
  void skip_blanks();
  // Skip blanks and whole blank/comment lines. Returns false at the end of the text.
  bool skip_to_content();
  // After skip_blanks: at a newline or the end of the text.
  bool at_line_end();
  // Consume the newline that ends a statement (or accept the end of the text).
  void expect_line_end(std::string_view after);

  // The next character after skip_blanks ('\0' at the end; the text may hold '\0' itself, so
  // callers that care check at_end()).
  char peek();
  bool at_end() const { return pos_ >= text_.size(); }
  // Consume `c` if it comes next (after blanks).
  bool consume(char c);
  void expect(char c, std::string_view what);
  // Consume `word` followed by a non-identifier character.
  bool consume_word(std::string_view word);

  // [A-Za-z_][A-Za-z0-9_]*, or empty when none starts here.
  std::string_view identifier();
  // A bare device name: an identifier that may also hold ':' and '.' ("CPU:0"); empty if none.
  std::string_view device_word();
  // A %name: '%' then [A-Za-z0-9_.]+. Returns the name without '%'.
  std::string_view value_name();
  // A number-like token: optional '-', then [A-Za-z0-9_.] with a sign allowed after an exponent.
  std::string_view number_token();
  // A quoted string with escapes (\\ \" \n \t \r \0 \xHH).
  std::string quoted_string();

  int64_t int64_value(std::string_view what);
  ConstValue const_value();
  // A dtype name as DType::name() writes it ("float32", "ptr<float32, LOCAL>").
  DType dtype_value();

  size_t pos() const { return pos_; }
  // Go back to an earlier position (for one-word lookahead).
  void reset(size_t pos) { pos_ = pos; }
  // The identifier that comes next, without consuming it.
  std::string_view peek_identifier() {
    size_t p = pos_;
    std::string_view w = identifier();
    pos_ = p;
    return w;
  }
  // Throw "expected <what>, found <next token>" at the current position.
  [[noreturn]] void fail_expected(std::string_view what);
  // Throw `msg` at byte offset `pos`.
  [[noreturn]] void fail_at(size_t pos, const std::string& msg) const;

 private:
  std::string found_text() const;
  std::string_view text_;
  size_t pos_ = 0;
};

// Byte-exact escaping used by the printer; quoted_string() reads it back.
std::string quote_string(std::string_view s);
// True when `s` can be printed as a bare word inside a device (letters, digits, _ : .).
bool is_bare_device_name(std::string_view s);

}  // namespace onegrad
