// parse_expr: a recursive-descent parser for the Python expression grammar in expr_text.h.
#include <cctype>
#include <vector>

#include "uop/errors.h"
#include "uop/text/expr_text.h"

namespace onegrad {

namespace {

enum class Tok { Int, Name, Op, End };

struct Token {
  Tok kind;
  std::string text;
  int column;  // 1-based
  i128 value = 0;
};

// Deeper nesting is refused instead of overflowing the stack (under sanitizers too); Python itself
// stops at 200 nested parentheses.
constexpr int kMaxDepth = 500;

class ExprParser {
 public:
  ExprParser(std::string_view text, const std::map<std::string, UOpRef>& vars) : text_(text), vars_(vars) {
    tokenize();
  }

  UOpRef parse() {
    UOpRef e = expr();
    if (peek().kind != Tok::End) fail(peek(), "unexpected '" + peek().text + "' after the expression");
    return e;
  }

 private:
  [[noreturn]] void fail(const Token& at, const std::string& what) { fail_at(at.column, what); }
  [[noreturn]] void fail_at(int column, const std::string& what) {
    throw ParseError("column " + std::to_string(column) + ": " + what + "\n" + caret_line(text_, column), 1, column);
  }

  void tokenize() {
    static const char* kOps[] = {"//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "%", "<", ">",
                                 "(",  ")",  ",",  "&",  "|",  "^"};
    size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      int col = int(i) + 1;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        Token t{Tok::Int, "", col};
        while (i < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[i])) || text_[i] == '_')) {
          if (text_[i] != '_') {
            if (t.value > (~(i128(1) << 127)) / 10 - 10) fail_at(col, "integer literal is too large");
            t.value = t.value * 10 + (text_[i] - '0');
          }
          t.text.push_back(text_[i++]);
        }
        if (t.text.back() == '_') fail_at(col, "invalid integer literal '" + t.text + "'");
        if (i < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[i])) || text_[i] == '.'))
          fail_at(int(i) + 1, std::string("unexpected '") + text_[i] + "' in a number (only integers are allowed)");
        tokens_.push_back(t);
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        Token t{Tok::Name, "", col};
        while (i < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i])) || text_[i] == '_'))
          t.text.push_back(text_[i++]);
        tokens_.push_back(t);
      } else {
        bool matched = false;
        for (const char* op : kOps) {
          if (text_.substr(i).starts_with(op)) {
            tokens_.push_back({Tok::Op, op, col});
            i += std::string_view(op).size();
            matched = true;
            break;
          }
        }
        if (!matched) {
          if (c == '/') fail_at(col, "'/' is true division; use '//' for floor division");
          fail_at(col, std::string("unexpected character '") + c + "'");
        }
      }
    }
    tokens_.push_back({Tok::End, "end of input", int(text_.size()) + 1});
  }

  const Token& peek() const { return tokens_[pos_]; }
  bool at_op(std::string_view op) const { return peek().kind == Tok::Op && peek().text == op; }
  bool at_name(std::string_view n) const { return peek().kind == Tok::Name && peek().text == n; }
  Token take() { return tokens_[pos_++]; }
  void expect_op(std::string_view op, const std::string& context) {
    if (!at_op(op)) fail(peek(), "expected '" + std::string(op) + "' " + context + ", found '" + peek().text + "'");
    pos_++;
  }

  struct DepthGuard {
    ExprParser& p;
    explicit DepthGuard(ExprParser& p) : p(p) {
      if (++p.depth_ > kMaxDepth) p.fail(p.peek(), "expression is nested too deeply");
    }
    ~DepthGuard() { p.depth_--; }
  };

  // Python counts bool as int in arithmetic.
  static UOpRef as_int(const UOpRef& u) { return u->dtype.is_bool() ? cast(u, dtypes::index) : u; }
  static UOpRef as_bool(const UOpRef& u) { return u->dtype.is_bool() ? u : ne(u, 0); }
  static void unify(UOpRef& a, UOpRef& b) {
    if (a->dtype != b->dtype) {
      a = as_int(a);
      b = as_int(b);
    }
  }

  UOpRef expr() {
    DepthGuard guard(*this);
    UOpRef value = compare();
    if (!at_name("if")) return value;
    take();
    UOpRef cond = compare();
    if (!at_name("else")) fail(peek(), "expected 'else' in a conditional expression, found '" + peek().text + "'");
    take();
    UOpRef other = expr();
    unify(value, other);
    return where(as_bool(cond), value, other);
  }

  UOpRef compare() {
    UOpRef left = bit_or();
    UOpRef result;
    static const char* kCmps[] = {"<", "<=", ">", ">=", "==", "!="};
    while (peek().kind == Tok::Op) {
      std::string op = peek().text;
      bool is_cmp = false;
      for (const char* c : kCmps) is_cmp |= op == c;
      if (!is_cmp) break;
      take();
      UOpRef right = bit_or();
      UOpRef a = left, b = right;
      unify(a, b);
      UOpRef truth = UOp::const_bool(true);
      UOpRef c;
      if (op == "<") c = a < b;
      else if (op == ">") c = b < a;                 // CMPGT = CMPLT(b, a)
      else if (op == "<=") c = ne(b < a, truth);      // CMPLE = CMPNE(CMPLT(b, a), 1)
      else if (op == ">=") c = ne(a < b, truth);      // CMPGE = CMPNE(CMPLT(a, b), 1)
      else if (op == "==") c = eq(a, b);
      else c = ne(a, b);
      result = result ? UOp::alu(Ops::AND, {result, c}) : c;  // a < b < c means a < b and b < c
      left = right;
    }
    return result ? result : left;
  }

  UOpRef binary_chain(UOpRef (ExprParser::*next)(), std::initializer_list<std::pair<const char*, Ops>> ops) {
    UOpRef left = (this->*next)();
    for (;;) {
      const std::pair<const char*, Ops>* found = nullptr;
      for (const auto& p : ops)
        if (at_op(p.first)) found = &p;
      if (!found) return left;
      take();
      UOpRef right = (this->*next)();
      unify(left, right);
      left = UOp::alu(found->second, {left, right});
    }
  }

  UOpRef bit_or() { return binary_chain(&ExprParser::bit_xor, {{"|", Ops::OR}}); }
  UOpRef bit_xor() { return binary_chain(&ExprParser::bit_and, {{"^", Ops::XOR}}); }
  UOpRef bit_and() { return binary_chain(&ExprParser::shift, {{"&", Ops::AND}}); }
  UOpRef shift() {
    UOpRef left = sum();
    while (at_op("<<") || at_op(">>")) {
      Ops op = take().text == "<<" ? Ops::SHL : Ops::SHR;
      UOpRef right = sum();
      left = UOp::alu(op, {as_int(left), as_int(right)});
    }
    return left;
  }

  UOpRef sum() {
    UOpRef left = term();
    while (at_op("+") || at_op("-")) {
      bool plus = take().text == "+";
      UOpRef right = as_int(term());
      left = plus ? as_int(left) + right : as_int(left) - right;
    }
    return left;
  }

  UOpRef term() {
    UOpRef left = unary();
    while (at_op("*") || at_op("//") || at_op("%")) {
      std::string op = take().text;
      UOpRef right = as_int(unary());
      UOpRef l = as_int(left);
      left = op == "*" ? l * right : op == "//" ? idiv(l, right) : l % right;
    }
    return left;
  }

  UOpRef unary() {
    DepthGuard guard(*this);
    if (at_op("-")) {
      take();
      UOpRef v = unary();
      if (v->is_const()) return UOp::index(-v->const_value().as_int());  // a negative literal
      return -as_int(v);
    }
    if (at_op("+")) {
      take();
      return as_int(unary());
    }
    return atom();
  }

  UOpRef atom() {
    const Token& t = peek();
    if (t.kind == Tok::Int) return UOp::index(take().value);
    if (t.kind == Tok::Op && t.text == "(") {
      take();
      UOpRef e = expr();
      expect_op(")", "to close '('");
      return e;
    }
    if (t.kind == Tok::Name) {
      Token name = take();
      if (name.text == "True" || name.text == "False") return UOp::const_bool(name.text == "True");
      if (name.text == "min" || name.text == "max") {
        expect_op("(", "after '" + name.text + "'");
        std::vector<UOpRef> args{as_int(expr())};
        while (at_op(",")) {
          take();
          args.push_back(as_int(expr()));
        }
        expect_op(")", "to close '" + name.text + "('");
        if (args.size() < 2) fail(name, name.text + "() needs at least two arguments");
        UOpRef r = args[0];
        for (size_t i = 1; i < args.size(); i++) r = name.text == "min" ? minimum(r, args[i]) : maximum(r, args[i]);
        return r;
      }
      if (name.text == "if" || name.text == "else") fail(name, "expected an expression, found '" + name.text + "'");
      auto it = vars_.find(name.text);
      if (it == vars_.end())
        fail(name, "unknown variable '" + name.text + "' (declare it with --var " + name.text + ":MIN:MAX)");
      return it->second;
    }
    fail(t, "expected an expression, found '" + t.text + "'");
  }

  std::string_view text_;
  const std::map<std::string, UOpRef>& vars_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

UOpRef parse_expr(std::string_view text, const std::map<std::string, UOpRef>& vars) {
  return ExprParser(text, vars).parse();
}

std::string caret_line(std::string_view text, int column) {
  std::string line(text.substr(0, text.find('\n')));
  return "  " + line + "\n  " + std::string(size_t(std::max(column - 1, 0)), ' ') + "^";
}

}  // namespace onegrad
