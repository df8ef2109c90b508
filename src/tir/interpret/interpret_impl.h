// The interpreter's machinery, shared by interpret_expr.cpp (PrimExprs), interpret_stmt.cpp
// (statements) and interpret_call.cpp (builtins, PrimFunc calls, argument binding).
#pragma once
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "tir/interpret/interpret.h"
#include "tir/interpret/interpret_memory.h"
#include "tir/interpret/interpret_stack.h"

namespace onegrad::tir {

// Control transfers that unwind the C++ stack: tir.ret, tir.break, tir.continue. Not errors, so
// they do not derive from Error.
struct ReturnSignal {
  RuntimeValue value;
};
struct BreakSignal {};
struct ContinueSignal {};

// One activation of a PrimFunc: the values of its Vars and the arrays its Buffers are bound to.
struct Frame {
  std::unordered_map<const VarNode*, RuntimeValue> vars;
  std::unordered_map<const BufferNode*, ArrayRef> buffers;
};

// The integer value of e (a buffer's declared extent, stride or offset) given the values of its
// Vars, by the interpreter's own rules; TirRuntimeError when a Var is unbound.
int64_t evaluate_int(const PrimExpr& e, const std::unordered_map<const VarNode*, RuntimeValue>& vars);

class Interpreter {
 public:
  Interpreter(const IRModule& module, InterpretLimits limits) : module_(module), limits_(limits) {}

  // Runs f, called as `name`, after bind_arguments (tir/interpret/bind_arguments.h) has checked `args`.
  std::optional<RuntimeValue> call(const PrimFuncNode& f, const std::string& name, const std::vector<Argument>& args,
                                   int line);

  RuntimeValue eval(const PrimExpr& e);
  void exec(const Stmt& s);
  Frame& push_frame() { return frames_.emplace_back(); }

 private:
  // Expressions (interpret_expr.cpp).
  RuntimeValue eval_binary(const BinaryNode& b);
  RuntimeValue eval_logical(const BinaryNode& b);
  RuntimeValue eval_load(const BufferLoadNode& l);
  RuntimeValue eval_shuffle(const ShuffleNode& s);
  // Builtins and global calls (interpret_call.cpp).
  RuntimeValue eval_call(const CallNode& c);
  RuntimeValue eval_builtin(const CallNode& c);
  // Statements (interpret_stmt.cpp).
  void exec_store(const BufferStoreNode& s);
  void exec_for(const ForNode& f);
  void exec_allocate(const AllocateNode& a);
  void exec_block_realize(const BlockRealizeNode& r);
  void exec_block(const BlockNode& b, bool run_init);
  void bind_match_buffer(const MatchBufferRegion& m, int line);

  // Scalar integer value of e (an index, extent or condition).
  int64_t eval_int(const PrimExpr& e) { return eval(e).int_at(0); }
  // The array `buffer` denotes now: its binding, or one built from its data Var's pointer.
  ArrayRef array_of(const Buffer& buffer, int line);
  // Every index as a list of per-lane integer vectors (scalar indices have one lane).
  std::vector<std::vector<int64_t>> lane_indices(const std::vector<PrimExpr>& indices, int& lanes);
  // Fresh zeroed memory for `shape` of `dtype`, owned by the interpreter until `release`.
  ArrayRef allocate(DataType dtype, const std::vector<int64_t>& shape, int line);
  // Memory for a buffer the program allocates, laid out by its declared strides (allocation_layout).
  ArrayRef allocate_buffer(const Buffer& buffer, int line);
  // `n` zeroed elements of a.dtype as a.data; a's shape, strides and elem_offset index them.
  ArrayRef allocate_elements(ArrayRef a, int64_t n, int line);
  void release(const ArrayRef& a);
  void check_view_fits(const ArrayRef& view, const std::string& name, int line) const;
  // Binds a block's match_buffer declaration (shape, strides, elem_offset Vars) to the region's
  // view `array`, checking literal extents; its strides and elem_offset are not checked (the region
  // is defined by index offsetting, its layout is the spec's implementation detail). Calls bind
  // their arguments with bind_arguments instead.
  void match_buffer(const Buffer& buffer, const ArrayRef& array, int line);
  void bind_or_check(const PrimExpr& declared, int64_t actual, const std::string& what, bool check, int line);
  RuntimeValue var_value(const VarNode* v, int line);

  const IRModule& module_;
  // A deque: scopes hold Frame references across nested calls, which push frames.
  std::deque<Frame> frames_;
  // Every array known by its data address (arguments and allocations), so a handle passed to
  // another PrimFunc can be matched against its buffer parameter.
  std::map<uintptr_t, ArrayRef> arrays_;
  std::map<uintptr_t, std::unique_ptr<char[]>> owned_;
  StackGuard stack_;
  InterpretLimits limits_;
  int64_t statements_ = 0;
};

}  // namespace onegrad::tir
