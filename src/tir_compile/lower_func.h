// A PrimFunc as ONE kernel in kernel form (docs/kernel-form.md; docs/tir.md, "Compiling"). Buffer
// parameters become `PARAM ptr<T>` slots in parameter order; every variable the call binds (scalar
// parameters, and the Vars of the parameter buffers' shapes, strides and elem_offsets) becomes a
// `PARAM index` variable slot. Throws TirNotLowerable naming the first construct it cannot lower.
#pragma once
#include <string>
#include <unordered_set>
#include <vector>

#include "tir/interpret/interpret_value.h"
#include "tir/ast/module.h"
#include "tir_compile/heap_arrays.h"
#include "uop/uop.h"

namespace onegrad::tir {

// A run-time error the kernel reports through its status buffer (docs/tir.md, "Compiling: faults"):
// the kernel writes k + 1 to the state word for faults[k] and the values its message needs to the
// detail words; run() rebuilds the interpreter's error.
struct FaultRecord {
  enum class Kind { DivisionByZero, Assertion, IndexOutOfBounds } kind;
  // The message: text[0], then each detail word's value followed by the next piece of text
  // (text.size() - 1 details: a division's dividend, an index tuple, a view's extent).
  std::vector<std::string> text;
  int line = 0;
  std::string buffer;  // an index fault's buffer
  bool operator==(const FaultRecord&) const = default;
};

// The hidden last buffer slot, int64[kStatusWords], zeroed before each launch: kState is 0 while
// the function runs, k > 0 once faults[k - 1] happened, kReturned once it returned (the first of
// them: a stopped function does nothing more); kReturnValue holds the returned value (as
// encode_variable writes it), the kMaxDetails words from kDetail the fault's details.
enum StatusWord : int64_t { kState = 0, kReturnValue = 1, kDetail = 2, kMaxDetails = 16, kStatusWords = kDetail + kMaxDetails };
constexpr int64_t kReturned = -1;

struct StatusChannel {
  bool used = false;  // whether the kernel has the status slot (only a function that can stop)
  std::vector<FaultRecord> faults;
  DataType returns = DataType::void_();  // the type of the values its T.ret calls return (void: none)
};

struct LoweredPrimFunc {
  UOpRef sink;                          // the kernel
  std::vector<size_t> buffer_params;    // buffer slot k -> index in PrimFuncNode::params
  std::vector<const VarNode*> var_slots;  // variable slot k -> the Var whose value it holds
  int64_t threads = 0;                  // the THREAD axis' parts (a parallel loop split in cpu_threads()), 0: none
  StatusChannel status;
  // An access the compiler could not prove in bounds was lowered without a status buffer to
  // report it in: compile_prim_func lowers again with report_bounds.
  bool unreported_bounds = false;
  // The bodies of the loops around such an access: lowered again with report_bounds, each such loop
  // reads the state word afresh per iteration, so the first bad index stops the function.
  std::unordered_set<const StmtNode*> bounds_loops;
  std::vector<UOpRef> upcast_ranges;  // the RANGEs of the loops lower_prim_func was asked to upcast
  // The arrays the host allocates for the kernel: buffer slots after the parameters' and the
  // status slot, in this order (heap_arrays.h).
  std::vector<HeapArray> heap;
};

// The Vars a call binds, in the order of the kernel's variable slots: scalar parameters and the
// Vars of the buffer parameters' shapes, strides and elem_offsets, in parameter order, first use.
// A function's own Vars: compiled code shared by two parses of one program binds each one's.
std::vector<const VarNode*> variable_slots(const PrimFuncNode& f);

// `module` (may be null: no calls) holds the PrimFuncs that f calls.
// With report_bounds, the kernel has the status buffer and an out-of-bounds index is a fault
// (TirIndexError) like a division by zero; without, such an access is only skipped.
// `upcast`: loops of f (schedule_blocks_as_opts) whose RANGEs the result lists in upcast_ranges.
// `bounds_loops`: the first lowering's (report_bounds only).
LoweredPrimFunc lower_prim_func(const PrimFuncNode& f, const std::string& name, const IRModule* module = nullptr,
                                bool report_bounds = false, const std::vector<const ForNode*>& upcast = {},
                                const std::unordered_set<const StmtNode*>& bounds_loops = {});

// The PrimFuncs of `module` that f calls, directly or not (each once): their bodies are inlined, so
// the compiled kernel depends on them too (lower_call.cpp).
std::vector<PrimFunc> called_functions(const IRModule& module, const PrimFuncNode& f);

// What a variable slot holds for a bound value: integers as themselves (already wrapped to their
// type), floats as their bits (the kernel BITCASTs them back).
int64_t encode_variable(const RuntimeValue& v);
// The value of type t that encode_variable wrote as `bits`.
RuntimeValue decode_variable(int64_t bits, DataType t);

}  // namespace onegrad::tir
