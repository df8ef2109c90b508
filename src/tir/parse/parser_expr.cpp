// Python expressions, by precedence from the conditional expression down to atoms, evaluated as
// they are parsed (see parser_impl.h for what a Value is).
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

namespace {

// Expressions nest this deep at most: enough for any real program, and a recursion bound for
// hostile input.
constexpr int kMaxDepth = 200;

struct DepthGuard {
  Parser& p;
  explicit DepthGuard(Parser& parser) : p(parser) {
    if (++p.depth_ > kMaxDepth) p.fail_here("expression nested too deeply");
  }
  ~DepthGuard() { --p.depth_; }
};

bool is_keyword(const std::string& s) {
  static const char* const kKeywords[] = {"and", "or", "not", "if", "else", "for", "in", "while", "with", "as",
                                          "def", "class", "return", "assert", "pass", "break", "continue",
                                          "elif", "import", "from", "lambda", "is"};
  for (const char* k : kKeywords)
    if (s == k) return true;
  return false;
}

// A binary operator's value is located at its left operand, where the expression starts.
Value at_start(Value v, SourceLoc start) {
  v.loc = start;
  return v;
}

}  // namespace

const Token& Parser::peek(size_t ahead) const {
  size_t i = std::min(pos_ + ahead, toks_.size() - 1);
  return toks_[i];
}

const Token& Parser::next() {
  const Token& t = toks_[pos_];
  if (pos_ + 1 < toks_.size()) ++pos_;
  return t;
}

bool Parser::at_op(const char* op, size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Op && t.text == op;
}

bool Parser::at_name(const char* name, size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Name && t.text == name;
}

bool Parser::accept_op(const char* op) {
  if (!at_op(op)) return false;
  next();
  return true;
}

SourceLoc Parser::loc() const { return {peek().line, peek().column}; }

void Parser::fail_here(const std::string& msg) const { fail(msg, loc()); }

namespace {
std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Op: return "'" + t.text + "'";
    case TokenKind::Int:
    case TokenKind::Float: return t.text;
    case TokenKind::String: return "a string";
    default: return token_kind_name(t.kind);
  }
}
}  // namespace

void Parser::expect_op(const char* op, const char* context) {
  if (!accept_op(op)) fail_here(std::string("expected '") + op + "' " + context + ", found " + describe(peek()));
}

std::string Parser::expect_name(const char* context) {
  if (peek().kind != TokenKind::Name || is_keyword(peek().text))
    fail_here(std::string("expected a name ") + context + ", found " + describe(peek()));
  return next().text;
}

void Parser::expect_newline() {
  if (peek().kind == TokenKind::End) return;
  if (peek().kind != TokenKind::Newline) fail_here("expected end of line, found " + describe(peek()));
  next();
}

const Value* Parser::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
    if (auto f = it->find(name); f != it->end()) return &f->second;
  return nullptr;
}

Value Parser::expression() {
  DepthGuard guard(*this);
  return ternary();
}

Value Parser::ternary() {
  Value a = or_test();
  if (!at_name("if")) return a;
  SourceLoc l = loc();
  next();
  Value c = or_test();
  if (!at_name("else")) fail_here("expected 'else' in a conditional expression, found " + describe(peek()));
  next();
  Value b = ternary();
  if (c.is_py_number()) return (c.kind == Value::Kind::Float ? c.f != 0 : c.i != 0) ? a : b;
  // `a if c else b` is T.if_then_else(c, a, b): lazy, unlike T.Select (tir-notes 1.3).
  auto [x, y] = match_types(a, b, l);
  return Value::of_expr(make_call(x->dtype, "tir.if_then_else", {to_expr(c), x, y}, l), l);
}

Value Parser::or_test() {
  Value a = and_test();
  while (at_name("or")) {
    SourceLoc l = loc();
    next();
    a = at_start(logical("or", a, and_test(), l), a.loc);
  }
  return a;
}

Value Parser::and_test() {
  Value a = not_test();
  while (at_name("and")) {
    SourceLoc l = loc();
    next();
    a = at_start(logical("and", a, not_test(), l), a.loc);
  }
  return a;
}

Value Parser::not_test() {
  if (at_name("not")) {
    DepthGuard guard(*this);
    SourceLoc l = loc();
    next();
    return unary("not", not_test(), l);
  }
  return comparison();
}

Value Parser::comparison() {
  Value a = bit_or();
  // a < b < c is (a < b) and (b < c), b evaluated once.
  Value result;
  bool chained = false;
  while (true) {
    const Token& t = peek();
    if (t.kind != TokenKind::Op) break;
    static const char* const kOps[] = {"==", "!=", "<", "<=", ">", ">="};
    bool is_cmp = false;
    for (const char* o : kOps) is_cmp |= t.text == o;
    if (!is_cmp) break;
    SourceLoc l = loc();
    std::string op = next().text;
    Value b = bit_or();
    Value c = at_start(compare(op, a, b, l), a.loc);
    result = chained ? at_start(logical("and", result, c, l), result.loc) : c;
    chained = true;
    a = b;
  }
  return chained ? result : a;
}

Value Parser::bit_or() {
  Value a = bit_xor();
  while (at_op("|")) {
    SourceLoc l = loc();
    next();
    a = at_start(binary("|", a, bit_xor(), l), a.loc);
  }
  return a;
}

Value Parser::bit_xor() {
  Value a = bit_and();
  while (at_op("^")) {
    SourceLoc l = loc();
    next();
    a = at_start(binary("^", a, bit_and(), l), a.loc);
  }
  return a;
}

Value Parser::bit_and() {
  Value a = shift();
  while (at_op("&")) {
    SourceLoc l = loc();
    next();
    a = at_start(binary("&", a, shift(), l), a.loc);
  }
  return a;
}

Value Parser::shift() {
  Value a = arith();
  while (at_op("<<") || at_op(">>")) {
    SourceLoc l = loc();
    std::string op = next().text;
    a = at_start(binary(op, a, arith(), l), a.loc);
  }
  return a;
}

Value Parser::arith() {
  Value a = term();
  while (at_op("+") || at_op("-")) {
    SourceLoc l = loc();
    std::string op = next().text;
    a = at_start(binary(op, a, term(), l), a.loc);
  }
  return a;
}

Value Parser::term() {
  Value a = factor();
  while (at_op("*") || at_op("/") || at_op("//") || at_op("%")) {
    SourceLoc l = loc();
    std::string op = next().text;
    a = at_start(binary(op, a, factor(), l), a.loc);
  }
  return a;
}

Value Parser::factor() {
  if (at_op("-") || at_op("+") || at_op("~")) {
    DepthGuard guard(*this);
    SourceLoc l = loc();
    std::string op = next().text;
    return unary(op, factor(), l);
  }
  return power();
}

Value Parser::power() {
  Value a = primary();
  if (at_op("**")) {
    SourceLoc l = loc();
    next();
    return at_start(binary("**", a, factor(), l), a.loc);
  }
  return a;
}

Value Parser::primary() {
  Value v = atom();
  while (true) {
    SourceLoc l = loc();
    if (accept_op(".")) {
      std::string name = expect_name("after '.'");
      v = attribute(v, name, l);
    } else if (at_op("(")) {
      next();
      DepthGuard guard(*this);
      CallArgs c;
      c.loc = v.loc;
      if (v.kind == Value::Kind::Path) c.path = v.s;
      else if (v.kind == Value::Kind::Expr && v.s == "astype") c.path = "astype", c.args.push_back(v);
      else if (v.kind == Value::Kind::Buffer && !v.s.empty()) c.path = v.buffer->name + "." + v.s, c.args.push_back(v);
      else fail("this value cannot be called", v.loc);
      while (!at_op(")")) {
        if (peek().kind == TokenKind::Name && at_op("=", 1)) {
          std::string key = next().text;
          next();
          c.kwargs.emplace_back(key, expression());
        } else {
          if (!c.kwargs.empty()) fail_here("positional argument follows keyword argument");
          item_into(c.args);
        }
        if (!accept_op(",")) break;
      }
      expect_op(")", "closing the call");
      v = call(c);
    } else if (at_op("[")) {
      next();
      DepthGuard guard(*this);
      v = subscript(v, l);
      expect_op("]", "closing the subscript");
    } else {
      break;
    }
  }
  if (v.kind == Value::Kind::Path) return resolve_path(v);
  return v;
}

Value Parser::attribute(const Value& base, const std::string& name, SourceLoc l) {
  if (base.kind == Value::Kind::Path) {
    Value v = base;
    v.s += "." + name;
    return v;
  }
  if (base.kind == Value::Kind::Buffer) {
    if (name == "data") return Value::of_expr(base.buffer->data, l);
    if (name == "dtype") return Value::of_str(base.buffer->dtype.name(), l);
    if (name == "shape" || name == "strides") {
      Value t;
      t.kind = Value::Kind::Tuple;
      t.loc = l;
      for (const PrimExpr& e : name == "shape" ? base.buffer->shape : base.buffer->strides)
        t.items.push_back(Value::of_expr(e, l));
      return t;
    }
    if (name == "elem_offset" && base.buffer->elem_offset) return Value::of_expr(base.buffer->elem_offset, l);
    if (name == "vload" || name == "vstore") {  // a method: the call names it (Buffer methods)
      Value m = base;
      m.s = name;
      return m;
    }
    fail("a buffer has no attribute '" + name + "'", l);
  }
  if (name == "astype" && (base.kind == Value::Kind::Expr || base.kind == Value::Kind::Subscript || base.is_py_number())) {
    Value v = Value::of_expr(to_expr(base), base.loc);
    v.s = "astype";
    return v;
  }
  if (base.kind == Value::Kind::Expr && name == "dtype") return Value::of_str(base.expr->dtype.name(), l);
  fail("no attribute '" + name + "' here", l);
}

Value Parser::subscript(const Value& base, SourceLoc l) {
  // T.Buffer[(shape), dtype]: the v0.9–v0.11 spelling of T.Buffer((shape), dtype).
  if (base.kind == Value::Kind::Path) {
    if (base.s != "T.Buffer") fail("'" + base.s + "' cannot be subscripted", l);
    Value inner = expression_list("]");
    CallArgs c;
    c.path = "T.Buffer";
    c.loc = l;
    c.args = inner.kind == Value::Kind::Tuple ? inner.items : std::vector<Value>{inner};
    return call(c);
  }
  if (base.kind == Value::Kind::Tuple || base.kind == Value::Kind::List) {
    Value idx = expression();
    int64_t i = int_of(idx, "a tuple index");
    if (i < 0) i += static_cast<int64_t>(base.items.size());
    if (i < 0 || i >= static_cast<int64_t>(base.items.size())) fail("tuple index out of range", idx.loc);
    return base.items[static_cast<size_t>(i)];
  }
  if (base.kind != Value::Kind::Buffer) fail("only buffers can be indexed here", l);
  Value sub;
  sub.kind = Value::Kind::Subscript;
  sub.buffer = base.buffer;
  sub.loc = base.loc;
  // A[()] is the only element of a 0-d buffer.
  if (at_op("(") && at_op(")", 1)) {
    next(), next();
    return sub;
  }
  while (!at_op("]")) {
    if (at_op("*")) {  // A[*idx] or A[i, *rest]
      item_into(sub.items);
      if (!accept_op(",")) break;
      continue;
    }
    SourceLoc il = loc();
    Value start = Value::none(il), stop = Value::none(il), step = Value::none(il);
    bool slice = false;
    if (!at_op(":")) start = expression();
    if (accept_op(":")) {
      slice = true;
      if (!at_op(":") && !at_op(",") && !at_op("]")) stop = expression();
      if (accept_op(":") && !at_op(",") && !at_op("]")) step = expression();
    }
    if (slice) {
      Value s;
      s.kind = Value::Kind::Slice;
      s.loc = il;
      s.items = {start, stop, step};
      sub.items.push_back(s);
    } else if (start.kind == Value::Kind::Tuple || start.kind == Value::Kind::List) {
      // A[idx] of a tuple or a list (a starred loop target's variables): TVM's Buffer.__getitem__
      // takes either as the indices
      for (const Value& v : start.items) sub.items.push_back(v);
    } else {
      sub.items.push_back(start);
    }
    if (!accept_op(",")) break;
  }
  if (sub.items.size() != base.buffer->shape.size())
    fail("Buffer " + base.buffer->name + " is " + std::to_string(base.buffer->shape.size()) +
             "-dimensional, cannot be indexed with the " + std::to_string(sub.items.size()) +
             "-dimensional indices provided.",
         base.loc);
  return sub;
}

// One item of a call's arguments, a tuple, a list or a subscript: `*xs` unpacks a tuple or list
// (a buffer's shape, T.grid's loop variables) in place, as Python does.
void Parser::item_into(std::vector<Value>& out) {
  if (!at_op("*")) {
    out.push_back(expression());
    return;
  }
  SourceLoc l = loc();
  next();
  Value v = expression();
  if (v.kind != Value::Kind::Tuple && v.kind != Value::Kind::List)
    fail("only a tuple or a list can be unpacked with '*'", l);
  out.insert(out.end(), v.items.begin(), v.items.end());
}

// Items up to `closer` (not consumed): one value, or a Tuple when there is a comma.
Value Parser::expression_list(const char* closer) {
  Value t;
  t.kind = Value::Kind::Tuple;
  t.loc = loc();
  bool comma = false;
  while (!at_op(closer)) {
    comma = comma || at_op("*");  // (*xs) is a syntax error in Python; read it as (*xs,)
    item_into(t.items);
    if (!accept_op(",")) break;
    comma = true;
  }
  if (t.items.size() == 1 && !comma) return t.items[0];
  return t;
}

Value Parser::atom() {
  const Token& t = peek();
  SourceLoc l = loc();
  switch (t.kind) {
    case TokenKind::Int: {
      Value v = Value::of_int(t.int_value, l);
      v.above_int64 = t.above_int64;
      next();
      return v;
    }
    case TokenKind::Float: next(); return Value::of_float(t.float_value, l);
    case TokenKind::String: {
      std::string s;
      while (peek().kind == TokenKind::String) s += next().text;  // adjacent literals concatenate
      return Value::of_str(s, l);
    }
    case TokenKind::Name: {
      std::string name = t.text;
      if (name == "True" || name == "False") return next(), Value::of_bool(name == "True", l);
      if (name == "None") return next(), Value::none(l);
      if (is_keyword(name)) fail_here("expected an expression, found '" + name + "'");
      next();
      if (const Value* v = lookup(name)) {
        Value out = *v;
        out.loc = l;
        out.declared_var = false;
        return out;
      }
      if (name == "T" || name == "I" || name == "range" || name == "tvm" || (!module_name_.empty() && name == module_name_)) {
        Value p;
        p.kind = Value::Kind::Path;
        p.s = name;
        p.loc = l;
        return p;
      }
      fail("undefined name '" + name + "'", l);
    }
    case TokenKind::Op: {
      if (t.text == "(") {
        next();
        Value v = expression_list(")");
        expect_op(")", "closing the parenthesis");
        v.loc = l;
        return v;
      }
      if (t.text == "[") {
        next();
        Value list;
        list.kind = Value::Kind::List;
        list.loc = l;
        while (!at_op("]")) {
          item_into(list.items);
          if (!accept_op(",")) break;
        }
        expect_op("]", "closing the list");
        return list;
      }
      if (t.text == "{") {
        next();
        Value d;
        d.kind = Value::Kind::Dict;
        d.loc = l;
        while (!at_op("}")) {
          d.keys.push_back(expression());
          expect_op(":", "after a dict key");
          d.items.push_back(expression());
          if (!accept_op(",")) break;
        }
        expect_op("}", "closing the dict");
        return d;
      }
      break;
    }
    default: break;
  }
  fail_here("expected an expression, found " + describe(t));
}

}  // namespace onegrad::tir
