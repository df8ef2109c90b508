// Calls of other PrimFuncs (docs/tir.md, "Calls"): the callee is inlined at the call site. Its
// scalar params take the argument values, a handle param views the memory of the array the handle
// points to, and its buffer_map buffer is matched against that array as the interpreter matches it
// (shape, strides, elem_offset: a Var not bound yet takes the array's value, anything else must
// equal it). A match that cannot be decided while compiling is TirNotLowerable, as is a recursive
// call. A callee that returns gets a call frame: a "returned" flag that gates off the rest of its
// body (a LoopControl, as break does) and a register for the value, which is the call's value.
#include <algorithm>

#include "tir/ast/visitor.h"
#include "tir_compile/lower_ops.h"
#include "tir_compile/lower_state.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

using Binds = std::vector<std::unique_ptr<ScopedValue>>;

struct CallSite {
  const CallNode& c;
  std::string construct;  // "PrimFunc call g"
  int line;
  [[noreturn]] void refuse(const std::string& why) const { throw TirNotLowerable(construct, why, line); }
};

// An index value known while compiling (a literal, through casts).
std::optional<int64_t> static_index(const UOpRef& u) {
  if (u->is_const()) return int64_t(u->const_value().as_int());
  if (u->op == Ops::CAST && u->src.size() == 1 && !u->dtype.is_float()) return static_index(u->src[0]);
  if ((u->op == Ops::MUL || u->op == Ops::ADD) && u->src.size() == 2) {
    std::optional<int64_t> a = static_index(u->src[0]), b = static_index(u->src[1]);
    if (a && b) return u->op == Ops::MUL ? *a * *b : *a + *b;
  }
  return std::nullopt;
}

// The interpreter's bind_or_check: a declared field that is an unbound Var takes `actual`;
// anything else must equal it.
void bind_or_check(LowerState& s, const PrimExpr& declared, const UOpRef& actual, const std::string& what, Binds& binds,
                   const CallSite& site) {
  if (!declared) return;
  if (auto* v = declared->as<VarNode>(); v && !s.values.count(v)) {
    UOpRef value = UOp::create(Ops::CAST, uop_dtype(v->dtype, site.line), {actual});
    binds.push_back(std::make_unique<ScopedValue>(s, v, Lanes{value}));
    return;
  }
  UOpRef expected = lower_index(s, declared);
  if (expected == actual) return;
  std::optional<int64_t> e = static_index(expected), a = static_index(actual);
  if (!e || !a) site.refuse(what + " is not known to match the array while compiling");
  if (*e != *a) site.refuse(what + " is " + std::to_string(*a) + " but the declaration requires " + std::to_string(*e));
}

// The callee's buffer b over the array `a` (the interpreter's match_buffer at a call).
void match_array(LowerState& s, const BufferNode& b, const VarNode* root, const ArrayShape& a, Binds& binds, const CallSite& site) {
  const std::string name = b.name;
  if (a.shape.size() != b.shape.size())
    site.refuse("buffer " + name + " has " + std::to_string(b.shape.size()) + " dimensions, the array " + std::to_string(a.shape.size()));
  if (s.memory.at(root).elem != b.dtype.element())
    site.refuse("buffer " + name + " holds " + b.dtype.name() + ", the array " + s.memory.at(root).elem.name());
  for (size_t k = 0; k < a.shape.size(); k++)
    bind_or_check(s, b.shape[k], a.shape[k], "dimension " + std::to_string(k) + " of buffer " + name, binds, site);
  if (b.strides.empty() && !a.compact) {  // compact only if every stride is the row-major one
    UOpRef row_major = UOp::index(1);
    for (size_t k = a.shape.size(); k-- > 0;) {
      std::optional<int64_t> want = static_index(row_major), got = static_index(a.layout.strides[k]);
      if (!want || !got || *want != *got) site.refuse("buffer " + name + " is compact but the array's strides are not known to be row-major");
      row_major = UOp::index(*want * static_index(a.shape[k]).value_or(0));
    }
  }
  for (size_t k = 0; k < b.strides.size() && k < a.layout.strides.size(); k++)
    bind_or_check(s, b.strides[k], a.layout.strides[k], "stride " + std::to_string(k) + " of buffer " + name, binds, site);
  bind_or_check(s, b.elem_offset, a.layout.offset, "elem_offset of buffer " + name, binds, site);
  s.alias[b.data.get()] = root;
  s.views[&b] = a.layout;  // the interpreter indexes the array itself
}

// Binds the callee's params to the call's arguments, in parameter order (a scalar param
// overwrites a Var a buffer bound before it, as in the interpreter).
void bind_params(LowerState& s, const PrimFuncNode& g, const CallSite& site, Binds& binds, std::vector<const BufferNode*>& views) {
  std::vector<Lanes> scalars(g.params.size());
  for (size_t k = 0; k < g.params.size(); k++)  // the arguments are evaluated in the caller first
    if (!site.c.args[k]->dtype.is_handle()) scalars[k] = {lower_scalar(s, site.c.args[k])};
  for (size_t k = 0; k < g.params.size(); k++) {
    const Var& p = g.params[k];
    const PrimExpr& arg = site.c.args[k];
    const std::string which = "argument " + std::to_string(k) + " (" + p->name_hint + ")";
    if (!arg->dtype.is_handle()) {
      if (p->dtype.is_handle() || p->dtype.is_float() != arg->dtype.is_float() || arg->dtype.lanes != 1)
        site.refuse(which + " is " + arg->dtype.name() + " for a parameter of type " + p->dtype.name());
      UOpRef v = lower_cast(scalars[k][0], arg->dtype, p->dtype, site.line);
      binds.push_back(std::make_unique<ScopedValue>(s, p.get(), Lanes{v}));
      continue;
    }
    const VarNode* data = arg->as<VarNode>();
    if (!data || !p->dtype.is_handle()) site.refuse(which + " is a handle that is not a buffer's data");
    const VarNode* root = s.root(data);
    auto array = s.arrays.find(root);
    if (root != data || array == s.arrays.end())
      site.refuse(which + " points into an array (a view of part of one), not at an array the function has");
    s.alias[p.get()] = root;
    if (Buffer b = g.buffer_of(p)) {
      match_array(s, *b, root, array->second, binds, site);
      views.push_back(b.get());
    }
  }
}

// A call frame for a callee that returns values of type `ret`: flags [returned, unused] and the
// value, both cleared where the call starts.
LoopControl open_call_frame(LowerState& s, DataType ret, int line) {
  LoopControl frame;
  frame.is_call = true;
  frame.flags = make_var("call_flags", Type::pointer(DataType::bool_(), "local"));
  frame.value = make_var("call_value", Type::pointer(ret, "local"));
  allocate(s, frame.flags, DataType::bool_(), {int_imm(2, DataType::int_(32))}, "call frame", line);
  allocate(s, frame.value, ret, {int_imm(1, DataType::int_(32))}, "call frame", line);
  for (OpenLoop& l : s.loops) l.stores->insert(frame.flags.get()), l.stores->insert(frame.value.get());
  for (int64_t f : {0, 1}) store_element(s, frame.flags.get(), UOp::index(f), UOp::const_bool(false), nullptr);
  UOpRef zero = ret.is_float() ? lower_float_const(0, ret) : lower_int_const(0, ret);
  store_element(s, frame.value.get(), UOp::index(0), zero, nullptr);
  return frame;
}

Lanes zeros(DataType t) { return {t.is_float() ? lower_float_const(0, t.element()) : lower_int_const(0, t.element())}; }

}  // namespace

Lanes lower_prim_func_call(LowerState& s, const CallNode& c) {
  const CallSite site{c, "PrimFunc call " + c.op, c.loc.line};
  PrimFunc g = s.module ? s.module->find(c.op) : nullptr;
  if (!g) site.refuse("the module has no PrimFunc of that name");
  if (std::find(s.inlining.begin(), s.inlining.end(), g.get()) != s.inlining.end())
    site.refuse("recursive call (calls are inlined, a kernel has no call stack)");
  if (c.args.size() != g->params.size())
    site.refuse(c.op + " takes " + std::to_string(g->params.size()) + " arguments, got " + std::to_string(c.args.size()));
  const DataType ret = returned_type(g->body);
  Binds binds;
  std::vector<const BufferNode*> views;
  bind_params(s, *g, site, binds, views);
  const bool frame = !ret.is_void();
  if (frame) s.controls.push_back(open_call_frame(s, ret, site.line));
  const LoopControl call = frame ? s.controls.back() : LoopControl{};
  // the callee's For nodes are shared by its call sites, whose memories differ: its loops' store
  // sets are its own (the caller's open loops keep pointing into the saved map's nodes)
  auto caller_loops = std::move(s.stores_in_loop);
  s.stores_in_loop.clear();
  s.inlining.push_back(g.get());
  collect_aliases(g->body, s);
  lower_stmt(s, g->body);
  s.inlining.pop_back();
  s.stores_in_loop = std::move(caller_loops);
  if (frame) s.controls.pop_back();
  for (const BufferNode* b : views) s.views.erase(b);
  while (!binds.empty()) binds.pop_back();  // innermost binding first
  const DataType type = c.dtype.is_void() ? (frame ? ret : DataType::int_(32)) : c.dtype;
  if (!frame) return zeros(type);  // the interpreter's value of a call that returns nothing
  UOpRef v = load_element(s, call.value.get(), UOp::index(0), nullptr, site.line);
  return {lower_cast(v, ret, type.element(), site.line)};
}

std::vector<PrimFunc> called_functions(const IRModule& module, const PrimFuncNode& f) {
  struct Calls : IRVisitor {
    const IRModule& module;
    std::vector<PrimFunc> found;
    explicit Calls(const IRModule& m) : module(m) {}
    void visit_expr(const PrimExpr& e) override {
      if (auto* c = e ? e->as<CallNode>() : nullptr; c && c->calls_global)
        if (PrimFunc g = module.find(c->op); g && std::find(found.begin(), found.end(), g) == found.end()) {
          found.push_back(g);
          visit_stmt(g->body);
        }
      IRVisitor::visit_expr(e);
    }
  } calls(module);
  calls.visit_stmt(f.body);
  return calls.found;
}

bool calls_prim_func(const Stmt& st) {
  struct Finder : IRVisitor {
    bool found = false;
    void visit_expr(const PrimExpr& e) override {
      if (auto* c = e ? e->as<CallNode>() : nullptr; c && c->calls_global) found = true;
      if (!found) IRVisitor::visit_expr(e);
    }
  } finder;
  finder.visit_stmt(st);
  return finder.found;
}

}  // namespace onegrad::tir
