// The T.* functions that build expressions, one handler each in a table keyed by the dotted name.
// Constructors that TVMScript spells with a capital (T.Add, T.Cast, T.Select, T.Ramp, ...) build
// their node as written; the lower-case sugar (T.min, T.truncdiv, T.if_then_else, math functions)
// promotes its operands like the arithmetic operators.
#include <cfloat>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "tir/ast/builtins.h"
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

namespace {

Value sugar2(Parser& p, CallArgs& c, ExprKind k) {
  p.arity(c, 2, 2);
  return Value::of_expr(p.sugar_binary(k, c.args[0], c.args[1], c.loc), c.loc);
}

Value raw2(Parser& p, CallArgs& c, ExprKind k) {
  p.arity(c, 2, 2);
  return Value::of_expr(make_binary(k, p.to_expr(c.args[0]), p.to_expr(c.args[1]), c.loc), c.loc);
}

Value limit(Parser& p, CallArgs& c, int which) {  // 0 min_value, 1 max_value, 2 infinity
  p.arity(c, 1, 1);
  DataType t = p.dtype_of(c.args[0], c.path.c_str());
  if (t.is_float()) {
    double big = t.bits == 16 ? (t.code == DataType::Code::BFloat ? 3.38953139e38 : 65504.0)
                 : t.bits == 32 ? static_cast<double>(FLT_MAX)
                                : DBL_MAX;
    double v = which == 2 ? std::numeric_limits<double>::infinity() : which == 0 ? -big : big;
    return Value::of_expr(float_imm(v, t, c.loc), c.loc);
  }
  if (which == 2) p.fail("T.infinity needs a float dtype, not " + t.name(), c.loc);
  if (t.is_bool()) return Value::of_expr(bool_imm(which == 1, c.loc), c.loc);
  int64_t v;
  if (t.is_int()) v = which == 0 ? (t.bits == 64 ? INT64_MIN : -(int64_t{1} << (t.bits - 1)))
                                 : (t.bits == 64 ? INT64_MAX : (int64_t{1} << (t.bits - 1)) - 1);
  else v = which == 0 ? 0 : t.bits == 64 ? -1 /* the bits of 2^64 - 1 */ : t.bits == 63 ? INT64_MAX : (int64_t{1} << t.bits) - 1;
  return Value::of_expr(int_imm(v, t, c.loc), c.loc);
}

// TVM's call_extern, call_intrin, reinterpret, ... take their result dtype first, or as `dtype=`,
// which TVMScript moves to the front (ir_builder's _dtype_forward).
void dtype_forward(CallArgs& c) {
  for (size_t i = 0; i < c.kwargs.size(); ++i)
    if (c.kwargs[i].first == "dtype") {
      c.args.insert(c.args.begin(), c.kwargs[i].second);
      c.kwargs.erase(c.kwargs.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

Value extern_call(Parser& p, CallArgs& c, const char* op) {
  dtype_forward(c);
  if (c.args.size() < 2) p.fail(c.path + " needs a dtype and a function name", c.loc);
  // dtype="" is TVM's DataType(""), void: a call made for its effect
  bool no_value = c.args[0].kind == Value::Kind::Str && c.args[0].s.empty();
  DataType t = no_value ? DataType::void_() : p.dtype_of(c.args[0], c.path.c_str());
  return Value::of_expr(make_call(t, op, p.exprs(c.args, 1), c.loc), c.loc);
}

int64_t lanes_of(Parser& p, const Value& v, const std::string& node) {
  int64_t lanes = p.int_of(v, ("the " + node + " lanes").c_str());
  if (lanes < 1 || lanes > 65536)
    p.fail(node + " lanes must be between 1 and 65536, got " + std::to_string(lanes), v.loc);
  return lanes;
}

// T.Ramp(base, stride, lanes): a stride of another type is cast to the base's, as TVM's Ramp
// constructor does (T.Ramp(T.int64(0), 1, 4) steps by T.int64(1)).
Value ramp(Parser& p, CallArgs& c) {
  p.arity(c, 3, 3);
  int lanes = static_cast<int>(lanes_of(p, c.args[2], "Ramp"));
  PrimExpr base = p.to_expr(c.args[0]);
  PrimExpr stride = p.to_expr(c.args[1]);
  if (stride->dtype != base->dtype && base->dtype.is_scalar() && stride->dtype.is_scalar() &&
      base->dtype.code != DataType::Code::Handle && stride->dtype.code != DataType::Code::Handle)
    stride = p.fold_cast(base->dtype, stride, c.args[1].loc);
  return Value::of_expr(make_ramp(base, stride, lanes, c.loc), c.loc);
}

Value broadcast(Parser& p, CallArgs& c) {
  p.arity(c, 2, 2);
  int lanes = static_cast<int>(lanes_of(p, c.args[1], "Broadcast"));
  return Value::of_expr(make_broadcast(p.to_expr(c.args[0]), lanes, c.loc), c.loc);
}

// T.reinterpret(dtype, value) / T.reinterpret(value, dtype=...): the value's bits read as dtype
// (TVM: a no-op when the types are equal; the sizes must match, a type rule).
Value reinterpret(Parser& p, CallArgs& c) {
  dtype_forward(c);
  p.arity(c, 2, 2);
  DataType t = p.dtype_of(c.args[0], "T.reinterpret");
  PrimExpr v = p.to_expr(c.args[1]);
  if (v->dtype == t) return Value::of_expr(v, c.loc);
  return Value::of_expr(make_call(t, "tir.reinterpret", {v}, c.loc), c.loc);
}

}  // namespace

// T.exp(x), T.pow(x, y), T.isnan(x), T.ret(x), ...: the shared builtin table.
Value builtin_call(Parser& p, CallArgs& c, const Builtin& b) {
  p.arity(c, b.arity, b.arity);
  std::vector<PrimExpr> args;
  if (b.promote_args && c.args.size() == 2) {
    auto [x, y] = p.match_types(c.args[0], c.args[1], c.loc);
    args = {x, y};
  } else {
    args = p.exprs(c.args);
  }
  // A `dtype=` is ignored, as TVMScript's _op_wrapper drops it (T.likely(c, dtype="bool")): the
  // type comes from the arguments.
  if (const Value* d = c.kw("dtype")) p.dtype_of(*d, c.path.c_str());
  DataType t = builtin_dtype(b, args);
  return Value::of_expr(make_call(t, std::string(b.op), std::move(args), c.loc), c.loc);
}

// T.float32(x), T.int64(), T.handle(...): typed literals, casts and Var declarations.
Value dtype_call(Parser& p, CallArgs& c, DataType t) {
  p.arity(c, 0, t.code == DataType::Code::Handle ? 2 : 1);
  if (t.code == DataType::Code::Handle && !t.is_void()) {
    Type ann = Type::prim(t);
    if (!c.args.empty()) {
      std::string scope = c.args.size() > 1 ? p.str_of(c.args[1], "the storage scope") : "global";
      ann = Type::pointer(p.dtype_of(c.args[0], "a pointer"), scope.empty() ? "global" : scope);
    }
    if (p.in_annotation_) {
      Value v;
      v.kind = Value::Kind::TypeObj;
      v.type = std::make_shared<Type>(ann);
      v.loc = c.loc;
      return v;
    }
    return p.declare_var(t, ann, c.loc);
  }
  if (c.args.empty()) return p.declare_var(t, Type::prim(t), c.loc);
  const Value& a = c.args[0];
  if (a.kind == Value::Kind::Str) {
    if (!t.is_float()) p.fail("T." + t.name() + "(\"" + a.s + "\") needs a float dtype", a.loc);
    double v = a.s == "inf" ? HUGE_VAL : a.s == "-inf" ? -HUGE_VAL : a.s == "nan" ? std::nan("") : 0;
    if (a.s != "inf" && a.s != "-inf" && a.s != "nan") p.fail("expected \"inf\", \"-inf\" or \"nan\", got \"" + a.s + "\"", a.loc);
    return Value::of_expr(float_imm(v, t, c.loc), c.loc);
  }
  if (a.is_py_number()) {
    if (t.is_bool()) return Value::of_expr(bool_imm(a.kind == Value::Kind::Float ? a.f != 0 : a.i != 0, c.loc), c.loc);
    if (t.is_integer() && a.kind != Value::Kind::Float) return Value::of_expr(p.int_literal(a, t, c.loc), c.loc);
    if (t.is_float()) return Value::of_expr(p.float_literal(a.as_double(), t, c.loc), c.loc);
  }
  return Value::of_expr(p.fold_cast(t, p.to_expr(a), c.loc), c.loc);
}

const std::unordered_map<std::string, Handler>& expression_handlers() {
  static const std::unordered_map<std::string, Handler> table = {
      {"T.Cast",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 2, 2);
         return Value::of_expr(make_cast(p.dtype_of(c.args[0], "T.Cast"), p.cast_operand(c.args[1]), c.loc), c.loc);
       }},
      {"T.cast",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 2);
         const Value* dtype = c.arg(1, "dtype");
         if (!dtype) p.fail("T.cast needs a dtype", c.loc);
         return Value::of_expr(p.fold_cast(p.dtype_of(*dtype, "T.cast"), p.cast_operand(c.args[0]), c.loc), c.loc);
       }},
      {"astype",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 2, 2);
         return Value::of_expr(p.fold_cast(p.dtype_of(c.args[1], "astype"), p.cast_operand(c.args[0]), c.loc), c.loc);
       }},
      {"T.large_uint_imm",
       [](Parser& p, CallArgs& c) {
         // TVM prints a uint64 constant above int64's range as large_uint_imm(low 32 bits, high 32 bits).
         p.arity(c, 2, 2);
         uint64_t bits = 0;
         for (int half = 1; half >= 0; --half) {
           int64_t v = p.int_of(c.args[half], "T.large_uint_imm");
           if (v < 0 || v > int64_t{UINT32_MAX})
             p.fail("T.large_uint_imm takes two uint32 halves, got " + std::to_string(v), c.args[half].loc);
           bits = bits << 32 | static_cast<uint64_t>(v);
         }
         return Value::of_expr(int_imm(static_cast<int64_t>(bits), DataType::uint(64), c.loc), c.loc);
       }},
      {"T.Select",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 3, 3);
         return Value::of_expr(make_select(p.to_expr(c.args[0]), p.to_expr(c.args[1]), p.to_expr(c.args[2]), c.loc), c.loc);
       }},
      {"T.if_then_else",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 3, 3);
         auto [a, b] = p.match_types(c.args[1], c.args[2], c.loc);
         DataType t = a->dtype;
         if (const Value* d = c.kw("dtype")) t = p.dtype_of(*d, "T.if_then_else");
         return Value::of_expr(make_call(t, "tir.if_then_else", {p.to_expr(c.args[0]), a, b}, c.loc), c.loc);
       }},
      {"T.Ramp", ramp},
      {"T.ramp", ramp},
      {"T.Broadcast", broadcast},
      {"T.broadcast", broadcast},
      {"T.reinterpret", reinterpret},
      {"T.Range",
       [](Parser& p, CallArgs& c) {
         // TVM's ir.Range(begin, end): the (begin, end) pair a loop or an axis domain takes
         p.arity(c, 2, 2);
         Value pair;
         pair.kind = Value::Kind::Tuple;
         pair.loc = c.loc;
         pair.items = c.args;
         return pair;
       }},
      {"T.iter_var", iter_var_call},
      {"T.env_thread", env_thread_call},
      {"T.Shuffle",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 2, 2);
         return Value::of_expr(make_shuffle(p.exprs(p.sequence_of(c.args[0])), p.exprs(p.sequence_of(c.args[1])), c.loc), c.loc);
       }},
      {"T.Let",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         const Value* where = c.kw("where");
         if (!where || where->kind != Value::Kind::Dict || where->keys.size() != 1)
           p.fail("T.Let needs where={var: value} with one binding", c.loc);
         PrimExpr var = p.to_expr(where->keys[0]);
         if (var->kind != ExprKind::Var) p.fail("T.Let binds a Var", where->keys[0].loc);
         return Value::of_expr(make_let(std::static_pointer_cast<const VarNode>(var), p.to_expr(where->items[0]),
                                        p.to_expr(c.args[0]), c.loc),
                               c.loc);
       }},
      {"T.let",
       [](Parser& p, CallArgs& c) {
         // with T.let(x, value): is the v0.8 spelling of a LetStmt over a declared Var.
         if (c.args.size() == 2) {
           PrimExpr var = p.to_expr(c.args[0]);
           if (var->kind != ExprKind::Var) p.fail("T.let binds a Var", c.args[0].loc);
           Var v = std::static_pointer_cast<const VarNode>(var);
           return Value::of_binder(let_binder(v, p.to_expr(c.args[1]), c.loc), std::nullopt, c.loc);
         }
         p.arity(c, 3, 3);
         PrimExpr var = p.to_expr(c.args[0]);
         if (var->kind != ExprKind::Var) p.fail("T.let binds a Var", c.args[0].loc);
         return Value::of_expr(make_let(std::static_pointer_cast<const VarNode>(var), p.to_expr(c.args[1]),
                                        p.to_expr(c.args[2]), c.loc),
                               c.loc);
       }},
      {"T.min", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::Min); }},
      {"T.max", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::Max); }},
      {"T.truncdiv", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::Div); }},
      {"T.truncmod", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::Mod); }},
      {"T.floordiv", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::FloorDiv); }},
      {"T.floormod", [](Parser& p, CallArgs& c) { return sugar2(p, c, ExprKind::FloorMod); }},
      {"T.ceildiv",
       [](Parser& p, CallArgs& c) {
         // ceildiv(a, b) = floordiv(a + b - 1, b) (tir-notes 1.3).
         p.arity(c, 2, 2);
         Value sum = Value::of_expr(p.sugar_binary(ExprKind::Add, c.args[0], c.args[1], c.loc), c.loc);
         Value less = Value::of_expr(p.sugar_binary(ExprKind::Sub, sum, Value::of_int(1, c.loc), c.loc), c.loc);
         return Value::of_expr(p.sugar_binary(ExprKind::FloorDiv, less, c.args[1], c.loc), c.loc);
       }},
      {"T.Add", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Add); }},
      {"T.Sub", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Sub); }},
      {"T.Mul", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Mul); }},
      {"T.Div", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Div); }},
      {"T.Mod", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Mod); }},
      {"T.FloorDiv", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::FloorDiv); }},
      {"T.FloorMod", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::FloorMod); }},
      {"T.Min", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Min); }},
      {"T.Max", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Max); }},
      {"T.EQ", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::EQ); }},
      {"T.NE", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::NE); }},
      {"T.LT", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::LT); }},
      {"T.LE", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::LE); }},
      {"T.GE", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::GE); }},
      {"T.GT", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::GT); }},
      {"T.And", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::And); }},
      {"T.Or", [](Parser& p, CallArgs& c) { return raw2(p, c, ExprKind::Or); }},
      {"T.Not",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         return Value::of_expr(make_not(p.to_expr(c.args[0]), c.loc), c.loc);
       }},
      {"T.abs",
       [](Parser& p, CallArgs& c) {
         p.arity(c, 1, 1);
         PrimExpr x = p.to_expr(c.args[0]);
         if (x->dtype.is_float()) return Value::of_expr(make_call(x->dtype, "tir.fabs", {x}, c.loc), c.loc);
         if (x->dtype.is_uint() || x->dtype.is_bool()) return Value::of_expr(x, c.loc);
         Value xv = Value::of_expr(x, c.loc);
         PrimExpr ge = p.sugar_binary(ExprKind::GE, xv, Value::of_int(0, c.loc), c.loc);
         return Value::of_expr(make_select(ge, x, p.to_expr(p.unary("-", xv, c.loc)), c.loc), c.loc);
       }},
      {"T.min_value", [](Parser& p, CallArgs& c) { return limit(p, c, 0); }},
      {"T.max_value", [](Parser& p, CallArgs& c) { return limit(p, c, 1); }},
      {"T.infinity", [](Parser& p, CallArgs& c) { return limit(p, c, 2); }},
      {"T.call_extern", [](Parser& p, CallArgs& c) { return extern_call(p, c, "tir.call_extern"); }},
      {"T.call_pure_extern", [](Parser& p, CallArgs& c) { return extern_call(p, c, "tir.call_pure_extern"); }},
      {"T.call_intrin",
       [](Parser& p, CallArgs& c) {
         dtype_forward(c);
         if (c.args.size() < 2) p.fail("T.call_intrin needs a dtype and an op name", c.loc);
         DataType t = p.dtype_of(c.args[0], "T.call_intrin");
         return Value::of_expr(make_call(t, p.str_of(c.args[1], "the op name"), p.exprs(c.args, 2), c.loc), c.loc);
       }},
  };
  return table;
}

}  // namespace onegrad::tir
