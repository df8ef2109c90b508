#include "tir_compile/compiled_func.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include "codegen/heuristics.h"
#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"
#include "runtime/build_once.h"
#include "runtime/device.h"
#include "runtime/program.h"
#include "runtime/program_cache.h"
#include "tir/interpret/interpret_errors.h"
#include "tir/print/printer.h"
#include "tir_compile/lower_func.h"
#include "tir_compile/schedule_blocks.h"
#include "uop/errors.h"

namespace onegrad::tir {

namespace {

// The kernel's entry symbol: `tir_` and the function's name as a C identifier. Tensor kernels are
// named r_/E_ (render/kernel_name.h), and the program cache keys by source anyway.
std::string entry_name(const std::string& name) {
  std::string out = "tir_";
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

// The shared codegen pipeline (codegen/pipeline.h) with `opts`: optimize, expand, isel
// (simplify_kernel, select_instructions, vectorize), memory plan, linearize, render_c.
ProgramSpec render(const LoweredPrimFunc& l, const std::string& name, const std::vector<Opt>& opts) {
  ProgramSpec spec;
  spec.name = entry_name(name);
  spec.source = run_pipeline(l.sink, c_target(), spec.name, opts, /*in_order_sums=*/true).source;
  spec.num_buffers = int(l.buffer_params.size()) + (l.status.used ? 1 : 0) + int(l.heap.size());
  spec.num_vars = int(l.var_slots.size());
  spec.threads = int(l.threads);
  return spec;
}

// The interpreter's error for the fault the kernel reported.
[[noreturn]] void raise_fault(const FaultRecord& f, const std::array<int64_t, kStatusWords>& status) {
  std::string message = f.text.at(0);
  for (size_t k = 1; k < f.text.size(); k++) message += std::to_string(status[kDetail + k - 1]) + f.text[k];
  switch (f.kind) {
    case FaultRecord::Kind::DivisionByZero: throw TirDivisionByZero(message, f.line);
    case FaultRecord::Kind::Assertion: throw TirAssertionError(message, f.line);
    case FaultRecord::Kind::IndexOutOfBounds: throw TirIndexError(message, f.buffer, f.line);
  }
  throw InternalError("compiled PrimFunc: unknown fault kind");
}

}  // namespace

CompiledPrimFunc::CompiledPrimFunc(PrimFunc func, std::string name, std::string source, std::shared_ptr<Program> program,
                                   std::vector<size_t> buffer_params, std::vector<const VarNode*> var_slots,
                                   StatusChannel status, std::vector<PrimFunc> callees, std::vector<HeapArray> heap)
    : func_(std::move(func)), name_(std::move(name)), source_(std::move(source)), program_(std::move(program)),
      buffer_params_(std::move(buffer_params)), var_slots_(std::move(var_slots)), status_(std::move(status)),
      callees_(std::move(callees)), heap_(std::move(heap)) {}

int CompiledPrimFunc::threads() const { return program_->threads(); }

std::optional<RuntimeValue> CompiledPrimFunc::run_returning(const BoundCall& call) const {
  std::vector<void*> data;
  for (size_t p : buffer_params_) {
    if (p >= call.data.size() || call.data[p] == nullptr)
      throw ArgumentError("compiled PrimFunc " + name_ + ": no data pointer for parameter " + std::to_string(p));
    // the kernel's buffer pointers are restrict: one array passed twice would be undefined
    for (size_t q = 0; q < data.size(); q++)
      if (data[q] == call.data[p])
        throw ArgumentError("compiled PrimFunc " + name_ + ": parameters " + std::to_string(buffer_params_[q]) + " and " +
                            std::to_string(p) + " are the same array; compiled code needs buffers that do not overlap");
    data.push_back(call.data[p]);
  }
  std::vector<int64_t> vars;
  for (const VarNode* v : var_slots_) {
    auto it = call.vars.find(v);
    if (it == call.vars.end()) throw ArgumentError("compiled PrimFunc " + name_ + ": the call binds no value for " + v->name_hint);
    vars.push_back(encode_variable(it->second));
  }
  std::array<int64_t, kStatusWords> status{};
  if (status_.used) data.push_back(status.data());
  HeapFrame heap(heap_, var_slots_, vars);  // freed however the call ends
  data.insert(data.end(), heap.pointers().begin(), heap.pointers().end());
  program_->run_on_host(data, vars);
  if (status[kState] > 0) raise_fault(status_.faults.at(size_t(status[kState] - 1)), status);
  if (status[kState] == kReturned) return decode_variable(status[kReturnValue], status_.returns);
  return std::nullopt;
}

namespace {

// Compiled functions by (PrimFunc node, name, lowering settings), held weakly: while anyone holds
// a CompiledPrimFunc (which holds its PrimFunc, so the node's address is not reused), compiling
// that function again returns it without printing or lowering it.
class HeldFunctions {
 public:
  std::shared_ptr<const CompiledPrimFunc> find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second.lock();
  }
  void add(const std::string& key, const std::shared_ptr<const CompiledPrimFunc>& f) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(entries_, [](const auto& e) { return e.second.expired(); });
    entries_[key] = f;
  }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::weak_ptr<const CompiledPrimFunc>> entries_;
};

HeldFunctions& held_functions() {
  static HeldFunctions cache;
  return cache;
}

// What one program structure compiled to, whichever parse of it asked first.
struct CompiledStructure {
  std::string source;
  std::shared_ptr<Program> program;
  std::vector<size_t> buffer_params;
  StatusChannel status;
  std::vector<HeapArray> heap;
};

// By structure (DESIGN decision 6): the function and its callees as TVMScript (the printer
// round-trips, so two functions that print alike are structurally equal), its name and the
// lowering settings. Held for the process, as the engine holds its compiled kernels.
BuildOnce<std::string, std::shared_ptr<const CompiledStructure>>& compiled_structures() {
  static BuildOnce<std::string, std::shared_ptr<const CompiledStructure>> cache;
  return cache;
}

std::atomic<uint64_t> structures_compiled{0}, functions_compiled{0};

std::string structural_key(const PrimFunc& f, const std::vector<PrimFunc>& callees, const IRModule& module,
                           const std::string& name) {
  std::string key = name + "\n" + lowering_settings_key() + "\n" + print_prim_func(name, f);
  for (const auto& [n, g] : module.functions)
    if (std::find(callees.begin(), callees.end(), g) != callees.end()) key += "\n" + print_prim_func(n, g);
  return key;
}

std::shared_ptr<const CompiledStructure> compile_structure(const PrimFunc& f, const IRModule& module, const std::string& name) {
  BlockSchedule scheduled = schedule_blocks_as_opts(f);  // the same params and buffers: var_slots are f's Vars
  LoweredPrimFunc l = lower_prim_func(*scheduled.func, name, &module, false, scheduled.upcast);
  if (l.unreported_bounds)
    l = lower_prim_func(*scheduled.func, name, &module, /*report_bounds=*/true, scheduled.upcast, l.bounds_loops);
  ProgramSpec spec;
  try {
    spec = render(l, name, tir_kernel_opts(l));
  } catch (const OptError&) {
    spec = render(l, name, {});  // an UPCAST the kernel refuses (a kernel that runs in order): loops
  }
  auto out = std::make_shared<CompiledStructure>();
  out->program = default_program_cache().get(get_device("CPU"), spec);
  out->source = std::move(spec.source);
  out->buffer_params = std::move(l.buffer_params);
  out->status = std::move(l.status);
  out->heap = std::move(l.heap);
  structures_compiled++;
  return out;
}

}  // namespace

namespace {

// Whether every store of the kernel writes a REDUCE's value (a matmul, a convolution, a row sum):
// no load then follows a loop that stores (its ordering edge names that loop's RANGE), which
// Expand cannot copy yet ("RANGE ... is left after Expand" on a softmax with its row loop upcast).
// A sum may also read what an earlier loop stored (an rfactor matmul's second nest reads the
// partial sums the first stored): that load's AFTER names the storing loop's END or RANGE too.
bool load_follows_a_storing_loop(const UOp* load) {
  for (const UOp* a : load->src[0]->toposort())
    if (a->op == Ops::AFTER)
      for (size_t k = 1; k < a->src.size(); k++)
        if (a->src[k]->op == Ops::END || a->src[k]->op == Ops::RANGE) return true;
  return false;
}

bool only_sums_stored(const UOpRef& sink) {
  for (const UOp* u : sink->toposort()) {
    if (u->op == Ops::STORE && u->src[1]->op != Ops::REDUCE) return false;
    if (u->op == Ops::LOAD && load_follows_a_storing_loop(u)) return false;
  }
  return true;
}

}  // namespace

// The shared register-blocking heuristics for the kernel's sums (lower_reduction.cpp makes them
// REDUCEs) without their UNROLL of a reduce axis: Expand adds the unrolled terms to each other
// before the accumulator, another order of additions than the program's. Kernels that also store
// other values get none (only_sums_stored).
std::vector<Opt> tir_kernel_opts(const LoweredPrimFunc& l) {
  std::vector<Opt> opts;
  if (!only_sums_stored(l.sink)) return opts;
  for (const Opt& o : hand_coded_opts(l.sink))
    if (!(o.op == OptOp::SPLIT && o.target == AxisType::UNROLL)) opts.push_back(o);
  return opts;
}

uint64_t structures_compiled_count() { return structures_compiled.load(); }
uint64_t functions_compiled_count() { return functions_compiled.load(); }

std::shared_ptr<const CompiledPrimFunc> compile_prim_func(const IRModule& module, const std::string& name) {
  PrimFunc f = module.find(name);
  if (!f) throw ArgumentError("the module has no PrimFunc named '" + name + "'");
  // the functions it calls are inlined: their nodes are part of what was compiled
  std::vector<PrimFunc> callees = called_functions(module, *f);
  std::string held = std::to_string(reinterpret_cast<uintptr_t>(f.get())) + " " + name + " " + lowering_settings_key();
  for (const PrimFunc& g : callees) held += " " + std::to_string(reinterpret_cast<uintptr_t>(g.get()));
  if (auto hit = held_functions().find(held)) return hit;
  std::shared_ptr<const CompiledStructure> c =
      compiled_structures().get(structural_key(f, callees, module, name), [&] { return compile_structure(f, module, name); });
  auto compiled = std::make_shared<const CompiledPrimFunc>(f, name, c->source, c->program, c->buffer_params,
                                                           variable_slots(*f), c->status, std::move(callees), c->heap);
  held_functions().add(held, compiled);
  functions_compiled++;
  return compiled;
}

}  // namespace onegrad::tir
