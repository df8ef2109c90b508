#include "tir/parse/lexer.h"

#include <cerrno>
#include <cstdlib>

#include "tir/ast/errors.h"

namespace onegrad::tir {

const char* token_kind_name(TokenKind k) {
  static const char* const kNames[] = {"name", "integer", "number", "string", "operator",
                                       "end of line", "indent", "dedent", "end of input"};
  return kNames[static_cast<int>(k)];
}

namespace {

// Longest first, so "//=" wins over "//" and "/".
const char* const kOperators[] = {"**=", "//=", ">>=", "<<=", "->", "**", "//", "<<", ">>", "<=", ">=", "==",
                                  "!=",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "(",  ")",  "[",
                                  "]",   "{",   "}",   ",",   ":",  ".",  ";",  "@",  "=",  "+",  "-",  "*",
                                  "/",   "%",   "<",   ">",   "&",  "|",  "^",  "~"};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    while (pos_ < text_.size()) {
      if (at_line_start_ && depth_ == 0) {
        if (!indentation()) continue;
      }
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '\n') {
        if (depth_ == 0) push(TokenKind::Newline, "", col());
        newline();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
        pos_ += 1;
        newline();
        at_line_start_ = false;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        name_or_string();
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && pos_ + 1 < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
        number();
      } else if (c == '"' || c == '\'') {
        string_literal(col());
      } else {
        op();
      }
    }
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) push(TokenKind::Newline, "", col());
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::Dedent, "", 1);
    }
    push(TokenKind::End, "", 1);
    return std::move(tokens_);
  }

 private:
  int col() const { return static_cast<int>(pos_ - line_start_) + 1; }

  [[noreturn]] void fail(const std::string& msg, int column) const { throw TirSyntaxError(msg, line_, column); }

  void push(TokenKind k, std::string text, int column) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.line = line_;
    t.column = column;
    tokens_.push_back(std::move(t));
  }

  void newline() {
    ++pos_;
    ++line_;
    line_start_ = pos_;
    // Inside brackets a newline only joins lines: indentation starts to count after them.
    at_line_start_ = depth_ == 0;
  }

  // Measures the indentation of a logical line and emits INDENT/DEDENT. Returns false when the
  // line is blank or a comment (it is skipped whole).
  bool indentation() {
    int width = 0;
    size_t p = pos_;
    for (; p < text_.size(); ++p) {
      if (text_[p] == ' ') ++width;
      else if (text_[p] == '\t') width = (width / 8 + 1) * 8;
      else if (text_[p] == '\r' || text_[p] == '\f') continue;
      else break;
    }
    pos_ = p;
    if (p >= text_.size()) return false;
    if (text_[p] == '\n') {
      newline();
      return false;
    }
    if (text_[p] == '#') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      return false;
    }
    at_line_start_ = false;
    if (width > indents_.back()) {
      indents_.push_back(width);
      push(TokenKind::Indent, "", col());
    } else {
      while (width < indents_.back()) {
        indents_.pop_back();
        push(TokenKind::Dedent, "", col());
      }
      if (width != indents_.back()) fail("unindent does not match any outer indentation level", col());
    }
    return true;
  }

  void name_or_string() {
    size_t start = pos_;
    int column = col();
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    std::string word(text_.substr(start, pos_ - start));
    // r"..." / b"..." / f"..." prefixes: read the string that follows (no escapes are special in r).
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'') && word.size() <= 2 &&
        word.find_first_not_of("rRbBuU") == std::string::npos) {
      string_literal(column, word.find_first_of("rR") != std::string::npos);
      return;
    }
    push(TokenKind::Name, std::move(word), column);
  }

  void number() {
    size_t start = pos_;
    int column = col();
    bool is_float = false;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X' ||
                                                          text_[pos_ + 1] == 'b' || text_[pos_ + 1] == 'B' ||
                                                          text_[pos_ + 1] == 'o' || text_[pos_ + 1] == 'O')) {
      pos_ += 2;
      while (pos_ < text_.size() && (std::isxdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    } else {
      while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '_') {
          ++pos_;
        } else if (c == '.' && !is_float) {
          is_float = true;
          ++pos_;
        } else if ((c == 'e' || c == 'E')) {
          is_float = true;
          ++pos_;
          if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
        } else {
          break;
        }
      }
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      fail("invalid number '" + std::string(text_.substr(start, pos_ + 1 - start)) + "'", column);
    std::string digits;
    for (char c : text_.substr(start, pos_ - start))
      if (c != '_') digits += c;
    Token t;
    t.line = line_;
    t.column = column;
    t.text = digits;
    errno = 0;
    char* end = nullptr;
    if (is_float) {
      t.kind = TokenKind::Float;
      t.float_value = std::strtod(digits.c_str(), &end);
    } else {
      t.kind = TokenKind::Int;
      int base = 10;
      std::string body = digits;
      if (digits.size() > 1 && digits[0] == '0' && std::isalpha(static_cast<unsigned char>(digits[1]))) {
        char b = static_cast<char>(std::tolower(digits[1]));
        base = b == 'x' ? 16 : b == 'b' ? 2 : 8;
        body = digits.substr(2);
      }
      unsigned long long v = std::strtoull(body.c_str(), &end, base);
      if (body.empty() || *end != '\0') fail("invalid number '" + digits + "'", column);
      if (errno == ERANGE)
        fail("integer literal " + digits + " does not fit in 64 bits (the largest, uint64's, is 18446744073709551615)", column);
      t.int_value = static_cast<int64_t>(v);
      t.above_int64 = v > static_cast<unsigned long long>(INT64_MAX);
      end = nullptr;
    }
    if (is_float && (end == nullptr || *end != '\0')) fail("invalid number '" + digits + "'", column);
    tokens_.push_back(std::move(t));
  }

  void string_literal(int column, bool raw = false) {
    char quote = text_[pos_];
    bool triple = text_.substr(pos_, 3) == std::string(3, quote);
    pos_ += triple ? 3 : 1;
    std::string value;
    int start_line = line_;
    while (true) {
      if (pos_ >= text_.size()) throw TirSyntaxError("unterminated string", start_line, column);
      char c = text_[pos_];
      if (triple ? text_.substr(pos_, 3) == std::string(3, quote) : c == quote) {
        pos_ += triple ? 3 : 1;
        break;
      }
      if (c == '\n') {
        if (!triple) throw TirSyntaxError("unterminated string", start_line, column);
        value += c;
        ++pos_;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (c == '\\' && !raw && pos_ + 1 < text_.size()) {
        char e = text_[pos_ + 1];
        pos_ += 2;
        switch (e) {
          case 'n': value += '\n'; break;
          case 't': value += '\t'; break;
          case 'r': value += '\r'; break;
          case '0': value += '\0'; break;
          case '\\': value += '\\'; break;
          case '\'': value += '\''; break;
          case '"': value += '"'; break;
          case '\n': ++line_; line_start_ = pos_; break;
          case 'x': {
            if (pos_ + 2 > text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_])) ||
                !std::isxdigit(static_cast<unsigned char>(text_[pos_ + 1])))
              fail("\\x needs two hex digits", col());
            value += static_cast<char>(std::stoi(std::string(text_.substr(pos_, 2)), nullptr, 16));
            pos_ += 2;
            break;
          }
          default: value += '\\'; value += e;
        }
        continue;
      }
      value += c;
      ++pos_;
    }
    Token t;
    t.kind = TokenKind::String;
    t.text = std::move(value);
    t.line = start_line;
    t.column = column;
    tokens_.push_back(std::move(t));
  }

  void op() {
    int column = col();
    for (const char* o : kOperators) {
      std::string_view sv(o);
      if (text_.substr(pos_, sv.size()) == sv) {
        if (sv == "(" || sv == "[" || sv == "{") ++depth_;
        if ((sv == ")" || sv == "]" || sv == "}") && depth_ > 0) --depth_;
        pos_ += sv.size();
        push(TokenKind::Op, std::string(sv), column);
        return;
      }
    }
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    std::string shown = c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : "\\x" + std::to_string(c);
    fail("unexpected character '" + shown + "'", column);
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  int depth_ = 0;
  bool at_line_start_ = true;
  std::vector<int> indents_;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text) { return Lexer(text).run(); }

}  // namespace onegrad::tir
