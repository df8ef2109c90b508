// Python values meeting PrimExprs, as TVMScript evaluates them (tir-notes 1.3): Python numbers
// compute as Python; a Python number next to a PrimExpr becomes a literal of that expression's
// element type; two PrimExprs are promoted to a common type (wider float, int to float, bool to
// int, wider int, uint over int of equal width) and a scalar is broadcast to the other's lanes;
// operators on two literals fold.
#include <cfloat>
#include <climits>
#include <cmath>
#include <optional>

#include "tir/ast/buffer.h"
#include "tir/interpret/interpret_arith.h"
#include "tir/ast/builtins.h"
#include "tir/ast/linear_form.h"
#include "tir/parse/parser_impl.h"
#include "tir/print/printer.h"
#include "uop/const_value.h"

namespace onegrad::tir {

Value Value::of_binder(BinderFn fn, std::optional<Value> b, SourceLoc l) {
  Value v;
  v.kind = Kind::Binder;
  v.binder = std::make_shared<BinderFn>(std::move(fn));
  if (b) v.bound = std::make_shared<Value>(std::move(*b));
  v.loc = l;
  return v;
}

namespace {

const char* value_kind_name(Value::Kind k) {
  static const char* const kNames[] = {"None", "int", "float", "bool", "string", "expression", "buffer",
                                       "tuple", "list", "dict", "slice", "subscript", "name", "type",
                                       "loop", "block", "T.init()", "binder", "statement"};
  return kNames[static_cast<int>(k)];
}

// Python's // and % on 64-bit operands (the caller excludes INT64_MIN // -1): uop/const_value.h's.
int64_t floor_div(int64_t a, int64_t b) { return int64_t(onegrad::floor_div(i128(a), i128(b))); }
int64_t floor_mod(int64_t a, int64_t b) { return int64_t(onegrad::floor_mod(i128(a), i128(b))); }


struct OpInfo {
  const char* symbol;
  ExprKind kind;
};
const OpInfo kArith[] = {{"+", ExprKind::Add}, {"-", ExprKind::Sub}, {"*", ExprKind::Mul}, {"/", ExprKind::Div},
                         {"//", ExprKind::FloorDiv}, {"%", ExprKind::FloorMod}};
const OpInfo kCompare[] = {{"==", ExprKind::EQ}, {"!=", ExprKind::NE}, {"<", ExprKind::LT},
                           {"<=", ExprKind::LE}, {">=", ExprKind::GE}, {">", ExprKind::GT}};

// A Python int or bool: its exact value (one above int64's range is held as its bits) and its text.

i128 py_int(const Value& v) { return v.above_int64 ? i128(static_cast<uint64_t>(v.i)) : i128(v.i); }
std::string py_int_text(const Value& v) {
  return v.above_int64 ? std::to_string(static_cast<uint64_t>(v.i)) : std::to_string(v.i);
}
bool is_uint64(DataType t) { return t.code == DataType::Code::UInt && t.bits == 64; }

}  // namespace

void Parser::fail(const std::string& msg, SourceLoc l) const { throw TirSyntaxError(msg, l.line, l.column); }

// A float32 literal holds a float32 value, so folding and printing agree on it.
PrimExpr Parser::float_literal(double v, DataType t, SourceLoc l) {
  return float_imm(t.bits == 32 ? static_cast<double>(static_cast<float>(v)) : v, t, l);
}

PrimExpr Parser::literal_as(const Value& v, DataType t) {
  if (v.kind == Value::Kind::Float) {
    if (t.is_float()) return float_literal(v.f, t.element(), v.loc);
    return float_literal(v.f, std::fabs(v.f) <= FLT_MAX || !std::isfinite(v.f) ? DataType::float_(32) : DataType::float_(64), v.loc);
  }
  if (t.is_float()) return float_literal(v.as_double(), t.element(), v.loc);
  if (t.code == DataType::Code::Handle) return to_expr(v);
  if (t.is_bool()) return bool_imm(v.i != 0, v.loc);
  return int_literal(v, t.element(), v.loc);
}

PrimExpr Parser::int_literal(const Value& v, DataType t, SourceLoc at) {
  if (v.above_int64 && !is_uint64(t))
    fail("integer literal " + py_int_text(v) + " does not fit in " + t.name() +
             " (only a uint64 literal may exceed 9223372036854775807)",
         v.loc);
  if (is_uint64(t) && v.i < 0 && !v.above_int64)
    fail("integer literal " + py_int_text(v) + " is negative; a uint64 literal holds 0 .. 18446744073709551615", v.loc);
  return int_imm(v.i, t, at);
}

PrimExpr Parser::cast_operand(const Value& v) {
  if (v.kind == Value::Kind::Int && v.above_int64) return int_literal(v, DataType::uint(64), v.loc);
  return to_expr(v);
}

PrimExpr Parser::to_expr(const Value& v) {
  switch (v.kind) {
    case Value::Kind::Expr: return v.expr;
    case Value::Kind::Int:
      if (v.above_int64)
        fail("integer literal " + py_int_text(v) + " does not fit in int64, the type a Python int takes here; write T.uint64(" +
                 py_int_text(v) + ")",
             v.loc);
      return int_imm(v.i, v.i >= INT32_MIN && v.i <= INT32_MAX ? DataType::int_(32) : DataType::int_(64), v.loc);
    case Value::Kind::Float: return literal_as(v, DataType::int_(32));
    case Value::Kind::Bool: return bool_imm(v.i != 0, v.loc);
    case Value::Kind::Str: return string_imm(v.s, v.loc);
    case Value::Kind::Subscript: {
      std::vector<PrimExpr> idx = load_indices(v);
      return make_buffer_load(v.buffer, std::move(idx), v.loc);
    }
    default: fail(std::string("expected an expression, found a ") + value_kind_name(v.kind), v.loc);
  }
}

PrimExpr Parser::fold_cast(DataType t, const PrimExpr& e, SourceLoc l) {
  if (e->dtype == t) return e;
  if (t.is_scalar() && e->dtype.is_scalar()) {
    if (auto* imm = e->as<IntImmNode>()) {
      if (t.is_integer()) return int_imm(t.is_bool() ? imm->value != 0 : wrap_int(imm->value, t), t, l);
      if (t.is_float()) return float_literal(int_as_double(imm->value, e->dtype), t, l);
    }
    if (auto* imm = e->as<FloatImmNode>(); imm && t.is_float()) return float_literal(imm->value, t, l);
  }
  return make_cast(t, e, l);
}

std::pair<PrimExpr, PrimExpr> Parser::match_types(const Value& a, const Value& b, SourceLoc l) {
  PrimExpr x, y;
  // A Python number takes the other operand's type, except that a number next to a bool stays a
  // number (the bool is then cast to it).
  auto adopts = [](const Value& lit, const PrimExpr& other) {
    return !other->dtype.is_bool() || lit.kind == Value::Kind::Bool;
  };
  if (a.is_py_number() && !b.is_py_number()) {
    y = to_expr(b);
    x = adopts(a, y) ? literal_as(a, y->dtype) : to_expr(a);
  } else if (b.is_py_number() && !a.is_py_number()) {
    x = to_expr(a);
    y = adopts(b, x) ? literal_as(b, x->dtype) : to_expr(b);
  } else {
    x = to_expr(a);
    y = to_expr(b);
  }
  DataType tx = x->dtype.element(), ty = y->dtype.element();
  if (tx != ty) {
    if (tx.code == DataType::Code::Handle || ty.code == DataType::Code::Handle)
      fail("Cannot match type " + x->dtype.name() + " vs " + y->dtype.name(), l);
    DataType t;
    if (tx.is_float() && ty.is_float()) t = tx.bits >= ty.bits ? tx : ty;
    else if (tx.is_float()) t = tx;
    else if (ty.is_float()) t = ty;
    else if (tx.is_bool()) t = ty;
    else if (ty.is_bool()) t = tx;
    else if (tx.bits != ty.bits) t = tx.bits > ty.bits ? tx : ty;
    else t = tx.is_uint() ? tx : ty;  // equal widths, one unsigned
    x = fold_cast(t.with_lanes(x->dtype.lanes), x, l);
    y = fold_cast(t.with_lanes(y->dtype.lanes), y, l);
  }
  if (x->dtype.lanes != y->dtype.lanes) {
    if (x->dtype.lanes == 1) x = make_broadcast(x, y->dtype.lanes, l);
    else if (y->dtype.lanes == 1) y = make_broadcast(y, x->dtype.lanes, l);
    else fail("Cannot match lanes of " + x->dtype.name() + " and " + y->dtype.name(), l);
  }
  return {x, y};
}

// Sugared operators: promote, then fold two literals of the same type.
PrimExpr Parser::sugar_binary(ExprKind kind, const Value& a, const Value& b, SourceLoc l) {
  auto [x, y] = match_types(a, b, l);
  auto* ia = x->as<IntImmNode>();
  auto* ib = y->as<IntImmNode>();
  DataType t = x->dtype;
  if (ia && ib && !t.is_bool()) {
    int64_t p = ia->value, q = ib->value;
    if ((kind == ExprKind::Div || kind == ExprKind::Mod || kind == ExprKind::FloorDiv || kind == ExprKind::FloorMod) && q == 0)
      fail("Divide by zero", l);
    auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
    if (is_uint64(t)) {  // unsigned: the interpreter's arithmetic (division by zero is excluded above)
      RuntimeValue r = apply_binary(kind, RuntimeValue::of_int(t, p), RuntimeValue::of_int(t, q), l.line);
      return r.dtype.is_bool() ? bool_imm(r.ints[0] != 0, l) : int_imm(r.ints[0], t, l);
    }
    switch (kind) {
      case ExprKind::Add: return int_imm(wrap_int(static_cast<int64_t>(u(p) + u(q)), t), t, l);
      case ExprKind::Sub: return int_imm(wrap_int(static_cast<int64_t>(u(p) - u(q)), t), t, l);
      case ExprKind::Mul: return int_imm(wrap_int(static_cast<int64_t>(u(p) * u(q)), t), t, l);
      case ExprKind::Div: if (!(p == INT64_MIN && q == -1)) return int_imm(wrap_int(p / q, t), t, l); break;
      case ExprKind::Mod: if (q != -1) return int_imm(wrap_int(p % q, t), t, l); break;
      case ExprKind::FloorDiv: if (!(p == INT64_MIN && q == -1)) return int_imm(wrap_int(floor_div(p, q), t), t, l); break;
      case ExprKind::FloorMod: if (q != -1) return int_imm(wrap_int(floor_mod(p, q), t), t, l); break;
      case ExprKind::Min: return int_imm(std::min(p, q), t, l);
      case ExprKind::Max: return int_imm(std::max(p, q), t, l);
      default:
        if (std::optional<bool> c = compare_values(kind, p, q)) return bool_imm(*c, l);
    }
  }
  auto* fa = x->as<FloatImmNode>();
  auto* fb = y->as<FloatImmNode>();
  if (fa && fb) {
    double p = fa->value, q = fb->value, r = 0;
    bool folded = true;
    switch (kind) {
      case ExprKind::Add: r = p + q; break;
      case ExprKind::Sub: r = p - q; break;
      case ExprKind::Mul: r = p * q; break;
      case ExprKind::Div: r = p / q; break;
      case ExprKind::Min: r = std::min(p, q); break;
      case ExprKind::Max: r = std::max(p, q); break;
      default:
        if (std::optional<bool> c = compare_values(kind, p, q)) return bool_imm(*c, l);
        folded = false;
    }
    if (folded) return float_literal(r, t, l);
  }
  return make_binary(kind, x, y, l);
}

// The extent of [lo, hi): folded for integers; for other types (ill-typed loop bounds) kept as
// hi - lo, which the printer can always undo (float folding is not invertible: inf - inf).
PrimExpr Parser::range_extent(const PrimExpr& lo, const PrimExpr& hi, SourceLoc l) {
  if (!lo->dtype.is_integer()) return make_binary(ExprKind::Sub, hi, lo, l);
  return sugar_binary(ExprKind::Sub, Value::of_expr(hi, l), Value::of_expr(lo, l), l);
}

Value Parser::binary(const std::string& op, const Value& a, const Value& b, SourceLoc l) {
  if (a.is_py_number() && b.is_py_number()) {
    bool floats = a.kind == Value::Kind::Float || b.kind == Value::Kind::Float;
    if (op == "/" || floats) {
      double p = a.as_double(), q = b.as_double();
      if ((op == "/" || op == "//" || op == "%") && q == 0) fail("division by zero", l);
      if (op == "+") return Value::of_float(p + q, l);
      if (op == "-") return Value::of_float(p - q, l);
      if (op == "*") return Value::of_float(p * q, l);
      if (op == "/") return Value::of_float(p / q, l);
      if (op == "//") return Value::of_float(std::floor(p / q), l);
      if (op == "%") return Value::of_float(p - std::floor(p / q) * q, l);
      if (op == "**") return Value::of_float(std::pow(p, q), l);
      fail("unsupported operand types for " + op + ": float", l);
    }
    for (const Value* big : {&a, &b})
      if (big->above_int64)
        fail("integer constant " + py_int_text(*big) + " is above int64's range: Python arithmetic on it is not supported", big->loc);
    int64_t p = a.i, q = b.i, r = 0;
    bool overflow = false;
    if (op == "+") overflow = __builtin_add_overflow(p, q, &r);
    else if (op == "-") overflow = __builtin_sub_overflow(p, q, &r);
    else if (op == "*") overflow = __builtin_mul_overflow(p, q, &r);
    else if (op == "//" || op == "%") {
      if (q == 0) fail("division by zero", l);
      if (p == INT64_MIN && q == -1) overflow = true;
      else r = op == "//" ? floor_div(p, q) : floor_mod(p, q);
    } else if (op == "**") {
      if (q < 0) return Value::of_float(std::pow(static_cast<double>(p), static_cast<double>(q)), l);
      r = 1;
      for (int64_t k = 0; k < q && !overflow; ++k) overflow = __builtin_mul_overflow(r, p, &r);
    } else if (op == "&") r = p & q;
    else if (op == "|") r = p | q;
    else if (op == "^") r = p ^ q;
    else if (op == "<<") {
      if (q < 0 || q >= 63) overflow = q >= 63, r = 0;
      if (q < 0) fail("negative shift count", l);
      if (!overflow) r = static_cast<int64_t>(static_cast<uint64_t>(p) << q), overflow = (r >> q) != p;
    } else if (op == ">>") {
      if (q < 0) fail("negative shift count", l);
      r = q >= 64 ? (p < 0 ? -1 : 0) : p >> q;
    }
    if (overflow) fail("integer overflow in constant " + std::to_string(p) + " " + op + " " + std::to_string(q), l);
    return Value::of_int(r, l);
  }
  for (const OpInfo& o : kArith) {
    if (op != o.symbol) continue;
    if (o.kind == ExprKind::Div) {
      auto [x, y] = match_types(a, b, l);
      if (x->dtype.is_integer())
        fail("TVM supports multiple types of integer divisions, please call div, indexdiv/indexmod, "
             "floordiv/floormod or truncdiv/truncmod directly to avoid ambiguity in the code.",
             l);
    }
    return Value::of_expr(sugar_binary(o.kind, a, b, l), l);
  }
  if (const BitOperator* bit = bit_operator_by_symbol(op)) {
    auto [x, y] = match_types(a, b, l);
    return Value::of_expr(make_call(x->dtype, std::string(bit->op), {x, y}, l), l);
  }
  fail("operator " + op + " is not supported on PrimExpr (use T.pow for powers)", l);
}

Value Parser::compare(const std::string& op, const Value& a, const Value& b, SourceLoc l) {
  if (a.is_py_number() && b.is_py_number()) {
    double p = a.as_double(), q = b.as_double();
    bool ints = a.kind != Value::Kind::Float && b.kind != Value::Kind::Float;
    auto cmp = [&](auto x, auto y) {
      return op == "==" ? x == y : op == "!=" ? x != y : op == "<" ? x < y : op == "<=" ? x <= y : op == ">=" ? x >= y : x > y;
    };
    return Value::of_bool(ints ? cmp(py_int(a), py_int(b)) : cmp(p, q), l);
  }
  for (const OpInfo& o : kCompare)
    if (op == o.symbol) return Value::of_expr(sugar_binary(o.kind, a, b, l), l);
  fail("operator '" + op + "' is not supported", l);
}

Value Parser::unary(const std::string& op, const Value& a, SourceLoc l) {
  if (op == "not") {
    if (a.is_py_number()) return Value::of_bool(a.kind == Value::Kind::Float ? a.f == 0 : a.i == 0, l);
    return Value::of_expr(make_not(to_expr(a), l), l);
  }
  if (op == "+") return a;
  if (a.kind == Value::Kind::Float) return Value::of_float(-a.f, l);
  if (a.is_py_number()) {
    // -9223372036854775808 is int64's least value; every other negation of a literal above
    // int64's range is out of 64 bits.
    if (a.above_int64 && op == "-" && a.i == INT64_MIN) return Value::of_int(INT64_MIN, l);
    if (a.above_int64) fail("integer overflow in constant " + op + "(" + py_int_text(a) + ")", l);
    if (op == "~") return Value::of_int(~a.i, l);
    if (a.i == INT64_MIN) fail("integer overflow in constant -(" + std::to_string(a.i) + ")", l);
    return Value::of_int(-a.i, l);
  }
  PrimExpr x = to_expr(a);
  if (op == "~") return Value::of_expr(make_call(x->dtype, "tir.bitwise_not", {x}, l), l);
  if (auto* imm = x->as<IntImmNode>(); imm && !x->dtype.is_bool())
    return Value::of_expr(int_imm(wrap_int(static_cast<int64_t>(0 - static_cast<uint64_t>(imm->value)), x->dtype), x->dtype, l), l);
  if (auto* imm = x->as<FloatImmNode>()) return Value::of_expr(float_imm(-imm->value, x->dtype, l), l);
  return Value::of_expr(make_binary(ExprKind::Sub, literal_as(Value::of_int(0, l), x->dtype), x, l), l);
}

Value Parser::logical(const std::string& op, const Value& a, const Value& b, SourceLoc l) {
  if (a.is_py_number() && b.is_py_number()) {
    bool p = a.kind == Value::Kind::Float ? a.f != 0 : a.i != 0;
    bool q = b.kind == Value::Kind::Float ? b.f != 0 : b.i != 0;
    return Value::of_bool(op == "and" ? p && q : p || q, l);
  }
  PrimExpr x = to_expr(a), y = to_expr(b);
  return Value::of_expr(make_binary(op == "and" ? ExprKind::And : ExprKind::Or, x, y, l), l);
}

DataType Parser::dtype_of(const Value& v, const char* what) {
  if (v.kind == Value::Kind::TypeObj) return v.type->value_dtype();
  if (v.kind == Value::Kind::Str) {
    if (auto t = parse_data_type(v.s)) return *t;
    fail(std::string("unknown dtype \"") + v.s + "\" for " + what, v.loc);
  }
  if (v.kind == Value::Kind::Path) {
    Value r = resolve_path(v);
    if (r.kind == Value::Kind::TypeObj) return r.type->value_dtype();
  }
  fail(std::string("expected a dtype for ") + what + ", found a " + value_kind_name(v.kind), v.loc);
}

int64_t Parser::int_of(const Value& v, const char* what) {
  if (v.kind == Value::Kind::Int && v.above_int64)
    fail(std::string("integer constant ") + py_int_text(v) + " for " + what + " does not fit in int64", v.loc);
  if (v.kind == Value::Kind::Int || v.kind == Value::Kind::Bool) return v.i;
  if (v.kind == Value::Kind::Expr)
    if (auto* imm = v.expr->as<IntImmNode>()) return imm->value;
  fail(std::string("expected an integer constant for ") + what + ", found a " + value_kind_name(v.kind), v.loc);
}

std::string Parser::value_text(const Value& v) const {
  switch (v.kind) {
    case Value::Kind::Int: return py_int_text(v);
    case Value::Kind::Expr: return print_expr(v.expr);
    case Value::Kind::Str: return "\"" + v.s + "\"";
    default: return std::string("a ") + value_kind_name(v.kind);
  }
}

std::string Parser::str_of(const Value& v, const char* what) {
  if (v.kind == Value::Kind::Str) return v.s;
  fail(std::string("expected a string for ") + what + ", found a " + value_kind_name(v.kind), v.loc);
}

std::vector<Value> Parser::sequence_of(const Value& v) {
  if (v.kind == Value::Kind::Tuple || v.kind == Value::Kind::List) return v.items;
  return {v};
}

AttrValue Parser::attr_of(const Value& v) {
  AttrValue a;
  if (v.kind == Value::Kind::List || v.kind == Value::Kind::Tuple) {
    a.is_list = true;
    for (const Value& x : v.items) a.list.push_back(attr_of(x));
    return a;
  }
  if (v.kind == Value::Kind::Dict) {
    a.is_list = a.is_dict = true;
    for (size_t i = 0; i < v.keys.size(); ++i) {
      a.keys.push_back(str_of(v.keys[i], "a dict key of an attribute"));
      a.list.push_back(attr_of(v.items[i]));
    }
    return a;
  }
  if (v.kind == Value::Kind::Buffer) {
    a.buffer = v.buffer;
    return a;
  }
  a.expr = to_expr(v);
  return a;
}

Annotations Parser::annotations_of(const Value& v) {
  if (v.kind != Value::Kind::Dict) fail("expected a dict of annotations", v.loc);
  Annotations out;
  for (size_t i = 0; i < v.keys.size(); ++i) out.emplace_back(str_of(v.keys[i], "an annotation key"), attr_of(v.items[i]));
  return out;
}


std::vector<PrimExpr> Parser::load_indices(const Value& sub) {
  std::vector<PrimExpr> out;
  for (size_t d = 0; d < sub.items.size(); ++d) {
    const Value& item = sub.items[d];
    if (item.kind != Value::Kind::Slice) {
      out.push_back(to_expr(item));
      continue;
    }
    // A slice a:b:s in a load or store is Ramp(a, s, (b - a + s - 1) // s) (tir-notes 1.3).
    const Value &start = item.items[0], &stop = item.items[1], &step = item.items[2];
    int64_t s = step.kind == Value::Kind::None ? 1 : int_of(step, "a slice step");
    if (s <= 0) fail("slice step must be positive", step.loc);
    Value a = start.kind == Value::Kind::None ? Value::of_int(0, item.loc) : start;
    Value b = stop;
    if (b.kind == Value::Kind::None) {
      if (d >= sub.buffer->shape.size()) fail("slice without a stop past the buffer's dimensions", item.loc);
      b = Value::of_expr(sub.buffer->shape[d], item.loc);
    }
    auto [x, y] = match_types(a, b, item.loc);
    std::optional<int64_t> span = constant_difference(y, x);
    if (!span) fail("Cannot convert to BufferLoad: the slice length " + print_expr(y) + " - " + print_expr(x) + " is not constant", item.loc);
    if (*span <= 0) fail("empty slice " + print_expr(x) + ":" + print_expr(y), item.loc);
    int64_t lanes = *span / s + (*span % s != 0);  // ceil without overflowing near INT64_MAX
    if (lanes > 65536)  // as for T.Ramp: a lane count beyond this does not fit a DataType
      fail("a slice has at most 65536 lanes, not " + std::to_string(lanes), item.loc);
    out.push_back(lanes == 1 ? x : make_ramp(x, int_imm(s, x->dtype, item.loc), static_cast<int>(lanes), item.loc));
  }
  return out;
}

BufferRegion Parser::region_of(const Value& sub) {
  if (sub.kind == Value::Kind::Buffer) {
    // A whole buffer: every dimension from 0 to its extent.
    BufferRegion r{sub.buffer, {}};
    for (const PrimExpr& e : sub.buffer->shape) r.region.push_back({literal_as(Value::of_int(0, sub.loc), e->dtype), e});
    return r;
  }
  if (sub.kind != Value::Kind::Subscript) fail("expected a buffer region like A[i, 0:16]", sub.loc);
  BufferRegion r{sub.buffer, {}};
  for (size_t d = 0; d < sub.items.size(); ++d) {
    const Value& item = sub.items[d];
    if (item.kind != Value::Kind::Slice) {
      PrimExpr m = to_expr(item);
      r.region.push_back({m, literal_as(Value::of_int(1, item.loc), m->dtype)});
      continue;
    }
    if (item.items[2].kind != Value::Kind::None) fail("a region takes no slice step", item.items[2].loc);
    Value a = item.items[0].kind == Value::Kind::None ? Value::of_int(0, item.loc) : item.items[0];
    Value b = item.items[1];
    if (b.kind == Value::Kind::None) {
      if (d >= sub.buffer->shape.size()) fail("slice without a stop past the buffer's dimensions", item.loc);
      b = Value::of_expr(sub.buffer->shape[d], item.loc);
    }
    auto [x, y] = match_types(a, b, item.loc);
    r.region.push_back({x, range_extent(x, y, item.loc)});
  }
  return r;
}

PrimExpr Parser::store_value(const Buffer& b, int index_lanes, const Value& v, SourceLoc l) {
  DataType want = b->dtype.with_lanes(b->dtype.lanes * index_lanes);
  if (v.is_py_number()) {
    PrimExpr lit = literal_as(v, b->dtype.element());
    if (lit->dtype != b->dtype.element()) lit = fold_cast(b->dtype.element(), lit, l);
    return want.lanes == 1 ? lit : make_broadcast(lit, want.lanes, l);
  }
  PrimExpr e = to_expr(v);
  if (e->dtype.lanes != want.lanes)
    fail("Incompatible types in BufferStore: LHS is " + want.name() + ", RHS is " + e->dtype.name(), l);
  return e->dtype == want ? e : fold_cast(want, e, l);
}

}  // namespace onegrad::tir
