// render_c: one pass over the LINEAR. Declarations, loops, IFs, loads and stores are written here;
// each elementwise op's expression comes from c_alu.cpp. A value becomes a named local, except
// constants (literals) and single-use index/bool math, which is written inline where it is used,
// so an address reads `b1[r0 * 8 + r1]` rather than through three temporaries.
#include "render/c_renderer.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "codegen/kernel_axes.h"
#include "codegen/vector_lanes.h"
#include "render/c_support.h"
#include "uop/errors.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"

namespace onegrad {

namespace {

using c_render::Prelude;

constexpr size_t kMaxInline = 120;  // characters of an expression written inline

bool is_index_math(const UOp& u) {
  auto small = [](DType dt) { return dt.is_index() || dt.is_bool(); };
  if (!is_alu(u.op) || !small(u.dtype)) return false;
  for (const UOpRef& s : u.src)
    if (!small(s->dtype)) return false;
  return true;
}

std::string variable_name(const ParamArg& p) {
  bool ident = !p.name.empty() && !std::isdigit(static_cast<unsigned char>(p.name[0]));
  for (char c : p.name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  return ident ? "var_" + p.name : "var" + std::to_string(p.slot);
}

// Whether a pointer reaches memory through the storage type (bool as a byte, bfloat16 as bits):
// global memory does; registers hold values.
bool in_memory(DType ptr) { return ptr.addrspace == AddrSpace::GLOBAL; }

// The register buffer an INDEX addresses (through AFTERs), or nullptr.
const UOp* register_buffer(const UOp& index) {
  const UOp* b = indexed_memory(index);
  return b->op == Ops::BUFFER && b->arg.get<BufferArg>().addrspace == AddrSpace::REG ? b : nullptr;
}

// A vector made of lanes: `(og_f32x8){a, b, ...}` in C.
std::string vector_literal(const CDialect& d, const std::string& type, const std::vector<std::string>& lanes) {
  std::string e = fill(d.vector_open, {{"V", type}});
  for (size_t i = 0; i < lanes.size(); i++) e += (i ? ", " : "") + lanes[i];
  return e + fill(d.vector_close, {{"V", type}});
}

class Writer {
 public:
  Writer(const UOpRef& linear, const CDialect& dialect) : d_(dialect), prelude_(dialect) {
    for (const UOpRef& u : linear->src)
      for (const UOpRef& s : u->src) uses_[s.get()]++;
    find_vector_registers(linear);
  }

  void instruction(const UOp* u) {
    switch (u->op) {
      case Ops::PARAM: return param(u);
      case Ops::BUFFER: return buffer(u);
      case Ops::CONST: expr_[u] = c_render::literal(d_, u->const_value(), u->dtype); return;
      case Ops::RANGE: {
        std::string r = "r" + std::to_string(u->arg.get<RangeArg>().id);
        if (u->arg.get<RangeArg>().type == AxisType::THREAD) return thread_range(u, r);
        line("for (" + d_.value_type(dtypes::index) + " " + r + " = 0; " + r + " < " + ref(u->src[0]) + "; " + r + "++) {");
        depth_++;
        loop_accumulators_.emplace_back();
        expr_[u] = r;
        return;
      }
      case Ops::IF:
        line("if (" + ref(u->src[0]) + ") {");
        depth_++;
        return;
      case Ops::END: case Ops::ENDIF:
        if (closes_thread_range(*u)) return;
        if (u->op == Ops::END && !loop_accumulators_.empty()) {
          several_accumulators_in_a_loop_ |= loop_accumulators_.back().size() > 1;
          loop_accumulators_.pop_back();
        }
        depth_--;
        line("}");
        return;
      case Ops::INDEX: return index(u);
      case Ops::STACK: return stack(u);
      case Ops::AFTER: expr_[u] = ref(u->src[0]); return;  // ordering only: the buffer itself
      case Ops::LOAD: return load(u);
      case Ops::STORE: return through_memory(*u->src[0]) ? vector_store(u) : store(u);
      case Ops::GROUP: case Ops::SINK: return;
      case Ops::SPECIAL: return launch_index(u);
      case Ops::BARRIER: line(d_.barrier); return;
      default: break;
    }
    if (!is_alu(u->op) && u->op != Ops::CAST && u->op != Ops::BITCAST)
      throw InternalError("c renderer: no C for " + std::string(op_name(u->op)) + " (" + u->brief() + ")");
    std::vector<std::string> src;
    for (const UOpRef& s : u->src) src.push_back(ref(s));
    const int64_t lanes = vector_lanes(*u);
    std::string e = lanes > 1 ? c_render::vector_alu_expr(*u, lanes, src, prelude_) : c_render::alu_expr(*u, src, prelude_);
    // (a long expression gets a name after all: a deep chain of single-use index math would
    // otherwise nest into one line the C compiler has to parse recursively)
    if (is_index_math(*u) && uses_[u] == 1 && e.size() <= kMaxInline) {
      expr_[u] = e;
      return;
    }
    define(u, u->op == Ops::CAST || u->op == Ops::BITCAST ? "cast" : "alu", e);
  }

  // The kernel is a static function taking its buffers as restrict *parameters*, behind the
  // entry point the runtime calls. GCC drops the restrict of a local pointer loaded from memory
  // (`float* restrict b0 = bufs[0]`), so the loop vectorizer needed run-time alias checks, which
  // -O2's cost model refuses: even `b0[i] = b1[i] * 2` stayed scalar. As parameters the promise
  // holds, and elementwise loops get AVX2 vectors.
  // The dialect's entry point (C: the runtime's `void NAME(void** bufs, ...)`) calls the kernel.
  //
  // GCC 12.2's loop vectorizer miscompiles some loops that update several accumulators (with
  // -mavx2: a 2-iteration loop adding masked int32 products into two int64 accumulators gave wrong
  // sums, found by OPT_RANDOM=6 on scatter_add; correct at -O1, with -fno-tree-loop-vectorize, with
  // clang, and UBSan-clean). Such loops come from Expand's register blocking, whose copies the SLP
  // vectorizer (not the loop vectorizer) turns into vector code, so a kernel with one turns the
  // loop vectorizer off (the dialect's no_loop_vectorize); other kernels keep it. docs/kernel_opts.md.
  std::string source(const std::string& name) const {
    bool wrapped = !d_.entry.empty();
    std::string kernel = wrapped ? name + "_kernel" : name, params, args, entry_params;
    std::string thread = threaded_ && !d_.thread_param.empty() ? ", " + d_.thread_param : "";
    for (const auto& [param, arg] : buffer_params_) {
      params += param + ", ";
      args += arg + ", ";
    }
    // An entry with a parameter per buffer (OpenCL's p<slot>, o<slot>) declares every slot up to the
    // highest the kernel reads, those whose uses folded away included: arguments are bound by
    // position, so a gap would bind later buffers to the wrong parameters. Slots above the highest
    // are not declared (the launcher binds as many buffers as the entry takes).
    if (!d_.entry_param.empty() && !entry_slots_.empty())
      for (int64_t slot = 0; slot <= *entry_slots_.rbegin(); slot++)
        entry_params += fill(d_.entry_param, {{"slot", std::to_string(slot)}}) + ", ";
    const std::string& thread_id = d_.entry_thread_id.empty() ? d_.thread_id : d_.entry_thread_id;
    std::string locals;
    for (const LocalBuffer& b : local_buffers_) {
      locals += "  " + d_.local_prefix + b.type + " " + b.name + "[" + std::to_string(b.size) + "];\n";
      params += d_.local_prefix + b.type + "* restrict " + b.name + ", ";
      args += b.name + ", ";
    }
    std::string out = d_.header + prelude_.text() + (several_accumulators_in_a_loop_ ? d_.no_loop_vectorize : "") +
                      d_.kernel_prefix + kernel + "(" + params + d_.vars_param + thread + ") {\n" + body_ + "}\n";
    if (wrapped)
      out += fill(d_.entry, {{"name", name}, {"kernel", kernel}, {"args", args}, {"params", entry_params}, {"thread", thread},
                             {"thread_arg", thread.empty() ? "" : ", " + thread_id}, {"locals", locals}});
    return out;
  }

 private:
  const std::string& ref(const UOpRef& u) const {
    auto it = expr_.find(u.get());
    if (it == expr_.end()) throw InternalError("c renderer: " + u->brief() + " is used before it is defined");
    return it->second;
  }
  void line(const std::string& text) {
    body_.append(size_t(depth_ + 1) * 2, ' ');
    body_ += text + "\n";
  }
  // The C type of a value: its dtype's, or a vector type for a (k,)-shaped one.
  std::string type_of(const UOp* u) {
    int64_t k = vector_lanes(*u);
    return k > 1 ? prelude_.vector(u->dtype, k) : d_.value_type(u->dtype);
  }
  void define(const UOp* u, const std::string& prefix, const std::string& e) {
    std::string name = prefix + std::to_string(counts_[prefix]++);
    line(type_of(u) + " " + name + " = " + e + ";");
    expr_[u] = name;
  }

  // A register buffer all of whose accesses are one vector of its whole size is one vector
  // variable (`og_f32x8 acc0[1]`): a vector accumulator the compiler keeps in a register.
  void find_vector_registers(const UOpRef& linear) {
    std::unordered_map<const UOp*, bool> whole;
    for (const UOpRef& u : linear->src) {
      if (u->op != Ops::INDEX || u->src.size() != 2) continue;
      const UOp* b = register_buffer(*u);
      if (!b) continue;
      int64_t k = vector_lanes(*u);
      UOpRef base = contiguous_base(u->src[1]);
      bool ok = k > 1 && k == b->arg.get<BufferArg>().size && base && base->is_const() && base->const_value().as_int() == 0;
      auto [it, fresh] = whole.emplace(b, ok);
      if (!fresh) it->second = it->second && ok;
    }
    for (auto [b, ok] : whole)
      if (ok) vector_registers_.insert(b);
  }

  void index(const UOp* u) {
    if (u->src.size() != 2) throw InternalError("c renderer: INDEX wants (buffer, index): " + u->brief());
    if (!u->src[0]->dtype.is_ptr) {  // a lane of a vector value (spec: a ()-shaped index removes the dim)
      if (!u->src[1]->is_const()) throw InternalError("c renderer: a lane of a vector value needs a constant index: " + u->brief());
      int64_t i = int64_t(u->src[1]->const_value().as_int());
      char hex[2] = {"0123456789abcdef"[i & 15], 0};
      expr_[u] = fill(d_.vector_lane, {{"v", ref(u->src[0])}, {"i", std::to_string(i)}, {"x", hex}});
      if (u->dtype.is_bool()) expr_[u] = "(" + expr_[u] + " != 0)";  // a mask lane is -1 for true
      return;
    }
    if (vector_lanes(*u) == 1) {
      expr_[u] = ref(u->src[0]) + "[" + ref(u->src[1]) + "]";
      return;
    }
    const UOp* reg = register_buffer(*u);
    if (reg && vector_registers_.count(reg)) {
      expr_[u] = ref(u->src[0]) + "[0]";
      return;
    }
    UOpRef base = contiguous_base(u->src[1]);
    if (!base) throw InternalError("c renderer: a vector INDEX must address consecutive elements: " + u->brief());
    expr_[u] = "&" + ref(u->src[0]) + "[" + ref(base) + "]";  // the address of lane 0
  }

  // A vector value from k scalars; an index STACK is the lanes of a contiguous access, read by its INDEX.
  void stack(const UOp* u) {
    if (u->dtype.is_index()) {
      expr_[u] = "";
      return;
    }
    if (splats_load(*u)) {
      define(u, "vec", prelude_.vector_splat(u->dtype, vector_lanes(*u)) + "(" + ref(u->src[0]) + ")");
      return;
    }
    if (picks_lanes(*u)) return;
    std::vector<std::string> lanes;
    // a bool vector's lanes are its mask's -1 (true) and 0 (false)
    for (const UOpRef& s : u->src) lanes.push_back(u->dtype.is_bool() ? "-(" + d_.vector_mask + ")(" + ref(s) + ")" : ref(s));
    define(u, "vec", vector_literal(d_, type_of(u), lanes));
  }

  // A vector whose lanes are lanes of at most two vectors of its own type (vectorize's loads of
  // every second element or of two interleaved runs), in a dialect of GCC vector typedefs: one shuffle (og_pick2).
  bool picks_lanes(const UOp& u) {
    const int64_t k = int64_t(u.src.size());
    if (d_.vector_typedef.empty() || u.dtype.is_bool() || u.dtype.is_index()) return false;
    std::vector<UOpRef> from;
    std::vector<int64_t> picks;
    for (const UOpRef& s : u.src) {
      if (s->op != Ops::INDEX || s->src.size() != 2 || s->src[0]->dtype.is_ptr || !s->src[1]->is_const()) return false;
      const UOpRef& v = s->src[0];
      if (v->dtype != u.dtype || vector_lanes(*v) != k) return false;
      auto at = std::find(from.begin(), from.end(), v);
      if (at == from.end()) {
        if (from.size() == 2) return false;
        at = from.insert(from.end(), v);
      }
      picks.push_back(int64_t(at - from.begin()) * k + int64_t(s->src[1]->const_value().as_int()));
    }
    if (from.size() == 1) from.push_back(from[0]);
    // GCC's mask lanes are ints of the vector's lane size
    std::string mask = prelude_.vector_type(c_render::signed_of_size(int64_t(u.dtype.itemsize())), k), e = prelude_.vector_pick2() + "(" + mask + ", " + ref(from[0]) + ", " + ref(from[1]);
    for (int64_t p : picks) e += ", " + std::to_string(p);
    define(&u, "vec", e + ")");
    return true;
  }

  // A float vector of one loaded scalar in every lane, in a dialect of GCC vector typedefs (C):
  // written through og_splat (c_vector.cpp) so the compiler broadcasts from memory.
  bool splats_load(const UOp& u) const {
    if (d_.vector_typedef.empty() || u.src.size() < 2 || u.src[0]->op != Ops::LOAD) return false;
    if (u.dtype != dtypes::float32 && u.dtype != dtypes::float64) return false;
    for (const UOpRef& s : u.src)
      if (s.get() != u.src[0].get()) return false;
    return true;
  }

  // Whether a vector access goes through memory (a global buffer, or a register buffer that is not
  // one vector variable) rather than being the vector variable itself.
  bool through_memory(const UOp& index) const {
    const UOp* reg = register_buffer(index);
    return vector_lanes(index) > 1 && !(reg && vector_registers_.count(reg));
  }

  // spec: AxisType THREAD. The THREAD axis is no loop: the runtime calls the kernel once per index
  // (runtime/thread_pool.h) and passes it as the entry's `thread` argument (the dialect's thread_id).
  void thread_range(const UOp* u, const std::string& r) {
    threaded_ = true;
    line("const " + d_.value_type(dtypes::index) + " " + r + " = " + d_.thread_id + ";");
    expr_[u] = r;
  }
  static bool closes_thread_range(const UOp& u) {
    return u.op == Ops::END && u.src.size() == 2 && u.src[1]->op == Ops::RANGE &&
           u.src[1]->arg.get<RangeArg>().type == AxisType::THREAD;
  }

  void param(const UOp* u) {
    const ParamArg& p = u->arg.get<ParamArg>();
    if (u->dtype.is_ptr) {
      std::string t = d_.storage_type(u->dtype), name = "b" + std::to_string(p.slot), slot = std::to_string(p.slot);
      buffer_params_.emplace_back(fill(d_.buffer_param, {{"T", t}, {"name", name}}), fill(d_.entry_arg, {{"T", t}, {"slot", slot}}));
      entry_slots_.insert(p.slot);
      expr_[u] = name;
      return;
    }
    std::string t = d_.value_type(u->dtype), name = variable_name(p);
    line("const " + t + " " + name + " = (" + t + ")" + fill(d_.var_value, {{"slot", std::to_string(p.slot)}}) + ";");
    expr_[u] = name;
  }

  // spec: SPECIAL, a launch axis's index (codegen/launch_dims.h): gidx<d> the workgroup's in dim d,
  // lidx<d> the work item's inside it.
  void launch_index(const UOp* u) {
    const std::string& name = u->arg.get<std::string>();
    const std::string& tmpl = name.rfind("gidx", 0) == 0 ? d_.group_id : d_.local_id;
    if (tmpl.empty()) throw InternalError(d_.name + " renderer: no launch dims (" + u->brief() + ")");
    line("const " + d_.value_type(dtypes::index) + " " + name + " = " + fill(tmpl, {{"dim", name.substr(4)}}) + ";");
    expr_[u] = name;
  }

  void buffer(const UOp* u) {
    const BufferArg& b = u->arg.get<BufferArg>();
    if (b.addrspace == AddrSpace::GLOBAL) throw InternalError("c renderer: a kernel takes GLOBAL memory as PARAMs: " + u->brief());
    if (b.addrspace == AddrSpace::LOCAL) {
      std::string name = "lds" + std::to_string(b.id);
      expr_[u] = name;
      // a dialect without workgroups: a THREAD part's own array on the kernel's stack
      if (!d_.local_array.empty()) {
        line(fill(d_.local_array, {{"T", d_.value_type(b.dtype)}, {"name", name}, {"size", std::to_string(b.size)}}));
        return;
      }
      // else local memory lives in the entry (OpenCL allows it at kernel scope only), passed as a pointer
      if (d_.local_prefix.empty()) throw InternalError(d_.name + " renderer: no local memory (" + u->brief() + ")");
      local_buffers_.push_back({d_.value_type(b.dtype), name, b.size});
      return;
    }
    std::string name = "acc" + std::to_string(b.id);
    // zeroed where declared: a TIR allocation starts as zeros (the interpreter's semantics), and
    // a flag or scratch element read before its first store reads 0, never stack garbage
    if (vector_registers_.count(u)) line(prelude_.vector(b.dtype, b.size) + " " + name + "[1] = {0};");
    else line(d_.value_type(b.dtype) + " " + name + "[" + std::to_string(b.size) + "] = {0};");
    expr_[u] = name;
  }

  void load(const UOp* u) {
    if (through_memory(*u->src[0])) {
      if (u->src.size() != 1) throw InternalError("c renderer: a vector LOAD is not gated: " + u->brief());
      define(u, "val", c_render::vector_load_expr(ref(u->src[0]), u->dtype, vector_lanes(*u), prelude_));
      return;
    }
    DType ptr = u->src[0]->dtype;
    std::string v = ref(u->src[0]);
    if (in_memory(ptr) && u->dtype.is_bool()) v = "(" + v + " != 0)";
    if (in_memory(ptr) && u->dtype.scalar == ScalarType::BFLOAT16) {
      prelude_.bf16();  // og_bf2f comes with it
      v = "og_bf2f(" + v + ")";
    }
    // gated: the address is not read where the gate is false (C evaluates one arm of ?:)
    if (u->src.size() == 3) v = "(" + ref(u->src[2]) + " ? " + v + " : " + ref(u->src[1]) + ")";
    define(u, "val", v);
  }

  // The value a STORE writes: a scalar stored to a vector (an accumulator's reset to its identity)
  // goes to every lane.
  std::string stored_value(const UOp* u) {
    int64_t k = vector_lanes(*u->src[0]);
    if (k == 1 || vector_lanes(*u->src[1]) > 1) return ref(u->src[1]);
    return vector_literal(d_, prelude_.vector(u->src[1]->dtype, k), std::vector<std::string>(size_t(k), ref(u->src[1])));
  }

  void vector_store(const UOp* u) {
    if (u->src.size() != 2) throw InternalError("c renderer: a vector STORE is not gated: " + u->brief());
    line(c_render::vector_store_stmt(ref(u->src[0]), stored_value(u), u->src[1]->dtype, vector_lanes(*u->src[0]), prelude_));
  }

  void store(const UOp* u) {
    // which register accumulators the innermost open loop updates (kNoLoopVectorize); storing a
    // constant is a reset before a reduction's loop, not an update (a softmax's row loop resets
    // both its max and its sum and must keep the loop vectorizer)
    const UOp* base = u->src[0]->op == Ops::INDEX ? indexed_memory(*u->src[0]) : nullptr;
    bool update = u->src[1]->op != Ops::CONST;
    if (update && base && base->op == Ops::BUFFER && !loop_accumulators_.empty()) loop_accumulators_.back().insert(base);
    DType ptr = u->src[0]->dtype;
    DType dt = u->src[1]->dtype;
    std::string v = stored_value(u);
    if (in_memory(ptr) && dt.is_bool()) v = d_.cast(dtypes::uint8) + v;
    if (in_memory(ptr) && dt.scalar == ScalarType::BFLOAT16) {
      prelude_.bf16();  // og_f2bf comes with it
      v = "og_f2bf(" + v + ")";
    }
    std::string st = ref(u->src[0]) + " = " + v + ";";
    // Linearize turns gated STOREs into IF/STORE/ENDIF; a gated one reaching here is still correct
    line(u->src.size() == 3 ? "if (" + ref(u->src[2]) + ") " + st : st);
  }

  const CDialect& d_;
  std::unordered_map<const UOp*, std::string> expr_;
  std::unordered_map<const UOp*, int> uses_;
  std::unordered_map<std::string, int> counts_;
  Prelude prelude_;
  std::string body_;
  std::vector<std::pair<std::string, std::string>> buffer_params_;  // (parameter, argument)
  std::set<int64_t> entry_slots_;                                   // the buffer slots read
  struct LocalBuffer {
    std::string type, name;
    int64_t size;
  };
  std::vector<LocalBuffer> local_buffers_;  // declared in the entry, passed to the kernel
  int depth_ = 0;
  std::unordered_set<const UOp*> vector_registers_;  // REG buffers written as one vector variable
  std::vector<std::unordered_set<const UOp*>> loop_accumulators_;  // per open loop, the REG buffers it stores to
  bool several_accumulators_in_a_loop_ = false;
  bool threaded_ = false;  // the kernel has a THREAD axis: the entry takes `thread`
};

}  // namespace

std::string render_c_style(const UOpRef& linear, const std::string& name, const CDialect& dialect) {
  if (!linear || linear->op != Ops::LINEAR) throw InternalError(dialect.name + " renderer: expects a LINEAR");
  Writer w(linear, dialect);
  for (const UOpRef& u : linear->src) w.instruction(u.get());
  return w.source(name);
}

std::string render_c(const UOpRef& linear, const std::string& name) { return render_c_style(linear, name, c_dialect()); }

namespace {

// c_renders_natively with the settings read once (check_target asks for every node of a kernel).
bool c_renders(Ops op, DType dt, bool decompose_all, bool libm) {
  if (decompose_all) return !has_decomposition(op, dt);
  // No C for THREEFRY: the table decomposes the uint64 one (codegen/threefry.h); another dtype is
  // claimed here so that it reaches the renderer's own error.
  if (op == Ops::THREEFRY) return !has_decomposition(op, dt);
  if (op != Ops::EXP2 && op != Ops::LOG2 && op != Ops::SIN) return true;
  return dt == dtypes::float64 || libm;
}

}  // namespace

bool c_renders_natively(Ops op, DType dt) {
  return c_renders(op, dt, setting("CPU_DECOMPOSE_ALL", 0) != 0, setting("CPU_LIBM", 0) != 0);
}

Capabilities c_capabilities() {
  Capabilities c;
  c.name = "C";
  bool decompose_all = setting("CPU_DECOMPOSE_ALL", 0) != 0, libm = setting("CPU_LIBM", 0) != 0;
  c.renders = [decompose_all, libm](Ops op, DType dt) { return c_renders(op, dt, decompose_all, libm); };
  c.dtypes = {};  // every dtype of the table (docs/dtypes.md)
  c.vectors = c_vector_unit();
  c.threads = cpu_threads();  // the runtime's pool runs a THREAD axis's parts (runtime/thread_pool.h)
  // a 32 KiB L1 data cache: rec's 480 x 16 panels (30 KB) ran 1-16% faster packed than unpacked
  c.panel_bytes = 32 * 1024;
  // no local memory, launch dims or tensor cores: a kernel is one loop nest per call
  return c;
}

VectorUnit c_vector_unit() { return {c_render::vector_widths, c_render::has_vector_form, {}, c_render::has_vector_bitcast}; }  // no vector casts

RenderTarget c_style_target(const CDialect& dialect, Capabilities capabilities) {
  return {std::move(capabilities), [&dialect](const UOpRef& linear, const std::string& name) { return render_c_style(linear, name, dialect); }};
}

RenderTarget c_target() { return c_style_target(c_dialect(), c_capabilities()); }

}  // namespace onegrad
