// Buffer accesses and their order. A TIR program is a sequence of effects; the kernel form is a
// graph that Codegen schedules by its dependencies alone and places each node in the innermost loop
// its sources need (docs/codegen.md, "Placement"). So every ordering the program relies on becomes
// an edge: an access addresses its memory through AFTER(memory, effects...), where the effects are
//   - for a load: the last write to that memory (a STORE, or the END of a loop that stores to it),
//     and the RANGE of every open loop whose body stores to it (so the load is not hoisted out of
//     a loop where its value changes: `for i: A[0] = A[0] + B[i]`);
//   - for a store: the last write and every read since (a store never moves before a load of the
//     old value).
// A STORE already runs in all its loops (its ENDs place it), and within one iteration Codegen keeps
// the edges, so a loop-carried value (the previous iteration's store) is seen by program order.
#include "tir/interpret/interpret_errors.h"
#include "tir/print/printer.h"
#include "tir_compile/lower_func.h"
#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

// Register storage is a C array on the kernel's stack (or a worker thread's): keep it small.
constexpr int64_t kMaxRegisterBytes = 1 << 16;

const Memory& memory_of(LowerState& s, const BufferNode& b, int line) {
  auto it = s.memory.find(s.root(b.data.get()));
  if (it == s.memory.end())
    throw TirNotLowerable("buffer " + b.name, "its data pointer has no storage the kernel can address", line);
  if (it->second.elem != b.dtype.element())
    throw TirNotLowerable("buffer " + b.name, "it views " + it->second.elem.name() + " memory as " + b.dtype.element().name(), line);
  return it->second;
}

UOpRef index_mul(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MUL, {a, b}); }
UOpRef index_add(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::ADD, {a, b}); }

}  // namespace

Layout buffer_layout(LowerState& s, const BufferNode& b) {
  if (auto v = s.views.find(&b); v != s.views.end()) return v->second;
  const size_t n = b.shape.size();
  Layout l{b.elem_offset ? lower_index(s, b.elem_offset) : UOp::index(0), std::vector<UOpRef>(n)};
  if (!b.strides.empty()) {
    for (size_t k = 0; k < n; k++) l.strides[k] = lower_index(s, b.strides[k]);
    return l;
  }
  UOpRef stride = UOp::index(1);
  for (size_t k = n; k-- > 0;) {
    l.strides[k] = stride;
    if (k > 0) stride = index_mul(stride, lower_index(s, b.shape[k]));
  }
  return l;
}

namespace {

// `u` without the CASTs around it (a TIR loop variable is its int32 value cast to index).
const UOp* uncast(const UOp* u) {
  while (u->op == Ops::CAST && !u->src.empty()) u = u->src[0].get();
  return u;
}

// Whether index i of a dimension of extent `extent` is in [0, extent); null when that is known
// while compiling: the value range of i (min_max) lies inside a literal extent, or i is a loop's
// iteration number (0 + r) whose bound is the extent itself. The common
// kernel indexes only with loop variables, so its accesses carry no check (and its loops vectorize).
UOpRef index_in_bounds(const UOpRef& i, const UOpRef& extent) {
  if (i->vmin().as_int() >= 0 && i->vmax().as_int() < extent->vmin().as_int()) return nullptr;
  auto is_zero = [](const UOpRef& u) { return u->vmin().as_int() == 0 && u->vmax().as_int() == 0; };
  const UOp* r = uncast(i.get());
  if (r->op == Ops::ADD && r->src.size() == 2 && is_zero(r->src[0])) r = uncast(r->src[1].get());
  if (r->op == Ops::RANGE && uncast(r->src[0].get()) == uncast(extent.get()) && i->vmin().as_int() >= 0) return nullptr;
  return UOp::alu(Ops::AND, {UOp::alu(Ops::CMPLT, {UOp::index(-1), i}), UOp::alu(Ops::CMPLT, {i, extent})});
}

// An index outside dimension k of b is the interpreter's TirIndexError: a fault (lower_fault.cpp)
// when the kernel has a status buffer for it, else noted so compile_prim_func lowers again with one.
void report_out_of_bounds(LowerState& s, const BufferNode& b, size_t k, const UOpRef& i, const UOpRef& inside, int line) {
  if (!s.status || !s.report_bounds) {
    s.unreported_bounds = true;
    return;
  }
  std::string shape;
  for (const PrimExpr& d : b.shape) shape += (shape.empty() ? "" : ", ") + print_expr(d);
  const bool one_dim = b.shape.size() == 1;
  MessageAround m = out_of_bounds_message(b.name, "(" + shape + (one_dim ? ",)" : ")"));
  // a 1-D index prints as the interpreter's tuple; otherwise the failing dimension's index alone
  FaultRecord r = one_dim ? FaultRecord{FaultRecord::Kind::IndexOutOfBounds, m.before + "(", ",)" + m.after, line, b.name}
                          : FaultRecord{FaultRecord::Kind::IndexOutOfBounds, m.before,
                                        " of dimension " + std::to_string(k) + m.after, line, b.name};
  raise_fault(s, lower_not(inside), std::move(r), UOp::create(Ops::CAST, dtypes::int64, {i}));
}

// The flat element index of each lane: elem_offset + sum(index_k * stride_k) (buffer_layout), and
// in `in_bounds` whether every index of the lane is inside its dimension (null: known to be). The
// interpreter raises TirIndexError for an index out of bounds; compiled code never touches memory
// there: the load gives 0, the store does not happen.
Lanes flat_indices(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, int line, Lanes& in_bounds) {
  if (!b.axis_separators.empty()) throw TirNotLowerable("buffer " + b.name, "axis_separators make it multi-dimensional memory", line);
  const size_t n = indices.size();
  Layout layout = buffer_layout(s, b);
  if (layout.strides.size() != n) throw InternalError("tir lowering: buffer " + b.name + " indexed with " + std::to_string(n) + " indices");
  const std::vector<UOpRef>& strides = layout.strides;
  std::vector<Lanes> idx;
  int lanes = 1;
  for (const PrimExpr& i : indices) {
    Lanes l;
    for (const UOpRef& v : lower_expr(s, i)) l.push_back(v->dtype == dtypes::index ? v : UOp::create(Ops::CAST, dtypes::index, {v}));
    lanes = std::max(lanes, int(l.size()));
    idx.push_back(std::move(l));
  }
  std::vector<UOpRef> extents;
  for (const PrimExpr& e : b.shape) extents.push_back(lower_index(s, e));
  UOpRef offset = layout.offset;
  // a vector element type (float32x4) holds its lanes consecutively: scalar index flat * L + l
  const int64_t per_element = b.dtype.lanes;
  Lanes out;
  for (int lane = 0; lane < lanes; lane++) {
    UOpRef flat = offset, inside;
    for (size_t k = 0; k < n; k++) {
      const UOpRef i = broadcast_lanes(idx[k], lanes)[size_t(lane)];
      flat = index_add(flat, index_mul(i, strides[k]));
      if (k >= extents.size()) continue;
      UOpRef check = index_in_bounds(i, extents[k]);
      if (check) report_out_of_bounds(s, b, k, i, check, line);
      inside = and_gate(inside, check);
    }
    for (int64_t l = 0; l < per_element; l++) {
      out.push_back(per_element == 1 ? flat : index_add(index_mul(flat, UOp::index(per_element)), UOp::index(l)));
      in_bounds.push_back(inside);
    }
  }
  return out;
}

UOpRef after(const UOpRef& base, std::vector<UOpRef> deps) {
  if (deps.empty()) return base;
  deps.insert(deps.begin(), base);
  return UOp::create(Ops::AFTER, base->dtype, std::move(deps));
}

}  // namespace

// One element of a memory, read under `gate` (null: always), after the effects it must follow.
UOpRef load_element(LowerState& s, const VarNode* root, const UOpRef& flat, const UOpRef& gate, int line) {
  const Memory& m = s.memory.at(root);
  Effects& fx = s.effects[root];
  std::vector<UOpRef> deps;
  if (fx.write) deps.push_back(fx.write);
  for (const OpenLoop& l : s.loops)
    if (l.stores->count(root)) deps.push_back(l.range);
  UOpRef base = after(m.base, deps);
  DType dt = uop_dtype(m.elem, line);
  UOpRef addr = UOp::create(Ops::INDEX, base->dtype, {base, flat});
  UOpRef v = gate ? UOp::create(Ops::LOAD, dt, {addr, UOp::const_int(dt, 0), gate}) : UOp::create(Ops::LOAD, dt, {addr});
  fx.reads.push_back(v);
  return v;
}

void store_element(LowerState& s, const VarNode* root, const UOpRef& flat, const UOpRef& value, const UOpRef& gate) {
  const Memory& m = s.memory.at(root);
  Effects& fx = s.effects[root];
  std::vector<UOpRef> deps = fx.reads;
  if (fx.write) deps.push_back(fx.write);
  UOpRef base = after(m.base, deps);
  UOpRef addr = UOp::create(Ops::INDEX, base->dtype, {base, flat});
  std::vector<UOpRef> src{addr, value};
  if (gate) src.push_back(gate);
  UOpRef st = UOp::create(Ops::STORE, dtypes::void_, std::move(src));
  fx.write = st;
  fx.reads.clear();
  s.body->push_back(st);
}

Lanes load_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, int line) {
  memory_of(s, b, line);
  Lanes in_bounds;
  Lanes flat = flat_indices(s, b, indices, line, in_bounds);
  const UOpRef gate = and_gate(s.gate, loops_running(s));
  Lanes out;
  for (size_t lane = 0; lane < flat.size(); lane++)
    out.push_back(load_element(s, s.root(b.data.get()), flat[lane], and_gate(gate, in_bounds[lane]), line));
  return out;
}

void store_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, const Lanes& value, int line) {
  memory_of(s, b, line);
  Lanes in_bounds;
  Lanes flat = flat_indices(s, b, indices, line, in_bounds);
  Lanes v = broadcast_lanes(value, int(flat.size()));
  const UOpRef gate = and_gate(s.gate, loops_running(s));
  for (size_t lane = 0; lane < flat.size(); lane++)
    store_element(s, s.root(b.data.get()), flat[lane], v[lane], and_gate(gate, in_bounds[lane]));
}

void allocate(LowerState& s, const Var& data, DataType elem, const std::vector<PrimExpr>& extents, const char* construct, int line) {
  int64_t count = elem.lanes;
  for (const PrimExpr& e : extents) {
    const IntImmNode* k = as_int_imm(e);
    if (!k) throw TirNotLowerable(construct, "its extents must be constants (the kernel's local arrays have a fixed size)", line);
    count *= std::max<int64_t>(k->value, 0);
    if (count * (elem.bits < 8 ? 1 : elem.bits / 8) > kMaxRegisterBytes)
      throw TirNotLowerable(construct, "more than " + std::to_string(kMaxRegisterBytes) + " bytes of local storage", line);
  }
  DType dt = uop_dtype(elem.element(), line);
  UOpRef buf = UOp::create(Ops::BUFFER, dt.ptr(AddrSpace::REG), {},
                           BufferArg{s.next_buffer++, std::max<int64_t>(count, 1), dt, Device(), AddrSpace::REG});
  s.memory[data.get()] = Memory{buf, elem.element()};
  s.effects.erase(data.get());
  ArrayShape a{{}, Layout{UOp::index(0), std::vector<UOpRef>(extents.size())}, true};
  int64_t stride = 1;
  for (size_t k = extents.size(); k-- > 0;) {
    a.layout.strides[k] = UOp::index(stride);
    stride *= std::max<int64_t>(as_int_imm(extents[k])->value, 1);
  }
  for (const PrimExpr& e : extents) a.shape.push_back(UOp::index(as_int_imm(e)->value));
  s.arrays[data.get()] = std::move(a);
}

std::unordered_map<const VarNode*, Effects> summarize_loop(const std::unordered_map<const VarNode*, Effects>& before,
                                                           const std::unordered_map<const VarNode*, Effects>& inside,
                                                           const UOpRef& end) {
  std::unordered_map<const VarNode*, Effects> out = before;
  for (const auto& [var, fx] : inside) {
    auto it = before.find(var);
    Effects old = it == before.end() ? Effects{} : it->second;
    if (fx.write != old.write) {
      out[var] = Effects{end, {}};
    } else if (fx.reads != old.reads) {
      old.reads.push_back(end);
      out[var] = old;
    }
  }
  return out;
}

}  // namespace onegrad::tir
