// Expressions as TVMScript. An operator is printed with Python's sugar (`a + b`, `a // b`,
// `T.min(a, b)`) only where the parser's sugar gives back the same node: equal operand dtypes
// (the sugar would promote otherwise) and not two literals (it would fold them). Everything else
// prints as the explicit constructor (`T.Add(a, b)`).
#include <charconv>
#include <cmath>

#include "tir/ast/buffer.h"
#include "tir/ast/builtins.h"
#include "tir/print/printer.h"
#include "tir/print/printer_impl.h"

namespace onegrad::tir {

namespace {

struct OpForm {
  ExprKind kind;
  const char* infix;       // Python operator, or null
  const char* sugar_fn;    // T.* function with sugar semantics, or null
  int prec;                // of the infix form
  enum Domain { Any, Int, Float, Bool } domain;  // operand dtypes the sugar form takes
  const char* explicit_fn;
};

const OpForm kOpForms[] = {
    {ExprKind::Add, "+", nullptr, kPrecAdd, OpForm::Any, "T.Add"},
    {ExprKind::Sub, "-", nullptr, kPrecAdd, OpForm::Any, "T.Sub"},
    {ExprKind::Mul, "*", nullptr, kPrecMul, OpForm::Any, "T.Mul"},
    {ExprKind::Div, "/", nullptr, kPrecMul, OpForm::Float, "T.Div"},
    {ExprKind::Mod, nullptr, "T.truncmod", 0, OpForm::Int, "T.Mod"},
    {ExprKind::FloorDiv, "//", nullptr, kPrecMul, OpForm::Int, "T.FloorDiv"},
    {ExprKind::FloorMod, "%", nullptr, kPrecMul, OpForm::Int, "T.FloorMod"},
    {ExprKind::Min, nullptr, "T.min", 0, OpForm::Any, "T.Min"},
    {ExprKind::Max, nullptr, "T.max", 0, OpForm::Any, "T.Max"},
    {ExprKind::EQ, "==", nullptr, kPrecCmp, OpForm::Any, "T.EQ"},
    {ExprKind::NE, "!=", nullptr, kPrecCmp, OpForm::Any, "T.NE"},
    {ExprKind::LT, "<", nullptr, kPrecCmp, OpForm::Any, "T.LT"},
    {ExprKind::LE, "<=", nullptr, kPrecCmp, OpForm::Any, "T.LE"},
    {ExprKind::GE, ">=", nullptr, kPrecCmp, OpForm::Any, "T.GE"},
    {ExprKind::GT, ">", nullptr, kPrecCmp, OpForm::Any, "T.GT"},
    {ExprKind::And, "and", nullptr, kPrecAnd, OpForm::Bool, "T.And"},
    {ExprKind::Or, "or", nullptr, kPrecOr, OpForm::Bool, "T.Or"},
};

bool is_literal(const PrimExpr& e) { return e->kind == ExprKind::IntImm || e->kind == ExprKind::FloatImm; }

bool in_domain(OpForm::Domain d, DataType t) {
  if (t.code == DataType::Code::Handle) return false;
  switch (d) {
    case OpForm::Any: return true;
    case OpForm::Int: return t.is_integer() && !t.is_bool();
    case OpForm::Float: return t.is_float();
    case OpForm::Bool: return t.is_bool();
  }
  return false;
}

}  // namespace

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string ScriptPrinter::operand(const PrimExpr& e, int min_prec) {
  Text t = expr(e);
  return t.prec >= min_prec ? t.s : "(" + t.s + ")";
}

std::string ScriptPrinter::args(const std::vector<PrimExpr>& es) {
  std::string s;
  for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + str(es[i]);
  return s;
}

ScriptPrinter::Text ScriptPrinter::literal_int(const IntImmNode* n) {
  if (n->dtype.is_bool()) return {n->value ? "True" : "False", kPrecAtom};
  // int32 literals print bare (the parser reads a Python int as int32), the rest typed; so does an
  // ill-typed int32 out of int32's range, which a bare number would turn into an int64.
  if (n->dtype == DataType::int_(32) && n->value == wrap_int(n->value, n->dtype))
    return {std::to_string(n->value), n->value < 0 ? kPrecUnary : kPrecAtom};
  // A uint64 IntImm holds its value's bits: it prints unsigned, so 2^64 - 1 reads back as itself.
  bool unsigned64 = n->dtype.code == DataType::Code::UInt && n->dtype.bits == 64;
  std::string v = unsigned64 ? std::to_string(static_cast<uint64_t>(n->value)) : std::to_string(n->value);
  return {"T." + n->dtype.name() + "(" + v + ")", kPrecAtom};
}

ScriptPrinter::Text ScriptPrinter::literal_float(const FloatImmNode* n) {
  std::string v;
  if (std::isnan(n->value)) {
    v = "\"nan\"";
  } else if (std::isinf(n->value)) {
    v = n->value > 0 ? "\"inf\"" : "\"-inf\"";
  } else {
    char buf[64];
    // A float32 value prints as the shortest text that reads back as that float.
    float narrow = static_cast<float>(n->value);
    bool is_float32 = n->dtype.bits == 32 && static_cast<double>(narrow) == n->value;
    auto [end, ec] = is_float32 ? std::to_chars(buf, buf + sizeof buf, narrow) : std::to_chars(buf, buf + sizeof buf, n->value);
    v.assign(buf, end);
    if (v.find_first_of(".en") == std::string::npos) v += ".0";
  }
  return {"T." + n->dtype.name() + "(" + v + ")", kPrecAtom};
}

ScriptPrinter::Text ScriptPrinter::binary(const BinaryNode* n) {
  const OpForm* form = nullptr;
  for (const OpForm& f : kOpForms)
    if (f.kind == n->kind) form = &f;
  bool sugar = n->a->dtype == n->b->dtype && !(is_literal(n->a) && is_literal(n->b)) &&
               in_domain(form->domain, n->a->dtype);
  if (sugar && form->infix) {
    bool cmp = is_cmp_op(n->kind);
    std::string a = operand(n->a, cmp ? form->prec + 1 : form->prec);
    std::string b = operand(n->b, form->prec + 1);
    return {a + " " + form->infix + " " + b, form->prec};
  }
  const char* fn = sugar && form->sugar_fn ? form->sugar_fn : form->explicit_fn;
  return {std::string(fn) + "(" + str(n->a) + ", " + str(n->b) + ")", kPrecAtom};
}

ScriptPrinter::Text ScriptPrinter::call(const CallNode* n) {
  if (n->calls_global) return {module_name_ + "." + n->op + "(" + args(n->args) + ")", kPrecAtom};
  bool same_arg_types = true;
  for (const PrimExpr& a : n->args) same_arg_types &= a->dtype == n->args[0]->dtype;
  if (const BitOperator* bit = bit_operator_by_op(n->op);
      bit && same_arg_types && !n->args.empty() && n->dtype == n->args[0]->dtype && n->args.size() <= 2) {
    if (n->args.size() == 1) return {"~" + operand(n->args[0], kPrecUnary), kPrecUnary};
    if (!(is_literal(n->args[0]) && is_literal(n->args[1])))
      return {operand(n->args[0], bit->precedence) + " " + std::string(bit->symbol) + " " +
                  operand(n->args[1], bit->precedence + 1),
              bit->precedence};
  }
  if (n->op == "tir.reinterpret" && n->args.size() == 1 && n->args[0]->dtype != n->dtype)
    return {"T.reinterpret(" + quote(n->dtype.name()) + ", " + str(n->args[0]) + ")", kPrecAtom};
  if ((n->op == "tir.call_extern" || n->op == "tir.call_pure_extern") && !n->args.empty() &&
      n->args[0]->kind == ExprKind::StringImm)
    return {"T." + n->op.substr(4) + "(" + quote(n->dtype.name()) + ", " + args(n->args) + ")", kPrecAtom};
  if (const Builtin* b = builtin_by_op(n->op); b && static_cast<int>(n->args.size()) == b->arity &&
                                              builtin_dtype(*b, n->args) == n->dtype) {
    bool arms_match = b->dtype_rule != CallDType::SecondArg || n->args[1]->dtype == n->args[2]->dtype;
    if ((!b->promote_args || same_arg_types) && arms_match)
      return {"T." + std::string(b->name) + "(" + args(n->args) + ")", kPrecAtom};
  }
  std::string rest = n->args.empty() ? "" : ", " + args(n->args);
  return {"T.call_intrin(" + quote(n->dtype.name()) + ", " + quote(n->op) + rest + ")", kPrecAtom};
}

// The end of a range [min, min + extent), undoing the parser's `extent = end - min`.
std::string ScriptPrinter::range_end(const PrimExpr& min, const PrimExpr& extent) {
  if (auto* sub = extent->as<BinaryNode>(); sub && sub->kind == ExprKind::Sub && sub->b == min) return str(sub->a);
  const IntImmNode* lo = as_int_imm(min);
  const IntImmNode* ext = as_int_imm(extent);
  if (lo && ext && lo->dtype == ext->dtype && !lo->dtype.is_bool()) {
    // The parser folds stop - start in the literals' type with wraparound, so the stop that gives
    // back this extent is the wrapped sum (T.serial(2, -2147483648) has int32 extent 2147483646).
    uint64_t sum = static_cast<uint64_t>(lo->value) + static_cast<uint64_t>(ext->value);
    IntImmNode end(wrap_int(static_cast<int64_t>(sum), lo->dtype), lo->dtype, {});
    return literal_int(&end).s;
  }
  return operand(min, kPrecAdd) + " + " + operand(extent, kPrecAdd + 1);
}

std::string ScriptPrinter::index(const PrimExpr& e) {
  // A Ramp with a positive literal stride prints as the slice it came from.
  if (auto* ramp = e->as<RampNode>()) {
    const IntImmNode* stride = as_int_imm(ramp->stride);
    if (stride && stride->value > 0 && stride->dtype == ramp->base->dtype && !stride->dtype.is_bool()) {
      IntImmNode span(stride->value * ramp->lanes, stride->dtype, {});
      PrimExpr span_expr = std::make_shared<const IntImmNode>(span);
      std::string s = str(ramp->base) + ":" + range_end(ramp->base, span_expr);
      return stride->value == 1 ? s : s + ":" + std::to_string(stride->value);
    }
  }
  return str(e);
}

std::string ScriptPrinter::load(const Buffer& b, const std::vector<PrimExpr>& indices) {
  std::string s = buffer_name(b.get()) + "[";
  if (indices.empty()) return s + "()]";
  for (size_t i = 0; i < indices.size(); ++i) s += (i ? ", " : "") + index(indices[i]);
  return s + "]";
}

std::string ScriptPrinter::region(const BufferRegion& r) {
  std::string s = buffer_name(r.buffer.get()) + "[";
  if (r.region.empty()) return s + "()]";
  // The whole buffer (what `T.reads(A)` parses to) prints as A: a symbolic extent n would print as
  // 0:0 + n and re-parse as the extent 0 + n - 0.
  const std::vector<PrimExpr>& shape = r.buffer->shape;
  bool whole = r.region.size() == shape.size();
  for (size_t i = 0; whole && i < shape.size(); ++i)
    whole = r.region[i].extent == shape[i] && is_zero_literal(r.region[i].min) && r.region[i].min->dtype == shape[i]->dtype;
  if (whole) return buffer_name(r.buffer.get());
  for (size_t i = 0; i < r.region.size(); ++i) {
    const Range& range = r.region[i];
    s += i ? ", " : "";
    const PrimExpr& ext = range.extent;
    bool unit = ext->dtype == range.min->dtype &&
                (is_const_int(ext, 1) || (ext->kind == ExprKind::FloatImm && ext->as<FloatImmNode>()->value == 1.0));
    s += unit ? str(range.min)
             : str(range.min) + ":" + range_end(range.min, range.extent);
  }
  return s + "]";
}

ScriptPrinter::Text ScriptPrinter::expr(const PrimExpr& e) {
  switch (e->kind) {
    case ExprKind::Var: return {var_name(e->as<VarNode>()), kPrecAtom};
    case ExprKind::IntImm: return literal_int(e->as<IntImmNode>());
    case ExprKind::FloatImm: return literal_float(e->as<FloatImmNode>());
    case ExprKind::StringImm: return {quote(e->as<StringImmNode>()->value), kPrecAtom};
    case ExprKind::Cast: {
      auto* n = e->as<CastNode>();
      return {"T.Cast(" + quote(n->dtype.name()) + ", " + str(n->value) + ")", kPrecAtom};
    }
    case ExprKind::Select: {
      auto* n = e->as<SelectNode>();
      return {"T.Select(" + args({n->condition, n->true_value, n->false_value}) + ")", kPrecAtom};
    }
    case ExprKind::BufferLoad: {
      auto* n = e->as<BufferLoadNode>();
      if (n->predicate)  // as TVM prints it: the method, its indices a list
        return {buffer_name(n->buffer.get()) + ".vload([" + args(n->indices) + "], predicate=" + str(n->predicate) + ")", kPrecAtom};
      return {load(n->buffer, n->indices), kPrecAtom};
    }
    case ExprKind::Ramp: {
      auto* n = e->as<RampNode>();
      return {"T.Ramp(" + str(n->base) + ", " + str(n->stride) + ", " + std::to_string(n->lanes) + ")", kPrecAtom};
    }
    case ExprKind::Broadcast: {
      auto* n = e->as<BroadcastNode>();
      return {"T.Broadcast(" + str(n->value) + ", " + std::to_string(n->lanes) + ")", kPrecAtom};
    }
    case ExprKind::Let: {
      auto* n = e->as<LetNode>();
      return {"T.Let(" + str(n->body) + ", where={" + var_name(n->var.get()) + ": " + str(n->value) + "})", kPrecAtom};
    }
    case ExprKind::Call: return call(e->as<CallNode>());
    case ExprKind::Shuffle: {
      auto* n = e->as<ShuffleNode>();
      return {"T.Shuffle([" + args(n->vectors) + "], [" + args(n->indices) + "])", kPrecAtom};
    }
    case ExprKind::Not: {
      auto* n = e->as<NotNode>();
      if (n->a->dtype.is_bool()) return {"not " + operand(n->a, kPrecNot), kPrecNot};
      return {"T.Not(" + str(n->a) + ")", kPrecAtom};
    }
    default: return binary(e->as<BinaryNode>());
  }
}

std::string print_expr(const PrimExpr& e) { return ScriptPrinter().str(e); }

}  // namespace onegrad::tir
