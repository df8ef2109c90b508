// The T.* functions that shape statements (loops, buffers, blocks, binders), one handler each in a
// table keyed by the dotted name; the expression-building ones are in parser_expr_calls.cpp.
#include <cfloat>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "tir/ast/buffer.h"
#include "tir/ast/builtins.h"
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

const Value* CallArgs::kw(const std::string& name) const {
  for (auto& [k, v] : kwargs)
    if (k == name) return &v;
  return nullptr;
}

const Value* CallArgs::arg(size_t i, const std::string& name) const {
  if (i < args.size()) return &args[i];
  return kw(name);
}

void Parser::arity(const CallArgs& c, size_t lo, size_t hi) {
  if (c.args.size() < lo || c.args.size() > hi) {
    std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
    fail(c.path + " takes " + want + " positional arguments, got " + std::to_string(c.args.size()), c.loc);
  }
}

std::vector<PrimExpr> Parser::exprs(const std::vector<Value>& vs, size_t from) {
  std::vector<PrimExpr> out;
  for (size_t i = from; i < vs.size(); ++i) out.push_back(to_expr(vs[i]));
  return out;
}

std::string Parser::target_name(const char* fallback) const { return targets_.empty() ? fallback : targets_[0]; }

BlockFrame& Parser::frame(const char* what, SourceLoc l) {
  if (frames_.empty() || frames_.back().is_root) fail(std::string(what) + " is only allowed inside a T.block", l);
  // Declarations belong to the block itself: inside a loop, an if or a binder within the block they
  // could name Vars the block's header cannot see.
  if (frames_.back().depth != scope_depth_)
    fail(std::string(what) + " must be directly in the body of T.block(\"" + frames_.back().name + "\"), not nested in another statement", l);
  return frames_.back();
}

Value Parser::declare_var(DataType t, Type annotation, SourceLoc l) {
  Var v = annotation.kind == Type::Kind::Pointer ? make_var(target_name("v"), annotation, l) : make_var(target_name("v"), t, l);
  Value out = Value::of_expr(v, l);
  out.declared_var = true;
  return out;
}

Buffer Parser::buffer_from_call(const CallArgs& c, size_t first, bool allow_data, const char* default_dtype) {
  static const char* const kNames[] = {"shape", "dtype", "data", "strides", "elem_offset",
                                       "scope", "align", "offset_factor", "buffer_type", "axis_separators"};
  for (size_t i = first + std::size(kNames); i < c.args.size(); ++i) fail("too many arguments to " + c.path, c.args[i].loc);
  for (auto& [k, v] : c.kwargs) {
    bool known = false;
    for (const char* n : kNames) known |= k == n;
    if (!known) fail(c.path + " got an unexpected keyword argument '" + k + "'", v.loc);
  }
  auto get = [&](int i) { return c.arg(first + i, kNames[i]); };
  auto present = [&](int i) { return get(i) && get(i)->kind != Value::Kind::None; };
  auto b = std::make_shared<BufferNode>();
  b->loc = c.loc;
  b->name = target_name("buffer");
  if (!present(0)) fail(c.path + " needs a shape", c.loc);
  for (const Value& d : sequence_of(*get(0))) b->shape.push_back(to_expr(d));
  b->dtype = present(1) ? dtype_of(*get(1), "a buffer") : *parse_data_type(default_dtype);
  std::string scope = present(5) ? str_of(*get(5), "scope") : "global";
  if (scope.empty()) scope = "global";
  if (present(2)) {
    if (!allow_data) fail(c.path + " does not take data=", get(2)->loc);
    PrimExpr d = to_expr(*get(2));
    if (d->kind != ExprKind::Var) fail("data= must be a pointer Var", get(2)->loc);
    b->data = std::static_pointer_cast<const VarNode>(d);
  } else {
    b->data = make_data_var(b->name, b->dtype, scope, c.loc);
  }
  if (present(3))
    for (const Value& s : sequence_of(*get(3))) b->strides.push_back(to_expr(s));
  if (present(6)) b->data_alignment = static_cast<int>(int_of(*get(6), "align"));
  if (b->data_alignment <= 0) b->data_alignment = kDefaultAlignment;
  if (present(7)) b->offset_factor = static_cast<int>(int_of(*get(7), "offset_factor"));
  if (b->offset_factor <= 0) b->offset_factor = 1;
  DataType index = shape_index_dtype(b->shape);
  if (present(4)) {
    b->elem_offset = get(4)->is_py_number() ? literal_as(*get(4), index) : to_expr(*get(4));
  } else if (present(7) && b->offset_factor != 1) {
    // offset_factor without elem_offset: a fresh offset Var, bound when the buffer is matched.
    b->elem_offset = make_var(b->name + "_elem_offset", index, c.loc);
  } else {
    b->elem_offset = int_imm(0, index, c.loc);
  }
  if (present(8)) {
    std::string t = str_of(*get(8), "buffer_type");
    if (t == "auto") b->buffer_type = BufferType::AutoBroadcast;
    else if (t != "default" && !t.empty()) fail("buffer_type must be \"default\" or \"auto\", not \"" + t + "\"", get(8)->loc);
  }
  if (present(9))
    for (const Value& s : sequence_of(*get(9))) b->axis_separators.push_back(to_expr(s));
  return b;
}

namespace {



const Value& need(Parser& p, const CallArgs& c, size_t i, const char* name) {
  const Value* v = c.arg(i, name);
  if (!v) p.fail(c.path + " needs argument '" + name + "'", c.loc);
  return *v;
}

Value loop(Parser& p, CallArgs& c, ForKind kind) {
  auto spec = std::make_shared<LoopSpec>();
  spec->kind = kind;
  std::vector<Value> bounds = c.args;
  if (kind == ForKind::ThreadBinding) {
    if (const Value* t = c.kw("thread")) spec->thread = p.str_of(*t, "thread");
    else if (!bounds.empty() && bounds.back().kind == Value::Kind::Str) spec->thread = bounds.back().s, bounds.pop_back();
    else p.fail("T.thread_binding needs thread=", c.loc);
  }
  // TVM's range() takes a positive literal step only ("Since tir.For do not support reversed
  // iteration semantic"); T.serial/parallel/vectorized/unroll take any step of the loop's type.
  if (c.path == "range" && bounds.size() == 3) {
    const Value& s = bounds[2];
    const bool literal = s.kind == Value::Kind::Int || (s.kind == Value::Kind::Expr && as_int_imm(s.expr));
    if (!literal) p.fail("Only support literal step in range(), get " + p.value_text(s), s.loc);
    spec->step = p.int_of(s, "the range step");
    if (spec->step <= 0) p.fail("Only support positive step in range(), get " + std::to_string(spec->step), s.loc);
    bounds.pop_back();
  }
  const Value* step = c.kw("step");
  if (step && step->kind == Value::Kind::None) step = nullptr;
  if (step) {
    if (step->kind == Value::Kind::Int || (step->kind == Value::Kind::Expr && as_int_imm(step->expr))) {
      spec->step = p.int_of(*step, "the loop step");
    } else {
      spec->step_expr = p.to_expr(*step);
      const DataType t = spec->step_expr->dtype;
      if (!t.is_scalar() || !(t.is_int() || t.is_uint()))
        p.fail("TIR For nodes require a scalar integer as the step, but received " + p.value_text(*step) +
                   " with dtype " + t.name(),
               step->loc);
    }
  }
  if (spec->stepped() && kind == ForKind::ThreadBinding) p.fail("T.thread_binding does not take a step", c.loc);
  if (bounds.empty() || bounds.size() > 2) p.fail(c.path + " takes an extent, or a start and a stop", c.loc);
  if (bounds.size() == 1) {
    PrimExpr e = p.to_expr(bounds[0]);
    spec->ranges.emplace_back(p.literal_as(Value::of_int(0, c.loc), e->dtype), e);
  } else {
    auto [lo, hi] = p.match_types(bounds[0], bounds[1], c.loc);
    spec->ranges.emplace_back(lo, p.range_extent(lo, hi, c.loc));
  }
  // TVM's For: a step expression has the loop variable's type (a literal takes it).
  if (spec->step_expr && spec->step_expr->dtype != spec->ranges[0].first->dtype)
    p.fail("the step " + p.value_text(*step) + " is " + spec->step_expr->dtype.name() + " but the loop variable is " +
               spec->ranges[0].first->dtype.name() + " (TVM's For needs one type)",
           step->loc);
  if (const Value* a = c.kw("annotations"); a && a->kind != Value::Kind::None) spec->annotations = p.annotations_of(*a);
  Value v;
  v.kind = Value::Kind::Loop;
  v.loop = spec;
  v.loc = c.loc;
  return v;
}

Value grid(Parser& p, CallArgs& c) {
  auto spec = std::make_shared<LoopSpec>();
  if (c.args.empty()) p.fail("T.grid needs at least one extent", c.loc);
  for (const Value& a : c.args) {
    PrimExpr e = p.to_expr(a);
    spec->ranges.emplace_back(p.literal_as(Value::of_int(0, a.loc), e->dtype), e);
  }
  Value v;
  v.kind = Value::Kind::Loop;
  v.loop = spec;
  v.loc = c.loc;
  return v;
}

Value axis(Parser& p, CallArgs& c, IterVarType type) {
  BlockFrame& f = p.frame(c.path.c_str(), c.loc);
  p.arity(c, 2, 2);
  const Value& dom = c.args[0];
  const Value& binding = c.args[1];
  DataType t = DataType::int_(32);
  if (const Value* d = c.kw("dtype")) t = p.dtype_of(*d, "an axis");
  else if (binding.kind == Value::Kind::Expr || binding.kind == Value::Kind::Subscript) t = p.to_expr(binding)->dtype;
  else if (dom.kind == Value::Kind::Expr) t = dom.expr->dtype;
  Range r;
  if (dom.kind == Value::Kind::Tuple || dom.kind == Value::Kind::List) {
    if (dom.items.size() != 2) p.fail("an axis domain is an extent or a (min, max) pair", dom.loc);
    r.min = dom.items[0].is_py_number() ? p.literal_as(dom.items[0], t) : p.to_expr(dom.items[0]);
    PrimExpr hi = dom.items[1].is_py_number() ? p.literal_as(dom.items[1], t) : p.to_expr(dom.items[1]);
    r.extent = p.range_extent(r.min, hi, dom.loc);
  } else {
    r.extent = dom.is_py_number() ? p.literal_as(dom, t) : p.to_expr(dom);
    r.min = p.literal_as(Value::of_int(0, dom.loc), r.extent->dtype);
  }
  PrimExpr value = binding.is_py_number() ? p.literal_as(binding, t) : p.to_expr(binding);
  auto iv = std::make_shared<IterVarNode>();
  iv->dom = r;
  iv->var = make_var(p.target_name("v"), t, c.loc);
  iv->iter_type = type;
  f.iter_vars.push_back(iv);
  f.iter_values.push_back(value);
  Value out = Value::of_expr(iv->var, c.loc);
  out.declared_var = true;
  return out;
}

Value remap(Parser& p, CallArgs& c) {
  BlockFrame& f = p.frame("T.axis.remap", c.loc);
  p.arity(c, 2, 2);
  std::string kinds = p.str_of(c.args[0], "the remap kinds");
  std::vector<Value> vars = p.sequence_of(c.args[1]);
  if (kinds.size() != vars.size())
    p.fail("T.axis.remap got " + std::to_string(kinds.size()) + " kinds for " + std::to_string(vars.size()) + " vars", c.loc);
  if (p.targets_.size() != vars.size())
    p.fail("T.axis.remap binds " + std::to_string(vars.size()) + " vars but the assignment has " +
               std::to_string(p.targets_.size()) + " names",
           c.loc);
  Value out;
  out.kind = Value::Kind::Tuple;
  out.loc = c.loc;
  for (size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].kind != Value::Kind::Expr || vars[i].expr->kind != ExprKind::Var)
      p.fail("TypeError: Only Var is supported in T.axis.remap", vars[i].loc);
    const Parser::LoopInfo* loop = nullptr;
    for (const auto& l : p.loops_)
      if (l.var == vars[i].expr) loop = &l;
    if (!loop) p.fail("Variable is not in the loop: " + std::static_pointer_cast<const VarNode>(vars[i].expr)->name_hint, vars[i].loc);
    char k = kinds[i];
    if (k != 'S' && k != 'R') p.fail(std::string("T.axis.remap kind must be 'S' or 'R', not '") + k + "'", c.args[0].loc);
    auto iv = std::make_shared<IterVarNode>();
    iv->dom = Range{loop->min, loop->extent};
    iv->var = make_var(p.targets_[i], loop->var->dtype, c.loc);
    iv->iter_type = k == 'S' ? IterVarType::DataPar : IterVarType::CommReduce;
    f.iter_vars.push_back(iv);
    f.iter_values.push_back(loop->var);
    Value v = Value::of_expr(iv->var, c.loc);
    v.declared_var = true;
    out.items.push_back(v);
  }
  // `vi = T.axis.remap("S", [i])` names the one var itself.
  if (out.items.size() == 1) return out.items[0];
  return out;
}

std::vector<BufferRegion> regions(Parser& p, const CallArgs& c) {
  std::vector<BufferRegion> out;
  for (const Value& a : c.args)
    for (const Value& r : a.kind == Value::Kind::List || a.kind == Value::Kind::Tuple ? a.items : std::vector<Value>{a})
      out.push_back(p.region_of(r));
  return out;
}

Value binder(BinderFn fn, std::optional<Value> bound, SourceLoc l) { return Value::of_binder(std::move(fn), std::move(bound), l); }





}  // namespace

const std::unordered_map<std::string, Handler>& statement_handlers() {
  static const std::unordered_map<std::string, Handler> table = {
      {"range", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::Serial); }},
      {"T.serial", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::Serial); }},
      {"T.parallel", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::Parallel); }},
      {"T.vectorized", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::Vectorized); }},
      {"T.unroll", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::Unrolled); }},
      {"T.thread_binding", [](Parser& p, CallArgs& c) { return loop(p, c, ForKind::ThreadBinding); }},
      {"T.grid", grid},
      {"T.Buffer", [](Parser& p, CallArgs& c) { return Value::of_buffer(p.buffer_from_call(c, 0, true, "float32"), c.loc); }},
      {"T.buffer", [](Parser& p, CallArgs& c) { return Value::of_buffer(p.buffer_from_call(c, 0, true, "float32"), c.loc); }},
      {"T.alloc_buffer",
       [](Parser& p, CallArgs& c) {
         Buffer b = p.buffer_from_call(c, 0, false, "float32");
         if (p.frames_.empty()) p.fail("T.alloc_buffer is only allowed inside a function", c.loc);
         p.frames_.back().alloc_buffers.push_back(b);
         return Value::of_buffer(b, c.loc);
       }},
      {"T.match_buffer",
       [](Parser& p, CallArgs& c) {
         const Value& src = need(p, c, 0, "param");
         if (src.kind == Value::Kind::Subscript || src.kind == Value::Kind::Buffer) {
           BufferRegion region = p.region_of(src);
           CallArgs rest = c;
           const Value* shape = c.arg(1, "shape");
           if (!shape || shape->kind == Value::Kind::None) {
             Value extents;
             extents.kind = Value::Kind::Tuple;
             for (const Range& r : region.region) extents.items.push_back(Value::of_expr(r.extent, c.loc));
             if (rest.args.size() > 1) rest.args[1] = extents;
             else rest.kwargs.emplace_back("shape", extents);
           }
           if (!c.arg(2, "dtype")) rest.kwargs.emplace_back("dtype", Value::of_str(region.buffer->dtype.name(), c.loc));
           Buffer b = p.buffer_from_call(rest, 1, false, "float32");
           p.frame("T.match_buffer of a region", c.loc).match_buffers.push_back({b, region});
           return Value::of_buffer(b, c.loc);
         }
         PrimExpr param = p.to_expr(src);
         bool is_param = false;
         for (const Var& v : p.func_ ? p.func_->params : std::vector<Var>{}) is_param |= v == param;
         if (!is_param || p.func_->buffer_of(std::static_pointer_cast<const VarNode>(param)))
           p.fail("Can not bind non-input param to buffer.", src.loc);
         if (param->dtype != DataType::handle())
           p.fail("T.match_buffer binds a T.handle parameter, not one of type " + param->dtype.name(), src.loc);
         Buffer b = p.buffer_from_call(c, 1, true, "float32");
         // data= (TVM's tests: `B = T.match_buffer(b, shape, data=A.data)`) makes B a second view of an
         // earlier buffer parameter's array: the call passes b's array starting where A's does.
         if (const Value* d = c.arg(3, "data"); d && d->kind != Value::Kind::None) {
           bool shared = false;
           for (const auto& [q, other] : p.func_->buffer_map) shared |= other->data == b->data;
           if (!shared)
             p.fail("T.match_buffer of a parameter takes data= only as the data of an earlier buffer parameter "
                    "(data=A.data)",
                    d->loc);
         }
         p.func_->buffer_map.emplace_back(std::static_pointer_cast<const VarNode>(param), b);
         return Value::of_buffer(b, c.loc);
       }},
      {"T.decl_buffer",
       [](Parser& p, CallArgs& c) {
         Buffer b = p.buffer_from_call(c, 0, true, "float32");
         bool has_data = c.arg(2, "data") && c.arg(2, "data")->kind != Value::Kind::None;
         SourceLoc l = c.loc;
         if (has_data)
           return binder([b, l](Stmt body) {
             auto d = std::make_shared<DeclBufferNode>(l);
             d->buffer = b, d->body = std::move(body);
             return Stmt(d);
           }, Value::of_buffer(b, l), l);
         // Without data= it allocates: Allocate + DeclBuffer (tir-notes 1.3).
         return binder([b, l](Stmt body) {
           auto d = std::make_shared<DeclBufferNode>(l);
           d->buffer = b, d->body = std::move(body);
           auto a = std::make_shared<AllocateNode>(l);
           a->buffer_var = b->data, a->dtype = b->dtype, a->extents = b->shape, a->condition = bool_imm(true, l);
           a->body = d;
           return Stmt(a);
         }, Value::of_buffer(b, l), l);
       }},
      {"T.allocate",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 4);
         std::vector<PrimExpr> extents = p.exprs(p.sequence_of(c.args[0]));
         DataType t = p.dtype_of(need(p, c, 1, "dtype"), "T.allocate");
         const Value* scope_v = c.arg(2, "scope");
         std::string scope = scope_v ? p.str_of(*scope_v, "scope") : "global";
         const Value* cond_v = c.arg(3, "condition");
         PrimExpr cond = cond_v ? p.to_expr(*cond_v) : bool_imm(true, c.loc);
         Annotations ann;
         if (const Value* a = c.kw("annotations"); a && a->kind != Value::Kind::None) ann = p.annotations_of(*a);
         Var v = make_data_var(p.target_name("buffer"), t, scope.empty() ? "global" : scope, c.loc);
         SourceLoc l = c.loc;
         Value bound = Value::of_expr(v, l);
         bound.declared_var = true;
         return binder([=](Stmt body) {
           auto a = std::make_shared<AllocateNode>(l);
           a->buffer_var = v, a->dtype = t, a->extents = extents, a->condition = cond, a->annotations = ann;
           a->body = std::move(body);
           return Stmt(a);
         }, bound, l);
       }},
      {"T.block",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 0, 1);
         Value v;
         v.kind = Value::Kind::BlockSpec;
         if (const Value* nr = c.kw("no_realize")) v.i = p.int_of(*nr, "no_realize") != 0;  // Value::i: the flag
         v.s = c.args.empty() ? "" : p.str_of(c.args[0], "the block name");
         v.loc = c.loc;
         return v;
       }},
      {"T.init",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 0, 0);
         Value v;
         v.kind = Value::Kind::InitSpec;
         v.loc = c.loc;
         return v;
       }},
      {"T.where",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         BlockFrame& f = p.frame("T.where", c.loc);
         if (f.predicate) p.fail("Duplicate block predicate declaration, previous one is " + std::string("T.where(...)"), c.loc);
         f.predicate = p.to_expr(c.args[0]);
         return Value::none(c.loc);
       }},
      {"T.reads",
       [](Parser& p, CallArgs& c) {
         BlockFrame& f = p.frame("T.reads", c.loc);
         if (f.reads) p.fail("Duplicate read region declaration", c.loc);
         f.reads = regions(p, c);
         return Value::none(c.loc);
       }},
      {"T.writes",
       [](Parser& p, CallArgs& c) {
         BlockFrame& f = p.frame("T.writes", c.loc);
         if (f.writes) p.fail("Duplicate write region declaration", c.loc);
         f.writes = regions(p, c);
         return Value::none(c.loc);
       }},
      {"T.block_attr",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         BlockFrame& f = p.frame("T.block_attr", c.loc);
         if (f.has_annotations) p.fail("Duplicate block annotations declaration", c.loc);
         f.annotations = p.annotations_of(c.args[0]);
         f.has_annotations = true;
         return Value::none(c.loc);
       }},
      {"T.func_attr",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         if (!p.func_ || p.frames_.size() != 1 || !p.loops_.empty()) p.fail("T.func_attr is only allowed at the top of a function", c.loc);
         Annotations a = p.annotations_of(c.args[0]);
         p.func_->attrs.insert(p.func_->attrs.end(), a.begin(), a.end());
         return Value::none(c.loc);
       }},
      {"T.axis.spatial", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::DataPar); }},
      {"T.axis.S", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::DataPar); }},
      {"T.axis.reduce", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::CommReduce); }},
      {"T.axis.R", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::CommReduce); }},
      {"T.axis.scan", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::Ordered); }},
      {"T.axis.opaque", [](Parser& p, CallArgs& c) { return axis(p, c, IterVarType::Opaque); }},
      {"T.axis.remap", remap},
      {"T.attr",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 3, 3);
         auto node = std::make_shared<AttrStmtNode>(c.loc);
         if (c.args[0].kind == Value::Kind::Buffer) node->node_buffer = c.args[0].buffer;
         else if (c.args[0].kind == Value::Kind::IterVar) node->node_iter_var = c.args[0].iter_var;
         else node->node_expr = p.to_expr(c.args[0]);
         node->attr_key = p.str_of(c.args[1], "the attribute key");
         node->value = p.to_expr(c.args[2]);
         return binder([node](Stmt body) {
           auto n = std::make_shared<AttrStmtNode>(*node);
           n->body = std::move(body);
           return Stmt(n);
         }, std::nullopt, c.loc);
       }},
      {"T.launch_thread", launch_thread_call},
      {"T.realize",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 3);
         BufferRegion r = p.region_of(c.args[0]);
         const Value* cond_v = c.arg(2, "condition");
         PrimExpr cond = cond_v ? p.to_expr(*cond_v) : bool_imm(true, c.loc);
         SourceLoc l = c.loc;
         return binder([r, cond, l](Stmt body) {
           auto n = std::make_shared<BufferRealizeNode>(l);
           n->buffer = r.buffer, n->bounds = r.region, n->condition = cond, n->body = std::move(body);
           return Stmt(n);
         }, std::nullopt, l);
       }},
      {"T.LetStmt",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 2);
         PrimExpr value = p.to_expr(c.args[0]);
         Var v;
         if (const Value* var = c.kw("var")) {
           PrimExpr e = p.to_expr(*var);
           if (e->kind != ExprKind::Var) p.fail("var= must be a Var", var->loc);
           v = std::static_pointer_cast<const VarNode>(e);
         } else {
           const Value* ann = c.arg(1, "type_annotation");
           v = ann ? (ann->kind == Value::Kind::TypeObj ? make_var(p.target_name("v"), *ann->type, c.loc)
                                                          : make_var(p.target_name("v"), p.dtype_of(*ann, "T.LetStmt"), c.loc))
                   : make_var(p.target_name("v"), value->dtype, c.loc);
         }
         SourceLoc l = c.loc;
         Value bound = Value::of_expr(v, l);
         bound.declared_var = true;
         return binder([v, value, l](Stmt body) {
           auto n = std::make_shared<LetStmtNode>(l);
           n->var = v, n->value = value, n->body = std::move(body);
           return Stmt(n);
         }, bound, l);
       }},
      {"T.Assert",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 2, 2);
         PrimExpr cond = p.to_expr(c.args[0]), msg = p.to_expr(c.args[1]);
         SourceLoc l = c.loc;
         return binder([cond, msg, l](Stmt body) {
           auto n = std::make_shared<AssertStmtNode>(l);
           n->condition = cond, n->message = msg, n->body = std::move(body);
           return Stmt(n);
         }, std::nullopt, l);
       }},
      {"T.evaluate",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         auto n = std::make_shared<EvaluateNode>(c.loc);
         n->value = p.to_expr(c.args[0]);
         return Value::of_stmt(n, c.loc);
       }},
      {"T.buffer_store",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 3, 3);
         if (c.args[0].kind != Value::Kind::Buffer) p.fail("T.buffer_store needs a buffer", c.args[0].loc);
         auto n = std::make_shared<BufferStoreNode>(c.loc);
         n->buffer = c.args[0].buffer;
         n->value = p.to_expr(c.args[1]);
         n->indices = p.exprs(p.sequence_of(c.args[2]));
         return Value::of_stmt(n, c.loc);
       }},
  };
  return table;
}

Value Parser::resolve_path(const Value& path) {
  const std::string& s = path.s;
  if (s.rfind("T.", 0) == 0) {
    if (auto t = parse_data_type(s.substr(2))) {
      Value v;
      v.kind = Value::Kind::TypeObj;
      v.type = std::make_shared<Type>(Type::prim(*t));
      v.loc = path.loc;
      return v;
    }
  }
  fail("'" + s + "' is not a value", path.loc);
}

Value Parser::call(CallArgs& c) {
  if (c.path.rfind("T.", 0) == 0) {
    if (auto t = parse_data_type(c.path.substr(2))) return dtype_call(*this, c, *t);
    if (const Builtin* b = builtin_by_name(c.path.substr(2))) return builtin_call(*this, c, *b);
  }
  // TVM v0.24's names for the same constructs (tir-notes 1.1); they print as T.block, T.alloc_buffer.
  static const std::unordered_map<std::string, std::string> v024_spellings = {
      {"T.sblock", "T.block"}, {"T.sblock_alloc_buffer", "T.alloc_buffer"}};
  auto spelling = v024_spellings.find(c.path);
  const std::string& path = spelling == v024_spellings.end() ? c.path : spelling->second;
  if (!c.args.empty() && c.args[0].kind == Value::Kind::Buffer && !c.args[0].s.empty())
    return c.args[0].s == "vload" ? buffer_vload(*this, c) : buffer_vstore(*this, c);
  for (auto* table : {&statement_handlers(), &expression_handlers()})
    if (auto it = table->find(path); it != table->end()) return it->second(*this, c);
  if (!module_name_.empty() && c.path.rfind(module_name_ + ".", 0) == 0) {
    std::string fn = c.path.substr(module_name_.size() + 1);
    auto sig = signatures_.find(fn);
    if (sig == signatures_.end()) fail("module " + module_name_ + " has no function '" + fn + "'", c.loc);
    if (!c.kwargs.empty()) fail("calls of PrimFuncs take no keyword arguments", c.loc);
    DataType t = sig->second ? sig->second->value_dtype() : DataType::void_();
    return Value::of_expr(make_global_call(t, fn, exprs(c.args), c.loc), c.loc);
  }
  // TVM's codegen-level intrinsics (PTX asm, packed-call plumbing, SVE length) have no meaning on a
  // CPU loop nest; saying so tells the user the name is real but out of scope, unlike a typo.
  if (c.path.rfind("T.ptx_", 0) == 0 || c.path.rfind("T.tvm_", 0) == 0 || c.path == "T.vscale")
    fail("'" + c.path + "' is a TVM-internal intrinsic, not supported", c.loc);
  fail("unknown function '" + c.path + "'", c.loc);
}

}  // namespace onegrad::tir
