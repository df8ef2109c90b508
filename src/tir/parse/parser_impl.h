// The parser's working parts. TVMScript is Python evaluated by a special interpreter, so parsing an
// expression yields a Value: a Python constant (kept as such until it meets a PrimExpr, where it
// takes that expression's type), a PrimExpr, a Buffer, a subscript that is a load or a region
// depending on where it is used, or one of the objects T.* calls return (a loop spec, a block, a
// binder that wraps the rest of the block). Expressions are in parser_expr.cpp, T.* calls in
// parser_calls.cpp, Python and operator semantics in parser_ops.cpp, statements in parser_stmt.cpp.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tir/ast/errors.h"
#include "tir/parse/lexer.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

struct Value;
// Wraps the statements that follow (the rest of the block, or a with-body) into a binder statement.
using BinderFn = std::function<Stmt(Stmt body)>;

struct LoopSpec {
  ForKind kind = ForKind::Serial;
  std::vector<std::pair<PrimExpr, PrimExpr>> ranges;  // (min, extent), one per target (T.grid has several)
  Annotations annotations;
  std::string thread;
  // range(a, b, s) / T.serial(a, b, step=s): a literal step (range's is positive), or step_expr
  // for a step that is no literal (T.serial(a, b, step=s) only, of the loop variable's type)
  int64_t step = 1;
  PrimExpr step_expr;
  bool stepped() const { return step != 1 || step_expr; }
};

struct Value {
  enum class Kind : uint8_t {
    None, Int, Float, Bool, Str, Expr, Buffer, Tuple, List, Dict, Slice, Subscript, Path, TypeObj,
    Loop, BlockSpec, InitSpec, Binder, Stmt, IterVar,
  };
  Kind kind = Kind::None;
  SourceLoc loc;
  int64_t i = 0;
  bool above_int64 = false;       // Int: i holds the bits of a Python int in [2^63, 2^64)
  double f = 0;
  std::string s;                  // Str, Path ("T.float32"), BlockSpec name
  PrimExpr expr;                  // Expr
  bool declared_var = false;      // Expr: a Var made by T.int32() / T.axis.*: assigning names it
  Buffer buffer;                  // Buffer, Subscript
  std::vector<Value> items;       // Tuple, List, Dict values, Slice (start, stop, step), Subscript indices
  std::vector<Value> keys;        // Dict
  std::shared_ptr<Type> type;     // TypeObj
  std::shared_ptr<LoopSpec> loop;
  std::shared_ptr<BinderFn> binder;
  std::shared_ptr<Value> bound;   // Binder: what an assigned name refers to
  tir::Stmt stmt;                 // Stmt
  tir::IterVar iter_var;          // IterVar (T.iter_var, the node of a T.attr)

  bool is_py_number() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
  // A Python number as Python's float() gives it.
  double as_double() const {
    if (kind == Kind::Float) return f;
    return above_int64 ? static_cast<double>(static_cast<uint64_t>(i)) : static_cast<double>(i);
  }
  static Value none(SourceLoc l) { Value v; v.loc = l; return v; }
  static Value of_int(int64_t x, SourceLoc l) { Value v; v.kind = Kind::Int; v.i = x; v.loc = l; return v; }
  static Value of_float(double x, SourceLoc l) { Value v; v.kind = Kind::Float; v.f = x; v.loc = l; return v; }
  static Value of_bool(bool x, SourceLoc l) { Value v; v.kind = Kind::Bool; v.i = x; v.loc = l; return v; }
  static Value of_str(std::string x, SourceLoc l) { Value v; v.kind = Kind::Str; v.s = std::move(x); v.loc = l; return v; }
  static Value of_expr(PrimExpr e, SourceLoc l) { Value v; v.kind = Kind::Expr; v.expr = std::move(e); v.loc = l; return v; }
  static Value of_buffer(Buffer b, SourceLoc l) { Value v; v.kind = Kind::Buffer; v.buffer = std::move(b); v.loc = l; return v; }
  static Value of_stmt(tir::Stmt s, SourceLoc l) { Value v; v.kind = Kind::Stmt; v.stmt = std::move(s); v.loc = l; return v; }
  static Value of_binder(BinderFn fn, std::optional<Value> bound, SourceLoc l);
};

struct CallArgs {
  std::string path;  // "T.alloc_buffer"
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  SourceLoc loc;

  const Value* kw(const std::string& name) const;
  // The positional argument i, else keyword `name`, else null.
  const Value* arg(size_t i, const std::string& name) const;
};

// The block (or the function's root) being parsed: T.axis.*, T.where, T.reads/writes,
// T.alloc_buffer and T.init() add to it.
struct BlockFrame {
  std::string name;
  std::vector<IterVar> iter_vars;
  std::vector<PrimExpr> iter_values;
  PrimExpr predicate;
  std::optional<std::vector<BufferRegion>> reads, writes;
  Annotations annotations;
  bool has_annotations = false;
  std::vector<Buffer> alloc_buffers;
  std::vector<MatchBufferRegion> match_buffers;
  Stmt init;
  bool is_root = false;
  bool no_realize = false;  // T.block(no_realize=True): a bare Block, no BlockRealize
  int depth = 0;  // the parser's scope depth directly inside the block
};

class Parser;
BinderFn let_binder(Var v, PrimExpr value, SourceLoc loc);
// A T.* function: its arguments in, its Value out.
using Handler = Value (*)(Parser&, CallArgs&);

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}
  IRModule module();

  // Errors.
  [[noreturn]] void fail(const std::string& msg, SourceLoc loc) const;
  [[noreturn]] void fail_here(const std::string& msg) const;
  void reject_chained_assignment() const;  // at the `=` of an assignment, before its value

  // Conversions (parser_ops.cpp).
  PrimExpr to_expr(const Value& v);
  PrimExpr literal_as(const Value& v, DataType t);
  // A Python int (or bool) as an IntImm of integer type t located at `at`. An int above int64's range fits only
  // uint64, and a uint64 literal cannot be negative (the IntImm holds its bits): TirSyntaxError.
  PrimExpr int_literal(const Value& v, DataType t, SourceLoc at);
  // The operand of T.Cast / T.cast / astype: as to_expr, except that a Python int above int64's
  // range is read as the uint64 literal it can only be.
  PrimExpr cast_operand(const Value& v);
  PrimExpr float_literal(double v, DataType t, SourceLoc loc);  // a Python number as a literal of type t
  PrimExpr fold_cast(DataType t, const PrimExpr& e, SourceLoc loc);
  std::pair<PrimExpr, PrimExpr> match_types(const Value& a, const Value& b, SourceLoc loc);
  Value binary(const std::string& op, const Value& a, const Value& b, SourceLoc loc);
  Value compare(const std::string& op, const Value& a, const Value& b, SourceLoc loc);
  Value unary(const std::string& op, const Value& a, SourceLoc loc);
  Value logical(const std::string& op, const Value& a, const Value& b, SourceLoc loc);
  PrimExpr sugar_binary(ExprKind kind, const Value& a, const Value& b, SourceLoc loc);
  PrimExpr range_extent(const PrimExpr& lo, const PrimExpr& hi, SourceLoc loc);
  std::vector<PrimExpr> load_indices(const Value& subscript);
  BufferRegion region_of(const Value& subscript);
  PrimExpr store_value(const Buffer& b, int index_lanes, const Value& v, SourceLoc loc);
  DataType dtype_of(const Value& v, const char* what);
  int64_t int_of(const Value& v, const char* what);
  std::string str_of(const Value& v, const char* what);
  std::string value_text(const Value& v) const;  // a value as an error message shows it
  std::vector<Value> sequence_of(const Value& v);
  AttrValue attr_of(const Value& v);
  Annotations annotations_of(const Value& v);

  // Calls (parser_calls.cpp, parser_expr_calls.cpp).
  void arity(const CallArgs& c, size_t lo, size_t hi);
  std::vector<PrimExpr> exprs(const std::vector<Value>& vs, size_t from = 0);
  Value call(CallArgs& c);
  Buffer buffer_from_call(const CallArgs& c, size_t first, bool allow_data, const char* default_dtype);
  Value declare_var(DataType t, Type annotation, SourceLoc loc);
  BlockFrame& frame(const char* what, SourceLoc loc);
  std::string target_name(const char* fallback) const;

  // Expressions (parser_expr.cpp).
  Value expression();
  Value ternary();
  Value or_test();
  Value and_test();
  Value not_test();
  Value comparison();
  Value bit_or();
  Value bit_xor();
  Value bit_and();
  Value shift();
  Value arith();
  Value term();
  Value factor();
  Value power();
  Value primary();
  Value atom();
  Value subscript(const Value& base, SourceLoc loc);
  Value attribute(const Value& base, const std::string& name, SourceLoc loc);
  Value resolve_path(const Value& path);
  Value expression_list(const char* closer);
  void item_into(std::vector<Value>& out);

  // Statements (parser_stmt.cpp).
  Stmt suite();
  Stmt statements();
  // Parses one statement. A binder sets binder_done and leaves its wrapper in pending_binder_.
  Stmt statement(bool& binder_done);
  Stmt with_statement();
  Stmt block_from_frame(BlockFrame f, Stmt body, SourceLoc loc);
  Stmt for_statement();
  // Loops with a step (parser_loop_step.cpp).
  PrimExpr step_of(const LoopSpec& spec, DataType t, SourceLoc l);
  PrimExpr step_count(const PrimExpr& extent, const LoopSpec& spec, SourceLoc l);
  Stmt stepped_loop_binding(const Var& var, const Var& counter, const PrimExpr& start, const PrimExpr& step, Stmt body,
                            SourceLoc l);
  Stmt guard_stepped_loop(Stmt loop, const PrimExpr& extent, const LoopSpec& spec, const std::string& name, SourceLoc l);
  Stmt if_statement();
  Stmt assignment(bool& binder_done);
  bool at_paren_targets() const;
  Stmt bind_assign(const std::vector<std::string>& names, const Value& rhs, SourceLoc loc, bool& binder_done);
  Stmt store(const Value& target, const Value& value, SourceLoc loc);
  PrimFunc function();
  void decorator(bool& is_private, bool& check_well_formed);
  void skip_import();
  void prescan_signatures();

  // Tokens.
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool at_op(const char* op, size_t ahead = 0) const;
  bool at_name(const char* name, size_t ahead = 0) const;
  bool accept_op(const char* op);
  void expect_op(const char* op, const char* context);
  std::string expect_name(const char* context);
  void expect_newline();
  SourceLoc loc() const;

  // Names.
  void push_scope() { scopes_.emplace_back(); }
  void pop_scope() { scopes_.pop_back(); }
  void bind(const std::string& name, Value v) { scopes_.back()[name] = std::move(v); }
  const Value* lookup(const std::string& name) const;

  std::vector<Token> toks_;
  size_t pos_ = 0;
  std::vector<std::unordered_map<std::string, Value>> scopes_;
  std::vector<BlockFrame> frames_;
  struct LoopInfo {
    Var var;
    PrimExpr min, extent;
  };
  std::vector<LoopInfo> loops_;
  // The names an assignment is about to bind (T.alloc_buffer, T.int32(), T.axis.* name what they
  // make after them).
  std::vector<std::string> targets_;
  // T.env_thread's Vars and their thread tags: T.launch_thread(var, n) launches one of these.
  std::unordered_map<const VarNode*, std::string> env_threads_;
  bool in_annotation_ = false;
  std::string module_name_;
  std::unordered_map<std::string, std::optional<Type>> signatures_;  // function -> ret type
  std::vector<std::pair<std::string, std::shared_ptr<PrimFuncNode>>> module_functions_;
  PrimFuncNode* func_ = nullptr;                                     // the function being parsed
  int depth_ = 0;
  int loop_depth_ = 0;
  int scope_depth_ = 0;
  int suite_depth_ = 0;     // indented blocks around the statement (bounded like Python's)
  BinderFn pending_binder_;  // nested suites and binder bodies: block declarations must sit directly in their block  // for and while loops around the statement (break/continue need one)  // expression nesting, bounded so hostile input cannot exhaust the stack
};

const std::unordered_map<std::string, Handler>& statement_handlers();
const std::unordered_map<std::string, Handler>& expression_handlers();
// T.exp(x), T.pow(x, y), T.isnan(x), T.ret(x), ...: the shared builtin table.
Value builtin_call(Parser& p, CallArgs& c, const struct Builtin& b);
// T.float32(x), T.int64(), T.handle(...): typed literals, casts and Var declarations.
Value dtype_call(Parser& p, CallArgs& c, DataType t);
// T.iter_var(var, T.Range(begin, end), "ThreadIndex", "threadIdx.x"): an IterVar for T.attr.
Value iter_var_call(Parser& p, CallArgs& c);
// tx = T.env_thread("threadIdx.x"); T.launch_thread(tx, 32) or T.launch_thread("threadIdx.x", 32).
Value env_thread_call(Parser& p, CallArgs& c);
Value launch_thread_call(Parser& p, CallArgs& c);
// A.vload(begin, dtype, predicate), A.vstore(begin, value, predicate): args[0] is A.
Value buffer_vload(Parser& p, CallArgs& c);
Value buffer_vstore(Parser& p, CallArgs& c);

}  // namespace onegrad::tir
