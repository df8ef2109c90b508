#include "tir_compile/compiled_func.h"

#include <array>
#include <cctype>
#include <mutex>
#include <unordered_map>

#include "codegen/isel.h"
#include "codegen/kernel_axes.h"
#include "codegen/linearize.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"
#include "runtime/device.h"
#include "runtime/program.h"
#include "runtime/program_cache.h"
#include "tir/interpret_errors.h"
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

// Codegen without Optimize and Expand: a TIR kernel's schedule is the one its For kinds say
// (docs/tir.md), so no opts are applied and no heuristic splits or vectorizes it; there are no
// REDUCEs to lower (accumulation is plain stores and loads). Nor simplify_kernel: with the bounds
// gates it rebuilt a loop's RANGE under one use and not under another (a load's AFTER edge), which
// left a RANGE without its END (tests/tir/programs/handle_match_buffer.py); GCC folds the same
// index arithmetic (docs/tir.md "Compiling: performance").
ProgramSpec render(const LoweredPrimFunc& l, const std::string& name) {
  ProgramSpec spec;
  spec.name = entry_name(name);
  UOpRef k = select_instructions(l.sink, c_capabilities());
  spec.source = render_c(linearize(k), spec.name);
  spec.num_buffers = int(l.buffer_params.size()) + (l.status.used ? 1 : 0);
  spec.num_vars = int(l.var_slots.size());
  spec.threads = int(l.threads);
  return spec;
}

// The interpreter's error for the fault the kernel reported.
[[noreturn]] void raise_fault(const FaultRecord& f, const std::array<int64_t, kStatusWords>& status) {
  switch (f.kind) {
    case FaultRecord::Kind::DivisionByZero:
      throw TirDivisionByZero(f.text + std::to_string(status[kDetail]) + f.suffix, f.line);
    case FaultRecord::Kind::Assertion: throw TirAssertionError(f.text, f.line);
    case FaultRecord::Kind::IndexOutOfBounds:
      throw TirIndexError(f.text + std::to_string(status[kDetail]) + f.suffix, f.buffer, f.line);
  }
  throw InternalError("compiled PrimFunc: unknown fault kind");
}

}  // namespace

CompiledPrimFunc::CompiledPrimFunc(PrimFunc func, std::string name, std::string source, std::shared_ptr<Program> program,
                                   std::vector<size_t> buffer_params, std::vector<const VarNode*> var_slots,
                                   StatusChannel status, std::vector<PrimFunc> callees)
    : func_(std::move(func)), name_(std::move(name)), source_(std::move(source)), program_(std::move(program)),
      buffer_params_(std::move(buffer_params)), var_slots_(std::move(var_slots)), status_(std::move(status)),
      callees_(std::move(callees)) {}

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
  program_->run_on_host(data, vars);
  if (status[kState] > 0) raise_fault(status_.faults.at(size_t(status[kState] - 1)), status);
  if (status[kState] == kReturned) return decode_variable(status[kReturnValue], status_.returns);
  return std::nullopt;
}

namespace {

// Compiled functions by (PrimFunc node, name, lowering settings), held weakly: while anyone holds
// a CompiledPrimFunc (which holds its PrimFunc, so the node's address is not reused), compiling
// that function again returns it. A PrimFunc is immutable, so its node identifies its text.
class CompiledCache {
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

CompiledCache& compiled_cache() {
  static CompiledCache cache;
  return cache;
}

}  // namespace

std::shared_ptr<const CompiledPrimFunc> compile_prim_func(const IRModule& module, const std::string& name) {
  PrimFunc f = module.find(name);
  if (!f) throw ArgumentError("the module has no PrimFunc named '" + name + "'");
  // the functions it calls are inlined: their nodes are part of what was compiled
  std::vector<PrimFunc> callees = called_functions(module, *f);
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(f.get())) + " " + name + " " + lowering_settings_key();
  for (const PrimFunc& g : callees) key += " " + std::to_string(reinterpret_cast<uintptr_t>(g.get()));
  if (auto hit = compiled_cache().find(key)) return hit;
  PrimFunc scheduled = schedule_blocks(f);  // the same params and buffers: var_slots are f's Vars
  LoweredPrimFunc l = lower_prim_func(*scheduled, name, &module);
  if (l.unreported_bounds) l = lower_prim_func(*scheduled, name, &module, /*report_bounds=*/true);
  ProgramSpec spec = render(l, name);
  std::shared_ptr<Program> program = default_program_cache().get(get_device("CPU"), spec);
  auto compiled = std::make_shared<const CompiledPrimFunc>(f, name, spec.source, std::move(program), std::move(l.buffer_params),
                                                           std::move(l.var_slots), std::move(l.status), std::move(callees));
  compiled_cache().add(key, compiled);
  return compiled;
}

}  // namespace onegrad::tir
