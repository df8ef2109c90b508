// Statements, functions and the file. A statement that binds a name for the rest of its block
// (x = e, assert, T.allocate, T.decl_buffer without `with`) parses the rest of the block as its
// body, so the AST nests the way TIR scopes: LetStmt(x, e, rest).
#include "tir/ast/buffer.h"
#include "tir/parse/parser.h"
#include "tir/parse/parser_impl.h"
#include "tir/ast/root_block.h"

namespace onegrad::tir {

IRModule parse_script(std::string_view text) { return Parser(tokenize(text)).module(); }

namespace {
const char* const kAugOps[] = {"+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="};
}

// Suites nest at most this deep, as in Python ("too many levels of indentation"): a bound on the
// recursion of the parser, the printer and the checkers for hostile input.
constexpr int kMaxIndentLevels = 100;

Stmt Parser::suite() {
  if (peek().kind != TokenKind::Newline) fail_here("expected a new line and an indented block after ':'");
  next();
  while (peek().kind == TokenKind::Newline) next();
  if (peek().kind != TokenKind::Indent) fail_here("expected an indented block");
  next();
  push_scope();
  if (suite_depth_ >= kMaxIndentLevels) fail_here("too many levels of indentation (more than 100)");
  ++suite_depth_, ++scope_depth_;
  Stmt s = statements();
  --suite_depth_, --scope_depth_;
  pop_scope();
  if (peek().kind != TokenKind::Dedent) fail_here("expected the end of the indented block");
  next();
  return s;
}

// A binder (x = e, assert, T.allocate without `with`, ...) scopes over the statements after it: they
// are collected into a level of their own and wrapped from the innermost level out, so long chains
// of lets cost no recursion.
Stmt Parser::statements() {
  struct Level {
    std::vector<Stmt> seq;
    BinderFn wrap;
    SourceLoc loc;
  };
  auto seq_of = [](Level& level) -> Stmt {
    if (level.seq.size() == 1) return level.seq[0];
    auto n = std::make_shared<SeqStmtNode>(level.seq.empty() ? level.loc : level.seq[0]->loc);
    n->seq = std::move(level.seq);
    return n;
  };
  std::vector<Level> levels(1);
  levels[0].loc = loc();
  int outer_depth = scope_depth_;
  while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
    if (peek().kind == TokenKind::Newline) {
      next();
      continue;
    }
    bool binder = false;
    Stmt s = statement(binder);
    if (s) levels.back().seq.push_back(s);
    if (binder) {
      levels.push_back({{}, std::move(pending_binder_), loc()});
      ++scope_depth_;  // what follows is nested in the binder (block declarations may not follow)
    }
  }
  scope_depth_ = outer_depth;
  Stmt body = seq_of(levels.back());
  for (size_t i = levels.size() - 1; i > 0; --i) {
    levels[i - 1].seq.push_back(levels[i].wrap(body));
    body = seq_of(levels[i - 1]);
  }
  return body;
}

Stmt Parser::statement(bool& binder_done) {
  const Token& t = peek();
  SourceLoc l = loc();
  if (t.kind == TokenKind::Indent) fail_here("unexpected indent");
  if (t.kind == TokenKind::Name) {
    const std::string& w = t.text;
    if (w == "for") return for_statement();
    if (w == "if") return if_statement();
    if (w == "with") return with_statement();
    if (w == "while") {
      next();
      PrimExpr cond = to_expr(expression());
      expect_op(":", "after the while condition");
      auto n = std::make_shared<WhileNode>(l);
      n->condition = cond;
      ++loop_depth_;
      n->body = suite();
      --loop_depth_;
      return n;
    }
    if (w == "assert") {
      next();
      PrimExpr cond = to_expr(expression());
      PrimExpr msg = accept_op(",") ? to_expr(expression()) : string_imm("", l);
      expect_newline();
      binder_done = true;
      pending_binder_ = [cond, msg, l](Stmt body) {
        auto n = std::make_shared<AssertStmtNode>(l);
        n->condition = cond, n->message = msg, n->body = std::move(body);
        return Stmt(n);
      };
      return nullptr;
    }
    if (w == "return") {
      next();
      PrimExpr v = to_expr(expression());
      expect_newline();
      auto n = std::make_shared<EvaluateNode>(l);
      n->value = make_call(v->dtype, "tir.ret", {v}, l);
      return n;
    }
    if (w == "break" || w == "continue") {
      next();
      expect_newline();
      if (loop_depth_ == 0) fail("'" + w + "' outside loop", l);
      auto n = std::make_shared<EvaluateNode>(l);
      n->value = make_call(DataType::void_(), w == "break" ? "tir.break" : "tir.continue", {}, l);
      return n;
    }
    if (w == "pass") {
      next();
      expect_newline();
      return nullptr;
    }
    if (w == "def" || w == "class" || w == "import" || w == "from" || w == "elif" || w == "else")
      fail("'" + w + "' is not allowed here", l);
    if (at_op("=", 1) || at_op(":", 1) || at_op(",", 1)) return assignment(binder_done);
  }
  if (at_paren_targets()) return assignment(binder_done);
  Value lhs = expression();
  if (accept_op("=")) {
    reject_chained_assignment();
    Value rhs = expression();
    expect_newline();
    return store(lhs, rhs, l);
  }
  for (const char* aug : kAugOps) {
    if (!at_op(aug)) continue;
    SourceLoc ol = loc();
    next();
    Value rhs = expression();
    expect_newline();
    if (lhs.kind != Value::Kind::Subscript) fail("augmented assignment needs a buffer element like A[i]", l);
    std::string op(aug);
    op.pop_back();
    Value combined = binary(op, Value::of_expr(to_expr(lhs), l), rhs, ol);
    return store(lhs, combined, l);
  }
  expect_newline();
  switch (lhs.kind) {
    case Value::Kind::Stmt: return lhs.stmt;
    case Value::Kind::Binder:
      binder_done = true;
      pending_binder_ = *lhs.binder;
      return nullptr;
    case Value::Kind::Expr:
    case Value::Kind::Subscript: {
      auto n = std::make_shared<EvaluateNode>(l);
      n->value = to_expr(lhs);
      return n;
    }
    case Value::Kind::None:
    case Value::Kind::Str:      // a docstring
    case Value::Kind::Buffer:   // a bare T.alloc_buffer(...)
      return nullptr;
    default: fail("this expression is not a statement", l);
  }
}

BinderFn let_binder(Var v, PrimExpr value, SourceLoc l) {
  return [v, value, l](Stmt body) {
    auto n = std::make_shared<LetStmtNode>(l);
    n->var = v, n->value = value, n->body = std::move(body);
    return Stmt(n);
  };
}

// `(a, b) = ...` or `(a, b,) = ...`: a parenthesized list of names before an `=`.
bool Parser::at_paren_targets() const {
  if (!at_op("(")) return false;
  size_t k = 1;
  while (peek(k).kind == TokenKind::Name) {
    if (at_op(",", k + 1)) k += 2;
    else if (at_op(")", k + 1)) return at_op("=", k + 2);
    else return false;
  }
  return k > 1 && at_op(")", k) && at_op("=", k + 1);
}

Stmt Parser::assignment(bool& binder_done) {
  SourceLoc l = loc();
  bool paren = accept_op("(");
  std::vector<std::string> names{expect_name("to assign")};
  if (!paren && accept_op(":")) {
    in_annotation_ = true;
    Value ann = expression();
    in_annotation_ = false;
    if (ann.kind != Value::Kind::TypeObj) fail("expected a type like T.int32 after ':'", ann.loc);
    expect_op("=", "after the type annotation");
    targets_ = names;
    Value rhs = expression();
    targets_.clear();
    expect_newline();
    Type type = *ann.type;
    DataType t = type.value_dtype();
    PrimExpr value = rhs.is_py_number() ? literal_as(rhs, t) : to_expr(rhs);
    if (type.kind == Type::Kind::Prim && value->dtype != t) value = fold_cast(t, value, l);
    Var v = make_var(names[0], type, l);
    bind(names[0], Value::of_expr(v, l));
    binder_done = true;
    pending_binder_ = let_binder(v, value, l);
    return nullptr;
  }
  bool tuple = paren && at_op(",");  // (a,) = ... unpacks like a, = ...
  while (accept_op(",")) {
    tuple = true;
    if (at_op("=") || at_op(")")) break;
    names.push_back(expect_name("to assign"));
  }
  if (paren) expect_op(")", "closing the assignment targets");
  expect_op("=", "in the assignment");
  reject_chained_assignment();
  // `m, n = T.int32(), T.int32()`: each item is parsed with its own name as the target, so the
  // declarations it makes are named after it; a single value (T.axis.remap) sees all the names.
  targets_ = names;
  Value rhs = expression();
  if (at_op(",")) {
    Value t;
    t.kind = Value::Kind::Tuple;
    t.loc = rhs.loc;
    t.items.push_back(std::move(rhs));
    while (accept_op(",") && peek().kind != TokenKind::Newline) {
      size_t k = t.items.size();
      targets_ = k < names.size() ? std::vector<std::string>{names[k]} : std::vector<std::string>{};
      item_into(t.items);
    }
    rhs = std::move(t);
  }
  targets_.clear();
  expect_newline();
  if (tuple && names.size() == 1) {  // a, = (x,)
    if ((rhs.kind != Value::Kind::Tuple && rhs.kind != Value::Kind::List) || rhs.items.size() != 1)
      fail("cannot unpack this value into 1 name", l);
    Value only = rhs.items[0];
    return bind_assign(names, only, l, binder_done);
  }
  return bind_assign(names, rhs, l, binder_done);
}

// TVM rejects `a = b = c` by its targets, before evaluating anything: look for a second `=` outside
// brackets on the rest of the line, so an unbound `b` does not turn this into "undefined name".
void Parser::reject_chained_assignment() const {
  int depth = 0;
  for (size_t k = 0;; ++k) {
    const Token& t = peek(k);
    if (t.kind == TokenKind::Newline || t.kind == TokenKind::End) return;
    if (t.kind != TokenKind::Op) continue;
    if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
    else if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
    else if (depth == 0 && t.text == "=")
      fail("Consequential assignments like 'a = b = c' are not supported.", {t.line, t.column});
  }
}

Stmt Parser::bind_assign(const std::vector<std::string>& names, const Value& rhs, SourceLoc l, bool& binder_done) {
  if (names.size() > 1) {
    if (rhs.kind != Value::Kind::Tuple && rhs.kind != Value::Kind::List)
      fail("cannot unpack a " + std::string(rhs.kind == Value::Kind::Expr ? "expression" : "value") + " into " +
               std::to_string(names.size()) + " names",
           l);
    if (rhs.items.size() != names.size())
      fail("cannot unpack " + std::to_string(rhs.items.size()) + " values into " + std::to_string(names.size()) + " names", l);
    // Each name binds as if assigned alone; values that become LetStmts nest left to right.
    std::vector<BinderFn> lets;
    for (size_t i = 0; i < names.size(); ++i) {
      if (rhs.items[i].kind == Value::Kind::Binder) fail("a binder cannot be unpacked", l);
      bool done = false;
      Stmt s = bind_assign({names[i]}, rhs.items[i], l, done);
      if (s) fail("only declarations can be unpacked (T.axis.remap, T.int32(), buffers)", l);
      if (done) lets.push_back(std::move(pending_binder_));
    }
    if (lets.empty()) return nullptr;
    binder_done = true;
    pending_binder_ = [lets](Stmt body) {
      for (size_t i = lets.size(); i-- > 0;) body = lets[i](std::move(body));
      return body;
    };
    return nullptr;
  }
  const std::string& name = names[0];
  switch (rhs.kind) {
    case Value::Kind::Binder:
      if (rhs.bound) bind(name, *rhs.bound);
      binder_done = true;
      pending_binder_ = *rhs.binder;
      return nullptr;
    case Value::Kind::Expr:
      if (rhs.declared_var) {
        bind(name, rhs);
        return nullptr;
      }
      [[fallthrough]];
    case Value::Kind::Int:
    case Value::Kind::Float:
    case Value::Kind::Bool:
    case Value::Kind::Subscript: {
      // x = e inside a body is LetStmt(x, e, rest of the block) (tir-notes 1.3 "Let forms").
      PrimExpr value = to_expr(rhs);
      Var v = value->dtype.code == DataType::Code::Handle && value->kind == ExprKind::Var
                  ? make_var(name, std::static_pointer_cast<const VarNode>(value)->type_annotation, l)
                  : make_var(name, value->dtype, l);
      bind(name, Value::of_expr(v, l));
      binder_done = true;
      pending_binder_ = let_binder(v, value, l);
      return nullptr;
    }
    case Value::Kind::Stmt: fail("this call is a statement and has no value to assign", l);
    case Value::Kind::Loop:
    case Value::Kind::BlockSpec:
    case Value::Kind::InitSpec: fail("this call only makes sense in a for or with statement", l);
    default: bind(name, rhs); return nullptr;
  }
}

Stmt Parser::store(const Value& target, const Value& value, SourceLoc l) {
  if (target.kind != Value::Kind::Subscript) fail("cannot assign to this expression; a store needs A[...] on the left", l);
  auto n = std::make_shared<BufferStoreNode>(l);
  n->buffer = target.buffer;
  n->indices = load_indices(target);
  int lanes = n->indices.empty() ? 1 : n->indices.back()->dtype.lanes;
  n->value = store_value(target.buffer, lanes, value, l);
  return n;
}

Stmt Parser::for_statement() {
  SourceLoc l = loc();
  next();
  std::vector<std::string> names;
  int starred = -1;  // `for *spatial, r in T.grid(...)`: the index of the starred name
  bool paren = accept_op("("), comma = false;
  do {
    if (paren && at_op(")")) break;  // for (i, j,) in ...
    if (at_op("*")) {
      if (starred >= 0) fail_here("multiple starred expressions in assignment");
      next();
      starred = static_cast<int>(names.size());
    }
    names.push_back(expect_name("as a loop variable"));
  } while (accept_op(",") && (comma = true));
  if (starred >= 0 && !comma) fail("starred assignment target must be in a list or tuple", l);
  if (paren) expect_op(")", "closing the loop variables");
  if (names.empty()) fail("expected a name as a loop variable", l);
  if (!at_name("in")) fail_here("expected 'in' in the for statement");
  next();
  Value it = expression();
  if (it.kind != Value::Kind::Loop)
    fail("Expect the for loop to be one of the following: range, T.serial, T.grid, T.parallel, T.vectorized, "
         "T.unroll, T.thread_binding",
         it.loc);
  const LoopSpec& spec = *it.loop;
  // `for iters in T.grid(m, n)` binds iters to the tuple of loop variables, named iters_0, iters_1
  // as TVM names them.
  std::string tuple_name, star_name;
  size_t star_count = 0;
  if (starred >= 0) {
    // The starred name takes the loop variables the other names leave, as a list (Python's unpacking),
    // named star_0, star_1 as TVM names them.
    const size_t fixed = names.size() - 1;
    if (spec.ranges.size() < fixed)
      fail("the loop has " + std::to_string(spec.ranges.size()) + " ranges but names at least " + std::to_string(fixed) +
               " variables",
           l);
    star_name = names[starred];
    star_count = spec.ranges.size() - fixed;
    std::vector<std::string> all(names.begin(), names.begin() + starred);
    for (size_t k = 0; k < star_count; ++k) all.push_back(star_name + "_" + std::to_string(k));
    all.insert(all.end(), names.begin() + starred + 1, names.end());
    names = std::move(all);
  } else if (names.size() == 1 && !paren && spec.ranges.size() > 1) {
    tuple_name = names[0];
    names.clear();
    for (size_t i = 0; i < spec.ranges.size(); ++i) names.push_back(tuple_name + "_" + std::to_string(i));
  }
  if (names.size() != spec.ranges.size())
    fail("the loop has " + std::to_string(spec.ranges.size()) + " ranges but names " + std::to_string(names.size()) +
             " variables",
         l);
  expect_op(":", "after the for statement");
  push_scope();
  std::vector<Var> vars;
  std::vector<std::pair<PrimExpr, PrimExpr>> ranges = spec.ranges;
  Var stepped;  // the user's Var of a loop with a step, bound from the counter vars[0]
  const PrimExpr extent = ranges.empty() ? nullptr : ranges[0].second;  // before a step makes it a count
  if (spec.stepped()) {
    stepped = make_var(names[0], ranges[0].first->dtype, l);
    ranges[0].second = step_count(ranges[0].second, spec, l);
  }
  std::vector<Value> user_vars;  // what each name is bound to
  for (size_t i = 0; i < names.size(); ++i) {
    vars.push_back(make_var(stepped ? names[i] + "_k" : names[i], ranges[i].first->dtype, l));
    user_vars.push_back(Value::of_expr(stepped ? stepped : vars.back(), l));
    bind(names[i], user_vars.back());
    loops_.push_back({vars.back(), stepped ? int_imm(0, ranges[i].first->dtype, l) : ranges[i].first, ranges[i].second});
  }
  if (!tuple_name.empty() || !star_name.empty()) {
    Value t;
    t.kind = tuple_name.empty() ? Value::Kind::List : Value::Kind::Tuple;
    t.loc = l;
    const size_t from = tuple_name.empty() ? size_t(starred) : 0, count = tuple_name.empty() ? star_count : vars.size();
    for (size_t k = from; k < from + count; ++k) t.items.push_back(user_vars[k]);
    bind(tuple_name.empty() ? star_name : tuple_name, t);
  }
  ++loop_depth_;
  Stmt body = suite();
  --loop_depth_;
  for (size_t i = 0; i < names.size(); ++i) loops_.pop_back();
  pop_scope();
  if (stepped) body = stepped_loop_binding(stepped, vars[0], ranges[0].first, step_of(spec, stepped->dtype, l), body, l);
  for (size_t i = names.size(); i-- > 0;) {
    auto n = std::make_shared<ForNode>(l);
    n->loop_var = vars[i];
    n->min = stepped ? int_imm(0, ranges[i].first->dtype, l) : ranges[i].first;
    n->extent = ranges[i].second;
    n->kind = spec.kind;
    n->body = body;
    n->annotations = spec.annotations;
    if (spec.kind == ForKind::ThreadBinding) {
      auto iv = std::make_shared<IterVarNode>();
      iv->dom = Range{n->min, n->extent};
      iv->var = make_var(spec.thread, vars[i]->dtype, l);
      iv->iter_type = IterVarType::ThreadIndex;
      iv->thread_tag = spec.thread;
      n->thread_binding = iv;
    }
    body = n;
  }
  return stepped ? guard_stepped_loop(body, extent, spec, names[0], l) : body;
}

Stmt Parser::if_statement() {
  SourceLoc l = loc();
  next();  // if / elif
  PrimExpr cond = to_expr(expression());
  expect_op(":", "after the if condition");
  auto n = std::make_shared<IfThenElseNode>(l);
  n->condition = cond;
  n->then_case = suite();
  if (at_name("elif")) {
    n->else_case = if_statement();
  } else if (at_name("else")) {
    next();
    expect_op(":", "after else");
    n->else_case = suite();
  }
  return n;
}

Stmt Parser::with_statement() {
  next();
  std::vector<std::pair<size_t, std::string>> items;  // token position of each item, its `as` name
  std::vector<Value> values;
  while (true) {
    // The `as` name comes after the call but names what the call makes: look it up first.
    std::string as_name;
    int depth = 0;
    for (size_t k = pos_; k < toks_.size(); ++k) {
      const Token& t = toks_[k];
      if (t.kind == TokenKind::Newline || t.kind == TokenKind::End) break;
      if (t.kind == TokenKind::Op) {
        if (t.text == "(" || t.text == "[" || t.text == "{") ++depth;
        if (t.text == ")" || t.text == "]" || t.text == "}") --depth;
        if (depth == 0 && (t.text == "," || t.text == ":")) break;
      }
      if (depth == 0 && t.kind == TokenKind::Name && t.text == "as" && k + 1 < toks_.size()) {
        as_name = toks_[k + 1].text;
        break;
      }
    }
    if (!as_name.empty()) targets_ = {as_name};
    values.push_back(expression());
    targets_.clear();
    if (at_name("as")) {
      next();
      as_name = expect_name("after 'as'");
    }
    items.emplace_back(values.size() - 1, as_name);
    if (!accept_op(",")) break;
  }
  expect_op(":", "after the with items");
  // Items nest left to right; the innermost holds the suite.
  std::function<Stmt(size_t)> nest = [&](size_t i) -> Stmt {
    if (i == values.size()) return suite();
    const Value& v = values[i];
    const std::string& name = items[i].second;
    switch (v.kind) {
      case Value::Kind::BlockSpec: {
        frames_.push_back(BlockFrame{});
        frames_.back().name = v.s;
        frames_.back().no_realize = v.i != 0;
        frames_.back().depth = scope_depth_ + 1;  // the depth of its suite
        Stmt body = nest(i + 1);
        BlockFrame f = std::move(frames_.back());
        frames_.pop_back();
        return block_from_frame(std::move(f), body, v.loc);
      }
      case Value::Kind::InitSpec: {
        frame("T.init()", v.loc);
        size_t index = frames_.size() - 1;
        if (frames_[index].init) fail("Duplicate block init declaration", v.loc);
        Stmt s = nest(i + 1);
        if (!s) s = std::make_shared<SeqStmtNode>(v.loc);
        frames_[index].init = s;
        return nullptr;
      }
      case Value::Kind::Binder: {
        push_scope();
        if (v.bound && !name.empty()) bind(name, *v.bound);
        Stmt body = nest(i + 1);
        pop_scope();
        if (!body) body = std::make_shared<SeqStmtNode>(v.loc);
        return (*v.binder)(body);
      }
      default: fail("Invalid context expression in the with-statement.", v.loc);
    }
  };
  return nest(0);
}

Stmt Parser::block_from_frame(BlockFrame f, Stmt body, SourceLoc l) {
  auto b = std::make_shared<BlockNode>(l);
  b->iter_vars = std::move(f.iter_vars);
  b->reads = f.reads.value_or(std::vector<BufferRegion>{});
  b->writes = f.writes.value_or(std::vector<BufferRegion>{});
  b->name_hint = f.name;
  b->body = body ? body : std::make_shared<SeqStmtNode>(l);
  b->init = f.init;
  b->alloc_buffers = std::move(f.alloc_buffers);
  b->match_buffers = std::move(f.match_buffers);
  b->annotations = std::move(f.annotations);
  // TVM's BlockFrame: a block that is not realized has no bindings to give its iter vars.
  if (f.no_realize) {
    if (!f.iter_values.empty()) fail("Block bindings are not allowed when `no_realize=True`", l);
    if (f.predicate) fail("`T.where` is not allowed when `no_realize=True`", f.predicate->loc);
    return b;
  }
  auto r = std::make_shared<BlockRealizeNode>(l);
  r->iter_values = std::move(f.iter_values);
  r->predicate = f.predicate ? f.predicate : bool_imm(true, l);
  r->block = b;
  return r;
}

void Parser::decorator(bool& is_private, bool& check_well_formed) {
  SourceLoc l = loc();
  expect_op("@", "starting a decorator");
  if (!(at_name("T") && at_op(".", 1) && at_name("prim_func", 2)))
    fail_here("expected @T.prim_func (only TIR functions are supported)");
  next(), next(), next();
  if (accept_op("(")) {
    while (!at_op(")")) {
      std::string key = expect_name("as a decorator argument");
      expect_op("=", "after the decorator argument name");
      Value v = expression();
      if (v.kind != Value::Kind::Bool) fail("decorator argument " + key + " must be True or False", v.loc);
      if (key == "private") is_private = v.i != 0;
      else if (key == "check_well_formed") check_well_formed = v.i != 0;
      else if (key != "s_tir") fail("unknown @T.prim_func argument '" + key + "'", l);
      if (!accept_op(",")) break;
    }
    expect_op(")", "closing the decorator");
  }
  expect_newline();
}

PrimFunc Parser::function() {
  auto f = std::make_shared<PrimFuncNode>();
  f->loc = loc();
  decorator(f->is_private, f->check_well_formed);
  if (!at_name("def")) fail_here("expected 'def' after @T.prim_func");
  next();
  std::string name = expect_name("naming the function");
  func_ = f.get();
  push_scope();
  frames_.push_back(BlockFrame{});
  frames_.back().is_root = true;
  expect_op("(", "opening the parameter list");
  while (!at_op(")")) {
    SourceLoc pl = loc();
    std::string pname = expect_name("as a parameter");
    if (!accept_op(":")) fail("Type annotation required for function parameters.", pl);
    in_annotation_ = true;
    targets_ = {pname};
    Value ann = expression();
    targets_.clear();
    in_annotation_ = false;
    if (ann.kind == Value::Kind::Buffer) {
      // A: T.Buffer(...) is a handle parameter A_handle bound to buffer A (tir-notes 1.5).
      Var handle = make_var(pname + "_handle", DataType::handle(), pl);
      f->params.push_back(handle);
      f->buffer_map.emplace_back(handle, ann.buffer);
      bind(pname, ann);
    } else if (ann.kind == Value::Kind::TypeObj) {
      Var v = make_var(pname, *ann.type, pl);
      f->params.push_back(v);
      bind(pname, Value::of_expr(v, pl));
    } else {
      fail("expected a parameter type like T.int32, T.handle or T.Buffer(...)", ann.loc);
    }
    if (!accept_op(",")) break;
  }
  expect_op(")", "closing the parameter list");
  if (accept_op("->")) {
    if (at_name("None")) {
      next();
      f->ret_type = Type::tuple();
    } else {
      in_annotation_ = true;
      Value r = expression();
      in_annotation_ = false;
      if (r.kind != Value::Kind::TypeObj) fail("expected a return type like T.int32", r.loc);
      f->ret_type = *r.type;
    }
  }
  expect_op(":", "after the function signature");
  Stmt body = suite();
  BlockFrame root = std::move(frames_.back());
  frames_.pop_back();
  pop_scope();
  func_ = nullptr;
  bool allocs = !root.alloc_buffers.empty();
  f->body = script_wraps_in_root(body, allocs) ? make_root_block(body, std::move(root.alloc_buffers)) : body;
  module_functions_.emplace_back(name, f);
  return f;
}

void Parser::skip_import() {
  while (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End) next();
  expect_newline();
}

// Return types of every function in the text, so a call may come before its callee.
void Parser::prescan_signatures() {
  for (size_t k = 0; k + 1 < toks_.size(); ++k) {
    const Token& t = toks_[k];
    if (t.kind == TokenKind::Name && t.text == "class" && toks_[k + 1].kind == TokenKind::Name && module_name_.empty())
      module_name_ = toks_[k + 1].text;
    if (!(t.kind == TokenKind::Name && t.text == "def" && toks_[k + 1].kind == TokenKind::Name)) continue;
    std::string name = toks_[k + 1].text;
    size_t j = k + 2;
    int depth = 0;
    for (; j < toks_.size(); ++j) {
      if (toks_[j].kind != TokenKind::Op) continue;
      if (toks_[j].text == "(") ++depth;
      if (toks_[j].text == ")" && --depth == 0) break;
    }
    std::optional<Type> ret;
    if (j + 4 < toks_.size() && toks_[j + 1].text == "->") {
      if (toks_[j + 2].text == "None") ret = Type::tuple();
      else if (toks_[j + 2].text == "T" && toks_[j + 3].text == ".")
        if (auto d = parse_data_type(toks_[j + 4].text)) ret = Type::prim(*d);
    }
    signatures_[name] = ret;
  }
}

IRModule Parser::module() {
  push_scope();
  prescan_signatures();
  bool in_class = false;
  while (peek().kind != TokenKind::End) {
    const Token& t = peek();
    if (t.kind == TokenKind::Newline) {
      next();
      continue;
    }
    if (t.kind == TokenKind::Dedent && in_class) {
      next();
      in_class = false;
      continue;
    }
    if (t.kind == TokenKind::Indent) fail_here("unexpected indent");
    if (at_name("from") || at_name("import")) {
      skip_import();
      continue;
    }
    if (at_op("@") && at_name("I", 1)) {
      if (in_class) fail_here("@I.ir_module classes do not nest");
      next();
      if (!(at_name("I") && at_op(".", 1) && at_name("ir_module", 2))) fail_here("expected @I.ir_module");
      next(), next(), next();
      expect_newline();
      if (!at_name("class")) fail_here("expected 'class' after @I.ir_module");
      next();
      expect_name("naming the module");
      expect_op(":", "after the class name");
      expect_newline();
      while (peek().kind == TokenKind::Newline) next();
      if (peek().kind != TokenKind::Indent) fail_here("expected an indented class body");
      next();
      in_class = true;
      continue;
    }
    if (at_op("@")) {
      function();
      continue;
    }
    if (t.kind == TokenKind::String) {  // a docstring
      next();
      expect_newline();
      continue;
    }
    if (t.kind == TokenKind::Name && at_op("=", 1)) {
      // A module-level constant: a Python number, string or tuple of them.
      std::string name = next().text;
      next();
      Value v = expression();
      if (v.kind == Value::Kind::Expr || v.kind == Value::Kind::Buffer || v.kind == Value::Kind::Subscript)
        fail("a module-level constant must be a Python number or string", v.loc);
      expect_newline();
      bind(name, v);
      continue;
    }
    fail_here("expected @T.prim_func, @I.ir_module, an import or a constant");
  }
  if (module_functions_.empty()) fail("no @T.prim_func in the text", loc());
  IRModule m;
  for (auto& [name, f] : module_functions_) {
    if (m.find(name)) fail("duplicate function '" + name + "'", f->loc);
    m.functions.emplace_back(name, f);
  }
  return m;
}

}  // namespace onegrad::tir
