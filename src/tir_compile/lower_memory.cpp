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
#include "tir/interpret/interpret_memory.h"
#include "tir/print/printer.h"
#include "tir/ast/linear_form.h"
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
  if (!b.strides.empty() && b.strides.size() != n)  // the type checker's Buffer rule; unchecked input
    throw TirNotLowerable("buffer " + b.name, "it declares " + std::to_string(b.strides.size()) + " strides for " +
                                                  std::to_string(n) + " dimensions", b.loc.line);
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

// An index outside its dimension of b is the interpreter's TirIndexError: a fault (lower_fault.cpp)
// when the kernel has a status buffer for it, else noted so compile_prim_func lowers again with
// one, reading the state afresh in every loop around the access. The message carries the lane's
// whole index tuple, as the interpreter's does.
bool bounds_reported(LowerState& s) {
  if (s.status && s.report_bounds) return true;
  s.unreported_bounds = true;
  for (const OpenLoop& l : s.loops) s.bounds_loops->insert(l.body);
  if (s.reduction_nest) s.bounds_loops->insert(s.reduction_nest);
  return false;
}

// A fault message of text and values the kernel stores in the status buffer's detail words.
struct MessageBuilder {
  std::vector<std::string> text{""};
  std::vector<UOpRef> details;
  void add(const std::string& t) { text.back() += t; }
  void add(const UOpRef& value) {
    details.push_back(UOp::create(Ops::CAST, dtypes::int64, {value}));
    text.push_back("");
  }
};

void report_out_of_bounds(LowerState& s, const BufferNode& b, const std::vector<UOpRef>& index, const UOpRef& inside, int line) {
  if (!bounds_reported(s)) return;
  if (index.size() > size_t(kMaxDetails))
    throw TirNotLowerable("buffer " + b.name, "an index of more than " + std::to_string(kMaxDetails) + " dimensions", line);
  // the interpreter's "index (i, j) is out of bounds of buffer B with shape (m, n)", with the
  // values of a symbolic shape where detail words are left for them (else their names)
  size_t symbolic = 0;
  for (const PrimExpr& d : b.shape) symbolic += !as_int_imm(d);
  const bool shape_values = index.size() + symbolic <= size_t(kMaxDetails);
  auto tuple = [](MessageBuilder& m, size_t n, const auto& item) {
    m.add("(");
    for (size_t k = 0; k < n; k++) {
      if (k > 0) m.add(", ");
      item(k);
    }
    m.add(n == 1 ? ",)" : ")");
  };
  const MessageAround around = out_of_bounds_message(b.name, "");  // the shape follows
  MessageBuilder m;
  m.add(around.before);
  tuple(m, index.size(), [&](size_t k) { m.add(index[k]); });
  m.add(around.after);
  tuple(m, b.shape.size(), [&](size_t k) {
    if (const IntImmNode* c = as_int_imm(b.shape[k])) m.add(std::to_string(c->value));  // as the interpreter: 8, not T.int64(8)
    else if (shape_values) m.add(lower_index(s, b.shape[k]));
    else m.add(print_expr(b.shape[k]));
  });
  raise_fault(s, lower_not(inside), FaultRecord{FaultRecord::Kind::IndexOutOfBounds, std::move(m.text), line, b.name}, m.details);
}

// Where one lane of an access goes: its flat element index, elem_offset + sum(index_k * stride_k)
// (buffer_layout), its index tuple, and whether every index is inside its dimension (null: known
// to be).
struct LaneAccess {
  UOpRef flat;
  std::vector<UOpRef> index;
  UOpRef inside;
};

// Each lane of an access (a vector element type, float32x4, holds its lanes consecutively: scalar
// index flat * L + l, one LaneAccess per scalar). The interpreter raises TirIndexError for an index
// out of bounds; compiled code never touches memory there: the load gives 0, the store does not happen.
std::vector<LaneAccess> lane_accesses(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, int line) {
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
  const int64_t per_element = b.dtype.lanes;
  std::vector<LaneAccess> out;
  for (int lane = 0; lane < lanes; lane++) {
    LaneAccess a{layout.offset, {}, nullptr};
    for (size_t k = 0; k < n; k++) {
      const UOpRef i = broadcast_lanes(idx[k], lanes)[size_t(lane)];
      a.flat = index_add(a.flat, index_mul(i, strides[k]));
      a.index.push_back(i);
      if (k < extents.size()) a.inside = and_gate(a.inside, index_in_bounds(i, extents[k]));
    }
    for (int64_t l = 0; l < per_element; l++) {
      LaneAccess scalar = a;
      if (per_element > 1) scalar.flat = index_add(index_mul(a.flat, UOp::index(per_element)), UOp::index(l));
      out.push_back(std::move(scalar));
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

namespace {

// The predicate's lanes, one per scalar access (empty: no predicate), lowered after the indices.
Lanes lane_mask(LowerState& s, const PrimExpr& predicate, size_t lanes, int line) {
  if (!predicate) return {};
  Lanes m = lower_expr(s, predicate);
  if (m.size() != lanes)
    throw TirNotLowerable("a predicate of " + std::to_string(m.size()) + " lanes",
                          "it masks an access of " + std::to_string(lanes) + " lanes", line);
  return m;
}

UOpRef mask_at(const Lanes& mask, size_t lane) { return mask.empty() ? UOpRef() : mask[lane]; }

// The bounds fault of the element that starts at `lane` (its W scalar lanes), raised only where
// one of those lanes is on.
void element_bounds(LowerState& s, const BufferNode& b, const LaneAccess& a, const Lanes& mask, size_t lane, int line) {
  if (!a.inside || lane % size_t(b.dtype.lanes) != 0) return;
  UOpRef on;
  for (size_t k = lane; !mask.empty() && k < lane + size_t(b.dtype.lanes); k++) on = on ? UOp::alu(Ops::OR, {on, mask[k]}) : mask[k];
  ScopedGate g(s, on);
  report_out_of_bounds(s, b, a.index, a.inside, line);
}

}  // namespace

// Lane by lane, as the interpreter accesses them: the lane's bounds fault, then the access, gated
// by the function still running (so a store of lane 1 does not happen after lane 2... faulted, and
// lane 0's does before it) and by the lane's predicate.
Lanes load_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, const PrimExpr& predicate, int line) {
  memory_of(s, b, line);
  check_view(s, b, line);
  std::vector<LaneAccess> lanes = lane_accesses(s, b, indices, line);
  const Lanes mask = lane_mask(s, predicate, lanes.size(), line);
  Lanes out;
  for (size_t lane = 0; lane < lanes.size(); lane++) {
    const LaneAccess& a = lanes[lane];
    element_bounds(s, b, a, mask, lane, line);
    const UOpRef gate = and_gate(and_gate(s.gate, loops_running(s)), mask_at(mask, lane));
    out.push_back(load_element(s, s.root(b.data.get()), a.flat, and_gate(gate, a.inside), line));
  }
  return out;
}

void store_buffer(LowerState& s, const BufferNode& b, const std::vector<PrimExpr>& indices, const Lanes& value,
                  const PrimExpr& predicate, int line) {
  memory_of(s, b, line);
  std::vector<LaneAccess> lanes = lane_accesses(s, b, indices, line);
  const Lanes mask = lane_mask(s, predicate, lanes.size(), line);
  Lanes v = broadcast_lanes(value, int(lanes.size()));
  for (size_t lane = 0; lane < lanes.size(); lane++) {
    const LaneAccess& a = lanes[lane];
    element_bounds(s, b, a, mask, lane, line);
    const UOpRef gate = and_gate(and_gate(s.gate, loops_running(s)), mask_at(mask, lane));
    store_element(s, s.root(b.data.get()), a.flat, v[lane], and_gate(gate, a.inside));
  }
}

namespace {

// The register BUFFER for `data`, `count` scalars of `elem` (its lanes counted in), with the array
// it is for the calls that pass it on.
void register_memory(LowerState& s, const Var& data, DataType elem, int64_t count, ArrayShape array) {
  DType dt = uop_dtype(elem.element(), 0);
  UOpRef buf = UOp::create(Ops::BUFFER, dt.ptr(AddrSpace::REG), {},
                           BufferArg{s.next_buffer++, std::max<int64_t>(count, 1), dt, Device(), AddrSpace::REG});
  s.memory[data.get()] = Memory{buf, elem.element(), UOp::index(count)};
  s.effects.erase(data.get());
  s.arrays[data.get()] = std::move(array);
}

// Whether the statement being lowered runs in a THREAD part: its threads would share a heap array.
bool in_parallel_loop(const LowerState& s) {
  if (s.shared_thread && !s.loops.empty()) return true;
  if (!s.thread_loop) return false;
  return std::any_of(s.loops.begin(), s.loops.end(), [&](const OpenLoop& l) { return l.body == s.thread_loop->body.get(); });
}

// A heap array for `data` (heap_arrays.h): the next hidden buffer slot, sized by the host from
// `extents` (their product, in elements of elem) before the launch.
void heap_memory(LowerState& s, const Var& data, DataType elem, const std::vector<PrimExpr>& extents, ArrayShape array,
                 const char* construct, int line) {
  if (in_parallel_loop(s))
    throw TirNotLowerable(construct, "an array over " + std::to_string(kMaxRegisterBytes) +
                                         " bytes or of symbolic size inside a parallel loop (its threads would share it)", line);
  HeapArray heap{elem, {}, construct, line};
  for (const PrimExpr& e : extents) {
    std::optional<SizeExpr> x = size_expr(e, *s.var_slots);
    if (!x)
      throw TirNotLowerable(construct, "its extent " + print_expr(e) +
                                           " is not computed from the parameters alone (the host sizes the array before the launch)", line);
    heap.extents.push_back(std::move(*x));
  }
  DType dt = uop_dtype(elem.element(), line);
  const int64_t slot = s.first_heap_slot + int64_t(s.heap->size());
  UOpRef param = UOp::create(Ops::PARAM, dt.ptr(), {UOp::shape_operand(std::vector<int64_t>{1})},
                             ParamArg{slot, dt.ptr(), Device(), std::nullopt, "", {}, {}});
  s.memory[data.get()] = Memory{param, elem.element(), array_capacity(array, elem.lanes)};
  s.effects.erase(data.get());
  s.arrays[data.get()] = std::move(array);
  s.heap->push_back(std::move(heap));
}

}  // namespace

void allocate(LowerState& s, const Var& data, DataType elem, const std::vector<PrimExpr>& extents, const char* construct, int line) {
  // on the stack while every extent is a constant and the array is small
  const int64_t scalar_bytes = elem.bits < 8 ? 1 : elem.bits / 8;
  int64_t count = elem.lanes;
  bool small = true;
  for (const PrimExpr& e : extents) {
    const IntImmNode* k = as_int_imm(e);
    small = small && k;
    if (small) count *= std::max<int64_t>(k->value, 0);
    small = small && count * scalar_bytes <= kMaxRegisterBytes;
  }
  ArrayShape a{{}, Layout{UOp::index(0), std::vector<UOpRef>(extents.size())}, true};
  UOpRef stride = UOp::index(1);
  for (size_t k = extents.size(); k-- > 0;) {
    a.layout.strides[k] = stride;
    const IntImmNode* c = as_int_imm(extents[k]);
    stride = c ? index_mul(stride, UOp::index(std::max<int64_t>(c->value, 1))) : index_mul(stride, lower_index(s, extents[k]));
  }
  for (const PrimExpr& e : extents) a.shape.push_back(as_int_imm(e) ? UOp::index(as_int_imm(e)->value) : lower_index(s, e));
  if (small) register_memory(s, data, elem, count, std::move(a));
  else heap_memory(s, data, elem, extents, std::move(a), construct, line);
}

void allocate_buffer(LowerState& s, const BufferNode& b, const char* construct, int line) {
  if (b.strides.empty()) {
    allocate(s, b.data, b.dtype, b.shape, construct, line);
    return;
  }
  auto constants = [&](const std::vector<PrimExpr>& es, const char* what) {
    std::vector<int64_t> out;
    for (const PrimExpr& e : es) {
      const IntImmNode* k = as_int_imm(e);
      if (!k) throw TirNotLowerable(construct, std::string("its ") + what + " must be constants (with strides, the array's extent is the layout's)", line);
      out.push_back(k->value);
    }
    return out;
  };
  const std::vector<int64_t> shape = constants(b.shape, "extents"), strides = constants(b.strides, "strides");
  if (strides.size() != shape.size())
    throw TirNotLowerable(construct, "buffer " + b.name + " declares " + std::to_string(strides.size()) + " strides for " +
                                         std::to_string(shape.size()) + " dimensions", line);
  const IntImmNode* offset = b.elem_offset ? as_int_imm(b.elem_offset) : nullptr;  // a Var: the allocator's, 0
  AllocationLayout layout = allocation_layout(shape, strides, offset ? offset->value : 0);
  ArrayShape a{{}, Layout{UOp::index(layout.elem_offset), {}}, false};
  for (size_t k = 0; k < shape.size(); k++) {
    a.shape.push_back(UOp::index(shape[k]));
    a.layout.strides.push_back(UOp::index(layout.strides[k]));
  }
  s.views[&b] = a.layout;
  if (layout.elements * b.dtype.lanes * std::max(1, b.dtype.bits / 8) <= kMaxRegisterBytes)
    register_memory(s, b.data, b.dtype, int64_t(layout.elements) * b.dtype.lanes, std::move(a));
  else
    heap_memory(s, b.data, b.dtype, {int_imm(int64_t(layout.elements), DataType::int_(64))}, std::move(a), construct, line);
}

UOpRef array_capacity(const ArrayShape& a, int64_t lanes) {
  UOpRef last = a.layout.offset, empty;
  for (size_t k = 0; k < a.shape.size(); k++) {
    const UOpRef& extent = a.shape[k];
    UOpRef reach = index_mul(UOp::alu(Ops::ADD, {extent, UOp::index(-1)}), a.layout.strides[k]);
    last = index_add(last, UOp::alu(Ops::MAX, {reach, UOp::index(0)}));
    UOpRef is_empty = UOp::alu(Ops::CMPLT, {extent, UOp::index(1)});
    empty = empty ? UOp::alu(Ops::OR, {empty, is_empty}) : is_empty;
  }
  UOpRef scalars = index_mul(index_add(last, UOp::index(1)), UOp::index(lanes));
  return empty ? UOp::create(Ops::WHERE, dtypes::index, {empty, UOp::index(0), scalars}) : scalars;
}

void check_view(LowerState& s, const BufferNode& b, int line) {
  if (s.views.count(&b) || s.bound_buffers.count(&b)) return;
  const Memory& m = memory_of(s, b, line);
  if (!m.capacity) return;  // the lowering's own registers
  // the view's first and last element: elem_offset plus the negative and the positive reaches
  Layout layout = buffer_layout(s, b);
  UOpRef first = layout.offset, last = layout.offset, empty;
  for (size_t k = 0; k < b.shape.size(); k++) {
    UOpRef extent = lower_index(s, b.shape[k]);
    UOpRef reach = index_mul(UOp::alu(Ops::ADD, {extent, UOp::index(-1)}), layout.strides[k]);
    first = index_add(first, UOp::create(Ops::WHERE, dtypes::index, {UOp::alu(Ops::CMPLT, {reach, UOp::index(0)}), reach, UOp::index(0)}));
    last = index_add(last, UOp::alu(Ops::MAX, {reach, UOp::index(0)}));
    UOpRef is_empty = UOp::alu(Ops::CMPLT, {extent, UOp::index(1)});
    empty = empty ? UOp::alu(Ops::OR, {empty, is_empty}) : is_empty;
  }
  const int64_t lanes = b.dtype.lanes;
  UOpRef past = index_mul(index_add(last, UOp::index(1)), UOp::index(lanes));
  UOpRef outside = UOp::alu(Ops::OR, {UOp::alu(Ops::CMPLT, {first, UOp::index(0)}), UOp::alu(Ops::CMPLT, {m.capacity, past})});
  if (empty) outside = UOp::alu(Ops::AND, {lower_not(empty), outside});
  if (outside->vmax().as_int() == 0 || !bounds_reported(s)) return;  // known to fit; or lowered again to report it
  MessageBuilder message;
  message.add("buffer " + b.name + " (elements ");
  message.add(first);
  message.add(" to ");
  message.add(last);
  message.add(" of " + b.dtype.name() + ") does not fit the ");
  message.add(index_mul(m.capacity, UOp::index(element_bytes(b.dtype.element()))));
  message.add(" bytes its pointer points to");
  raise_fault(s, outside, FaultRecord{FaultRecord::Kind::IndexOutOfBounds, std::move(message.text), line, b.name}, message.details);
}

void check_match_region(LowerState& s, const MatchBufferRegion& m, int line) {
  const BufferNode& src = *m.source.buffer;
  const auto& region = m.source.region;
  for (size_t k = 0; k < region.size() && k < src.shape.size(); k++) {
    UOpRef lo = lower_index(s, region[k].min);
    // a constant extent written as stop - start (`A[i * 4:i * 4 + 4]`) as the constant, so that
    // the range of lo + extent is known
    std::optional<int64_t> constant = region[k].extent ? constant_value(region[k].extent) : std::optional<int64_t>(1);
    UOpRef extent = constant ? UOp::index(*constant) : lower_index(s, region[k].extent);
    UOpRef hi = index_add(lo, extent);
    UOpRef outside = UOp::alu(Ops::OR, {UOp::alu(Ops::OR, {UOp::alu(Ops::CMPLT, {lo, UOp::index(0)}), UOp::alu(Ops::CMPLT, {extent, UOp::index(0)})}),
                                        UOp::alu(Ops::CMPLT, {lower_index(s, src.shape[k]), hi})});
    if (outside->vmax().as_int() == 0 || !bounds_reported(s)) continue;  // known to fit; or lowered again to report it
    MessageBuilder message;  // the interpreter's words (Interpreter::bind_match_buffer)
    message.add("match_buffer " + m.buffer->name + ": region [");
    message.add(lo);
    message.add(", ");
    message.add(hi);
    message.add(") of dimension " + std::to_string(k) + " is outside buffer " + src.name);
    raise_fault(s, outside, FaultRecord{FaultRecord::Kind::IndexOutOfBounds, std::move(message.text), line, src.name}, message.details);
  }
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
