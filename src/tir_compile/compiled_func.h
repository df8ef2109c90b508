// A TIR PrimFunc compiled to one C kernel and loaded by the CPU runtime (docs/tir.md, "Compiling").
//
//   auto f = compile_prim_func(module, "main");   // throws TirNotLowerable for what it cannot lower
//   f->run(bind_arguments(*module.find("main"), args));   // on the arguments' own memory
//
// Compiled code is keyed by structure (DESIGN decision 6): the function and the functions it calls
// as TVMScript, its name and the lowering settings (render/lower_kernel.h: lowering_settings_key,
// which includes CPU_THREADS). The same program parsed twice is lowered and compiled once per
// process; the C object is kept on disk by the runtime's program cache, so a second process
// compiles nothing. While a CompiledPrimFunc is held, compiling its own PrimFunc node again
// returns it without printing the function.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/opt.h"
#include "tir/interpret/bound_call.h"
#include "tir/ast/module.h"
#include "tir_compile/lower_func.h"

namespace onegrad {
class Program;
}

namespace onegrad::tir {

class CompiledPrimFunc {
 public:
  // Runs the kernel on the call's data pointers and variable values. The buffer parameters must
  // not overlap (the kernel's pointers are `restrict`). A fault (integer division by zero, a false
  // assert) stops the function's work and, after the launch, raises the interpreter's error
  // (TirDivisionByZero, TirAssertionError) with its line. Arrays too large for the kernel's stack
  // or of symbolic size are allocated for the call (heap_arrays.h): a size that is negative or
  // beyond the interpreter's limit throws TirHeapSizeError before the launch.
  void run(const BoundCall& call) const { run_returning(call); }
  // run, and the value its T.ret returned (nullopt: it returned none), as interpret() gives it.
  std::optional<RuntimeValue> run_returning(const BoundCall& call) const;
  const std::string& source() const { return source_; }  // the C it compiled to
  const std::string& name() const { return name_; }      // the PrimFunc's name in its module
  int threads() const;                                    // THREAD parts of a launch (0: one call)

  CompiledPrimFunc(PrimFunc func, std::string name, std::string source, std::shared_ptr<Program> program,
                   std::vector<size_t> buffer_params, std::vector<const VarNode*> var_slots, StatusChannel status,
                   std::vector<PrimFunc> callees = {}, std::vector<HeapArray> heap = {});

 private:
  PrimFunc func_;  // keeps the Vars of var_slots_ (the keys of BoundCall::vars) alive
  std::string name_, source_;
  std::shared_ptr<Program> program_;
  std::vector<size_t> buffer_params_;        // buffer slot -> parameter index
  std::vector<const VarNode*> var_slots_;    // variable slot -> Var
  StatusChannel status_;                     // the hidden status buffer and its fault table
  std::vector<PrimFunc> callees_;            // the inlined functions (their nodes key the compiled cache)
  std::vector<HeapArray> heap_;              // the arrays each call allocates (heap_arrays.h)
};

// Lowers module's function `name` to a kernel and compiles it. Throws TirNotLowerable (the
// function still runs through the interpreter), ArgumentError for a name the module lacks.
std::shared_ptr<const CompiledPrimFunc> compile_prim_func(const IRModule& module, const std::string& name);

// The opts compile_prim_func applies to a lowered kernel: its sums' register blocking when it
// stores nothing but REDUCEs, else none; an OptError from them leaves the kernel unoptimized.
std::vector<Opt> tir_kernel_opts(const LoweredPrimFunc& l);

// How many program structures this process has lowered and compiled (a test's counter: a second
// parse of one program adds none).
uint64_t structures_compiled_count();
// How many times compile_prim_func found no CompiledPrimFunc held for the node and built one
// (printing the function to find its structure): a held PrimFuncRunner adds none per call.
uint64_t functions_compiled_count();

}  // namespace onegrad::tir
