#include "uop/text/text_cursor.h"

#include <bit>
#include <charconv>
#include <limits>

#include "uop/errors.h"

namespace onegrad {

namespace {

bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

void TextCursor::skip_blanks() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (is_blank(c)) {
      pos_++;
    } else if (c == '#' || (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/')) {
      while (pos_ < text_.size() && text_[pos_] != '\n') pos_++;
    } else {
      return;
    }
  }
}

bool TextCursor::skip_to_content() {
  for (;;) {
    skip_blanks();
    if (at_end()) return false;
    if (text_[pos_] != '\n') return true;
    pos_++;
  }
}

bool TextCursor::at_line_end() {
  skip_blanks();
  return at_end() || text_[pos_] == '\n';
}

void TextCursor::expect_line_end(std::string_view after) {
  if (!at_line_end()) fail_expected("end of line after " + std::string(after));
  if (!at_end()) pos_++;
}

char TextCursor::peek() {
  skip_blanks();
  return at_end() ? '\0' : text_[pos_];
}

bool TextCursor::consume(char c) {
  if (peek() != c || at_end()) return false;
  pos_++;
  return true;
}

void TextCursor::expect(char c, std::string_view what) {
  if (!consume(c)) fail_expected(std::string("'") + c + "' " + std::string(what));
}

bool TextCursor::consume_word(std::string_view word) {
  skip_blanks();
  if (text_.substr(pos_, word.size()) != word) return false;
  size_t end = pos_ + word.size();
  if (end < text_.size() && is_ident_char(text_[end])) return false;
  pos_ = end;
  return true;
}

std::string_view TextCursor::identifier() {
  skip_blanks();
  size_t start = pos_;
  if (pos_ < text_.size() && is_ident_start(text_[pos_])) {
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) pos_++;
  }
  return text_.substr(start, pos_ - start);
}

std::string_view TextCursor::device_word() {
  skip_blanks();
  size_t start = pos_;
  if (pos_ < text_.size() && is_ident_start(text_[pos_])) {
    while (pos_ < text_.size() && (is_ident_char(text_[pos_]) || text_[pos_] == ':' || text_[pos_] == '.')) pos_++;
  }
  return text_.substr(start, pos_ - start);
}

std::string_view TextCursor::value_name() {
  skip_blanks();
  if (at_end() || text_[pos_] != '%') fail_expected("a value name like %3");
  size_t start = ++pos_;
  while (pos_ < text_.size() && (is_ident_char(text_[pos_]) || text_[pos_] == '.')) pos_++;
  if (pos_ == start) fail_at(start, "expected a name after '%'");
  return text_.substr(start, pos_ - start);
}

std::string_view TextCursor::number_token() {
  skip_blanks();
  size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') pos_++;
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (is_ident_char(c) || c == '.') {
      pos_++;
    } else if ((c == '+' || c == '-') && pos_ > start && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E')) {
      pos_++;  // the sign of an exponent
    } else {
      break;
    }
  }
  return text_.substr(start, pos_ - start);
}

std::string TextCursor::quoted_string() {
  skip_blanks();
  size_t start = pos_;
  if (at_end() || text_[pos_] != '"') fail_expected("a quoted string");
  pos_++;
  std::string out;
  for (;;) {
    if (pos_ >= text_.size() || text_[pos_] == '\n') fail_at(start, "unterminated string (a string ends on its line)");
    char c = text_[pos_++];
    if (c == '"') return out;
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (pos_ >= text_.size()) fail_at(start, "unterminated string");
    char e = text_[pos_++];
    switch (e) {
      case '\\': out.push_back('\\'); break;
      case '"': out.push_back('"'); break;
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case '0': out.push_back('\0'); break;
      case 'x': {
        int hi = pos_ < text_.size() ? hex_digit(text_[pos_]) : -1;
        int lo = pos_ + 1 < text_.size() ? hex_digit(text_[pos_ + 1]) : -1;
        if (hi < 0 || lo < 0) fail_at(pos_ - 2, "expected two hex digits after \\x");
        out.push_back(char(hi * 16 + lo));
        pos_ += 2;
        break;
      }
      default: fail_at(pos_ - 2, "unknown escape in string (known: \\\\ \\\" \\n \\t \\r \\0 \\xHH)");
    }
  }
}

int64_t TextCursor::int64_value(std::string_view what) {
  skip_blanks();
  size_t start = pos_;
  // Only digits here: const_value() would also take true/false/inf/nan, which are not int64s.
  char c = at_end() ? '\0' : text_[pos_];
  if (c != '-' && !is_digit(c)) fail_expected(std::string(what) + " (an int64)");
  ConstValue v = const_value();
  if (v.is_float() || v.as_int() < std::numeric_limits<int64_t>::min() ||
      v.as_int() > std::numeric_limits<int64_t>::max())
    fail_at(start, "expected " + std::string(what) + " (an int64)");
  return int64_t(v.as_int());
}

ConstValue TextCursor::const_value() {
  skip_blanks();
  size_t start = pos_;
  std::string_view tok = number_token();
  if (tok.empty() || tok == "-") {
    pos_ = start;
    fail_expected("a number");
  }
  if (tok == "true") return ConstValue::from_bool(true);
  if (tok == "false") return ConstValue::from_bool(false);
  if (tok == "inf") return ConstValue::from_float(std::numeric_limits<double>::infinity());
  if (tok == "-inf") return ConstValue::from_float(-std::numeric_limits<double>::infinity());
  if (tok == "nan" || tok == "-nan") {
    // nan(0x...) spells out the bits of a NaN other than the default quiet one.
    if (tok == "nan" && pos_ < text_.size() && text_[pos_] == '(') {
      pos_++;
      std::string_view hex = number_token();
      uint64_t bits = 0;
      bool ok = hex.size() == 18 && hex.starts_with("0x");
      for (size_t i = 2; ok && i < hex.size(); i++) {
        int d = hex_digit(hex[i]);
        ok = d >= 0;
        bits = bits * 16 + uint64_t(d < 0 ? 0 : d);
      }
      double f = std::bit_cast<double>(bits);
      if (!ok || f == f) fail_at(start, "expected nan(0x<16 hex digits of a NaN>)");
      if (!consume(')')) fail_expected("')' closing nan(");
      return ConstValue::from_float(f);
    }
    double q = std::numeric_limits<double>::quiet_NaN();
    return ConstValue::from_float(tok == "nan" ? q : -q);
  }
  bool is_float = tok.find_first_of(".eE") != std::string_view::npos;
  if (is_float) {
    double f = 0;
    auto [end, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), f);
    if (ec != std::errc() || end != tok.data() + tok.size())
      fail_at(start, "bad number '" + std::string(tok) + "' (floats are shortest round-trip decimals, inf, nan)");
    return ConstValue::from_float(f);
  }
  bool neg = tok[0] == '-';
  std::string_view digits = tok.substr(neg ? 1 : 0);
  using u128 = unsigned __int128;
  const u128 limit = (u128(1) << 127) - (neg ? 0 : 1);  // |i128 min| = 2^127
  u128 mag = 0;
  for (char c : digits) {
    if (!is_digit(c)) fail_at(start, "bad number '" + std::string(tok) + "'");
    u128 next = mag * 10 + u128(c - '0');
    if (mag > limit / 10 || next > limit) fail_at(start, "integer '" + std::string(tok) + "' does not fit in 128 bits");
    mag = next;
  }
  return ConstValue::from_int(neg ? i128(u128(0) - mag) : i128(mag));
}

DType TextCursor::dtype_value() {
  skip_blanks();
  size_t start = pos_;
  std::string_view name = identifier();
  if (name.empty()) fail_expected("a dtype");
  if (name == "ptr" && pos_ < text_.size() && text_[pos_] == '<') {
    size_t close = text_.find('>', pos_);
    size_t eol = text_.find('\n', pos_);
    if (close == std::string_view::npos || close > eol) fail_at(pos_, "expected '>' closing ptr<");
    pos_ = close + 1;
    name = text_.substr(start, pos_ - start);
  }
  std::optional<DType> dt = try_parse_dtype(name);
  if (!dt) fail_at(start, "unknown dtype '" + std::string(name) + "'");
  return *dt;
}

std::string TextCursor::found_text() const {
  if (pos_ >= text_.size()) return "end of input";
  if (text_[pos_] == '\n') return "end of line";
  size_t end = pos_;
  while (end < text_.size() && end - pos_ < 16 && text_[end] != '\n' && !is_blank(text_[end])) end++;
  if (end == pos_) end = pos_ + 1;
  return quote_string(text_.substr(pos_, end - pos_));
}

void TextCursor::fail_expected(std::string_view what) {
  skip_blanks();
  fail_at(pos_, "expected " + std::string(what) + ", found " + found_text());
}

void TextCursor::fail_at(size_t pos, const std::string& msg) const {
  int line = 1, column = 1;
  for (size_t i = 0; i < pos && i < text_.size(); i++) {
    if (text_[i] == '\n') {
      line++;
      column = 1;
    } else {
      column++;
    }
  }
  throw ParseError("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + msg, line, column);
}

std::string quote_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (u < 0x20 || u >= 0x7f) {  // keep the text plain ASCII, one line
          out += "\\x";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 15]);
        } else {
          out.push_back(c);
        }
    }
  }
  return out + "\"";
}

bool is_bare_device_name(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0]) || s == "NULL") return false;
  for (char c : s)
    if (!is_ident_char(c) && c != ':' && c != '.') return false;
  return true;
}

}  // namespace onegrad
