// TIR statements (spec: Stmt), immutable and shared like expressions. Attribute and annotation
// values (spec: Object*) are literals, buffers, and lists or string-keyed dicts of them, which is
// all TVMScript can write.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tir/ast/buffer.h"

namespace onegrad::tir {

struct AttrValue {
  PrimExpr expr;                // a literal (IntImm, FloatImm, StringImm) or any expression
  std::vector<AttrValue> list;  // when is_list (a dict's values when is_dict)
  bool is_list = false;
  bool is_dict = false;          // T.func_attr({"k": {"a": 1}}): list holds the values of keys
  std::vector<std::string> keys;
  Buffer buffer;                 // T.block_attr({"k": B}): a buffer of the function (expr is null)
};
using Annotations = std::vector<std::pair<std::string, AttrValue>>;

enum class StmtKind : uint8_t {
  LetStmt, AttrStmt, AssertStmt, BufferStore, BufferRealize, Allocate, DeclBuffer, SeqStmt,
  IfThenElse, Evaluate, For, While, Block, BlockRealize,
};
const char* stmt_kind_name(StmtKind k);

enum class ForKind : uint8_t { Serial, Parallel, Vectorized, Unrolled, ThreadBinding };

struct StmtNode {
  StmtNode(StmtKind kind, SourceLoc loc) : kind(kind), loc(loc) {}
  virtual ~StmtNode() = default;
  StmtKind kind;
  SourceLoc loc;

  template <class T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
};
using Stmt = std::shared_ptr<const StmtNode>;

#define ONEGRAD_TIR_STMT(Name)                 \
  static constexpr StmtKind kKind = StmtKind::Name; \
  explicit Name##Node(SourceLoc loc = {}) : StmtNode(kKind, loc) {}

struct LetStmtNode : StmtNode {
  ONEGRAD_TIR_STMT(LetStmt)
  Var var;
  PrimExpr value;
  Stmt body;
};

// node (spec: ObjectRef): a Var or other expression, a Buffer, or an IterVar (thread_extent).
struct AttrStmtNode : StmtNode {
  ONEGRAD_TIR_STMT(AttrStmt)
  PrimExpr node_expr;
  Buffer node_buffer;
  IterVar node_iter_var;
  std::string attr_key;
  PrimExpr value;
  Stmt body;
};

struct AssertStmtNode : StmtNode {
  ONEGRAD_TIR_STMT(AssertStmt)
  PrimExpr condition, message;
  Stmt body;
};

struct BufferStoreNode : StmtNode {
  ONEGRAD_TIR_STMT(BufferStore)
  Buffer buffer;
  PrimExpr value;
  std::vector<PrimExpr> indices;
  PrimExpr predicate;  // as BufferLoad's: lanes that are off are not written; null: every lane
};

struct BufferRealizeNode : StmtNode {
  ONEGRAD_TIR_STMT(BufferRealize)
  Buffer buffer;
  std::vector<Range> bounds;
  PrimExpr condition;
  Stmt body;
};

struct AllocateNode : StmtNode {
  ONEGRAD_TIR_STMT(Allocate)
  Var buffer_var;
  DataType dtype;
  std::vector<PrimExpr> extents;
  PrimExpr condition;
  Stmt body;
  Annotations annotations;
};

struct DeclBufferNode : StmtNode {
  ONEGRAD_TIR_STMT(DeclBuffer)
  Buffer buffer;
  Stmt body;
};

struct SeqStmtNode : StmtNode {
  ONEGRAD_TIR_STMT(SeqStmt)
  std::vector<Stmt> seq;
};

struct IfThenElseNode : StmtNode {
  ONEGRAD_TIR_STMT(IfThenElse)
  PrimExpr condition;
  Stmt then_case;
  Stmt else_case;  // may be null
};

struct EvaluateNode : StmtNode {
  ONEGRAD_TIR_STMT(Evaluate)
  PrimExpr value;
};

struct ForNode : StmtNode {
  ONEGRAD_TIR_STMT(For)
  Var loop_var;
  PrimExpr min, extent;
  ForKind kind = ForKind::Serial;
  Stmt body;
  IterVar thread_binding;  // ThreadBinding loops only
  Annotations annotations;
};

struct WhileNode : StmtNode {
  ONEGRAD_TIR_STMT(While)
  PrimExpr condition;
  Stmt body;
};

struct BlockNode : StmtNode {
  ONEGRAD_TIR_STMT(Block)
  std::vector<IterVar> iter_vars;
  std::vector<BufferRegion> reads, writes;
  std::string name_hint;
  Stmt body;
  Stmt init;  // may be null
  std::vector<Buffer> alloc_buffers;
  std::vector<MatchBufferRegion> match_buffers;
  Annotations annotations;
};
using Block = std::shared_ptr<const BlockNode>;

struct BlockRealizeNode : StmtNode {
  ONEGRAD_TIR_STMT(BlockRealize)
  std::vector<PrimExpr> iter_values;
  PrimExpr predicate;
  Block block;
};

#undef ONEGRAD_TIR_STMT

// A SeqStmt of `stmts`, or the one statement when there is exactly one.
Stmt make_seq(std::vector<Stmt> stmts, SourceLoc loc = {});

}  // namespace onegrad::tir
