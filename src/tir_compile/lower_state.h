// What the TIR walker (docs/tir.md, "Compiling") knows at a point of the PrimFunc: the values of the
// variables in scope, where each buffer's data lives in the kernel, which side effects later memory
// accesses must follow, the loops and the condition around the current statement.
//
// Vectors are lowered lane by lane: a TIR value is a list of scalar UOps, one per lane.
#pragma once
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tir/ast/module.h"
#include "tir_compile/lower_func.h"
#include "uop/uop.h"

namespace onegrad::tir {

using Lanes = std::vector<UOpRef>;

// Where a data pointer's elements live in the kernel: a buffer PARAM or a register BUFFER.
struct Memory {
  UOpRef base;
  DataType elem;     // the element type (lanes 1)
  UOpRef capacity;   // scalars from base the array reaches (index; null: not an array a view may take)
};

// The side effects on one memory that a later access must be ordered after (docs/tir.md,
// "Ordering through memory"): the last write (a STORE, or the END of a loop that stores), and the
// reads since it (LOADs, or ENDs of loops that load). A load follows the write; a store follows both.
struct Effects {
  UOpRef write;
  std::vector<UOpRef> reads;
};

struct OpenLoop {
  UOpRef range;
  std::unordered_set<const VarNode*>* stores;  // root data vars the loop's body stores to
  const StmtNode* body;                        // the TIR loop's body (LoweredPrimFunc::bounds_loops)
};

// Per loop being lowered (RANGE or expanded), innermost last: its break/continue flags, a register
// buffer (null when its body neither breaks nor continues). lower_control.cpp. An inlined call of
// a PrimFunc that returns is one too (lower_call.cpp): flags[0] "returned", flags[1] always clear,
// and `value` the register holding what it returned.
struct LoopControl {
  Var flags;
  Var value;
  bool is_call = false;
};

// Where a buffer's elements sit in its memory: elem_offset and one stride per dimension (index
// values). A buffer's own fields give it; a match_buffer's comes from its source region.
struct Layout {
  UOpRef offset;
  std::vector<UOpRef> strides;
};

// What an array a handle points to looks like, as a callee's buffer is matched against it (the
// interpreter matches the array passed to or allocated by the function, whatever view reaches it).
struct ArrayShape {
  std::vector<UOpRef> shape;  // index values
  Layout layout;
  bool compact = true;        // row-major without gaps (a buffer without declared strides)
};

struct LowerState {
  bool report_bounds = false;      // the status buffer exists for out-of-bounds faults (lower_func.h)
  bool unreported_bounds = false;  // an access kept a bounds check that no status buffer reports
  std::unordered_map<const VarNode*, Lanes> values;   // Vars in scope (loop vars, lets, params, iter vars)
  // Memory and effects are keyed by the root data Var: a match_buffer's data is its source's memory.
  std::unordered_map<const VarNode*, const VarNode*> alias;  // match_buffer data -> source data
  std::unordered_map<const VarNode*, Memory> memory;  // root data Vars with storage
  std::unordered_map<const VarNode*, Effects> effects;
  // match_buffers, a callee's parameter buffers and allocated buffers in scope: their layout
  std::unordered_map<const BufferNode*, Layout> views;
  // the function's parameter buffers: with `views`, the buffers bound to an array; any other
  // (DeclBuffer, T.Buffer(data=...)) is checked against the array it points to (check_view)
  std::unordered_set<const BufferNode*> bound_buffers;
  // loops (their bodies) around an access with a bounds check (LoweredPrimFunc::bounds_loops):
  // written by the first lowering, read by the one with report_bounds
  std::unordered_set<const StmtNode*>* bounds_loops = nullptr;
  // the body of the reduce loop nest being lowered as a REDUCE (lower_reduction.cpp), if any: a
  // bounds check inside it makes the lowering with report_bounds lower the nest as loops, whose
  // iterations can stop at the first bad index
  const StmtNode* reduction_nest = nullptr;
  std::vector<OpenLoop> loops;                        // outermost first (RANGE loops only)
  std::vector<LoopControl> controls;                  // every loop, outermost first
  UOpRef gate;                                        // the condition around the statement; null: none
  std::vector<UOpRef>* body = nullptr;                // the side effects of the innermost loop (or kernel)
  int64_t next_range = 0, next_buffer = 0;
  const ForNode* thread_loop = nullptr;  // the For that becomes the kernel's THREAD axis, if any
  const std::vector<const ForNode*>* upcast = nullptr;  // loops whose RANGEs the kernel upcasts
  std::vector<UOpRef>* upcast_ranges = nullptr;        // their RANGEs, as lowered
  int64_t threads = 0;                    // its parts
  // Top-level loops that share one THREAD axis (lower_func.cpp, "shared THREAD axis"): each runs
  // the iterations t * chunk .. (t + 1) * chunk - 1 of its own extent in thread t of `shared_thread`.
  std::vector<const ForNode*> thread_nests;
  UOpRef shared_thread;  // that RANGE (THREAD, `threads` parts); null: none
  std::unordered_map<const ForNode*, std::unordered_set<const VarNode*>> stores_in_loop;  // root data Vars
  const IRModule* module = nullptr;                   // where called PrimFuncs are found
  std::vector<const PrimFuncNode*> inlining;          // the function and the calls being inlined, outermost first
  std::unordered_map<const VarNode*, ArrayShape> arrays;  // root data Vars: the array each is
  Var status;                          // the status buffer's Var (null: the function cannot fault)
  // Arrays too large for the stack or of symbolic size (tir_compile/heap_arrays.h): hidden buffer
  // slots from first_heap_slot, sized on the host from the variable slots' values.
  std::vector<HeapArray>* heap = nullptr;
  int64_t first_heap_slot = 0;
  const std::vector<const VarNode*>* var_slots = nullptr;
  std::vector<FaultRecord>* faults = nullptr;  // the kernel's fault table
  // T.launch_thread attributes as the serial loops they run as (made once, kept for the keys above)
  std::unordered_map<const AttrStmtNode*, std::shared_ptr<const ForNode>> launches;

  const VarNode* root(const VarNode* data) const {
    for (auto it = alias.find(data); it != alias.end(); it = alias.find(data)) data = it->second;
    return data;
  }
};

// A binding that restores what it shadowed when it goes out of scope.
class ScopedValue {
 public:
  ScopedValue(LowerState& s, const VarNode* var, Lanes v) : s_(s), var_(var) {
    auto it = s.values.find(var);
    if (it != s.values.end()) saved_ = it->second, had_ = true;
    s.values[var] = std::move(v);
  }
  ~ScopedValue() {
    if (had_) s_.values[var_] = saved_;
    else s_.values.erase(var_);
  }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  LowerState& s_;
  const VarNode* var_;
  Lanes saved_;
  bool had_ = false;
};

// The gate `g && c` (either may be null: no condition).
UOpRef and_gate(const UOpRef& g, const UOpRef& c);

// A condition that replaces the state's gate while it lives.
class ScopedGate {
 public:
  ScopedGate(LowerState& s, const UOpRef& c) : s_(s), saved_(s.gate) { s.gate = and_gate(s.gate, c); }
  ~ScopedGate() { s_.gate = saved_; }
  ScopedGate(const ScopedGate&) = delete;
  ScopedGate& operator=(const ScopedGate&) = delete;

 private:
  LowerState& s_;
  UOpRef saved_;
};

// ---- expressions (lower_expr.cpp) ----
Lanes lower_expr(LowerState& s, const PrimExpr& e);
UOpRef lower_scalar(LowerState& s, const PrimExpr& e);  // a one-lane value
UOpRef lower_index(LowerState& s, const PrimExpr& e);   // a scalar integer as an `index`
Lanes broadcast_lanes(Lanes v, int lanes);

// ---- memory (lower_memory.cpp) ----
// A predicate (TVM's lane mask; null: none) is lowered after the indices; a lane that is off is
// not touched (its load gives 0) and its bounds do not fault.
Lanes load_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, const PrimExpr& predicate, int line);
// One element of a root memory, read or written under `gate` (null: always), ordered after the
// effects before it; the store goes into the current body.
UOpRef load_element(LowerState& s, const VarNode* root, const UOpRef& flat, const UOpRef& gate, int line);
void store_element(LowerState& s, const VarNode* root, const UOpRef& flat, const UOpRef& value, const UOpRef& gate);
void store_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, const Lanes& value,
                  const PrimExpr& predicate, int line);
Layout buffer_layout(LowerState& s, const BufferNode& b);
// Storage for an Allocate (and the lowering's own flags): a register BUFFER of `extents`' constant
// product elements.
void allocate(LowerState& s, const Var& data, DataType elem, const std::vector<PrimExpr>& extents, const char* construct, int line);
// Storage for a buffer the function allocates (alloc_buffer, BufferRealize), laid out by its
// declared strides as the interpreter lays it out (allocation_layout).
void allocate_buffer(LowerState& s, const BufferNode& b, const char* construct, int line);
// The scalars an array of `lanes`-lane elements reaches from its base (the interpreter's array_reach).
UOpRef array_capacity(const ArrayShape& a, int64_t lanes);
// A buffer declared over a pointer (not bound to an array) must lie inside the array the pointer
// points to: the interpreter's check at every access of it, as a fault.
void check_view(LowerState& s, const BufferNode& b, int line);
// A T.match_buffer region must lie inside its source buffer, dimension by dimension, as the
// interpreter checks when the block binds it: its TirIndexError, as a fault (else the view would
// reach memory past the source's array).
void check_match_region(LowerState& s, const MatchBufferRegion& m, int line);
// ---- break and continue (lower_control.cpp) ----
// The condition that no enclosing loop has broken or continued and the function has not stopped
// (lower_fault.cpp) (null: none can), open/close around a loop, the per-iteration reset, and the statements themselves.
UOpRef loops_running(LowerState& s);
void open_loop_control(LowerState& s, const Stmt& body);
void start_iteration(LowerState& s);
void close_loop_control(LowerState& s);
void break_or_continue(LowerState& s, bool is_break, int line);
// Whether a loop body breaks or continues that loop (not a loop nested in it).
bool has_loop_control(const Stmt& body);
// Loop bookkeeping: the effects inside a loop become its END for the accesses after it.
std::unordered_map<const VarNode*, Effects> summarize_loop(const std::unordered_map<const VarNode*, Effects>& before,
                                                           const std::unordered_map<const VarNode*, Effects>& inside,
                                                           const UOpRef& end);

// ---- faults and returns (lower_fault.cpp) ----
// Whether a statement can stop the function: an integer division by a non-literal, an AssertStmt,
// a T.ret; whether it returns.
bool can_stop(const LowerState& s, const Stmt& st);
bool returns(const LowerState& s, const Stmt& st);
// Makes the status buffer (the hidden buffer slot `slot`) when the body can stop. Returns the type
// its T.ret calls return (void: none); TirNotLowerable when they differ or are not scalars.
DataType open_status(LowerState& s, const Stmt& body, int64_t slot);
// The type of the values a body's own T.ret calls return (void: none); TirNotLowerable when they
// differ or are not scalars.
DataType returned_type(const Stmt& body);
// T.ret(value) as a statement: stores the value and stops the function (or the inlined call).
void lower_return(LowerState& s, const CallNode& ret);
// The condition that the function has not stopped (null: it cannot), read afresh here.
UOpRef function_running(LowerState& s);
// Records a fault where `cond` holds under the current gate (and the function is still running).
void raise_fault(LowerState& s, const UOpRef& cond, FaultRecord r, const std::vector<UOpRef>& details);
// Integer Div/Mod/FloorDiv/FloorMod of lanes a by b of type t (its lanes named in the message): a
// division fault where b is 0 (none for a nonzero literal b).
void check_divisor(LowerState& s, ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t, int line);

// match_buffer data -> its source's data, for every block of the body (lower_func.cpp: a loop's
// stores through a matched buffer are stores to the source's memory, known before the block).
void collect_aliases(const Stmt& body, LowerState& s);

// ---- calls of other PrimFuncs (lower_call.cpp) ----
// The callee inlined at the call: its params bound to the arguments, its buffers viewing the
// caller's memory, its T.ret the call's value. TirNotLowerable for a recursive call.
Lanes lower_prim_func_call(LowerState& s, const CallNode& c);
// Whether a statement calls a PrimFunc (whose stores a loop around it cannot list).
bool calls_prim_func(const Stmt& st);

// ---- statements (lower_stmt.cpp) ----
void lower_stmt(LowerState& s, const Stmt& st);
// A nest of reduce loops around a sum block as a STORE of a REDUCE (lower_reduction.cpp); false,
// with nothing lowered, when `f` does not start one.
bool lower_reduction_nest(LowerState& s, const ForNode& f);

}  // namespace onegrad::tir
