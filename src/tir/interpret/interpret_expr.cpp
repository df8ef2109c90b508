// PrimExpr evaluation (spec: "Evaluating PrimExprs").
#include "tir/interpret/interpret_arith.h"
#include "tir/interpret/interpret_impl.h"
#include "tir/interpret/lane_mask.h"

namespace onegrad::tir {

RuntimeValue Interpreter::var_value(const VarNode* v, int line) {
  auto it = frames_.back().vars.find(v);
  if (it == frames_.back().vars.end()) throw TirRuntimeError("variable " + v->name_hint + " is not bound", line);
  return it->second;
}

RuntimeValue Interpreter::eval(const PrimExpr& e) {
  const int line = e->loc.line;
  stack_.check(line);
  switch (e->kind) {
    case ExprKind::Var: return var_value(static_cast<const VarNode*>(e.get()), line);
    case ExprKind::IntImm: return RuntimeValue::of_int(e->dtype, e->as<IntImmNode>()->value);
    case ExprKind::FloatImm: return RuntimeValue::of_float(e->dtype, e->as<FloatImmNode>()->value);
    case ExprKind::StringImm: {
      // A handle to the string's characters; StringImm nodes live as long as the module.
      const std::string& s = e->as<StringImmNode>()->value;
      return RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(s.c_str())));
    }
    case ExprKind::Cast: return cast_value(eval(e->as<CastNode>()->value), e->dtype);
    case ExprKind::Select: {  // not short-circuiting: both arms are evaluated
      const auto* s = e->as<SelectNode>();
      RuntimeValue c = eval(s->condition), t = eval(s->true_value), f = eval(s->false_value);
      if (c.lanes() == 1) return c.truthy() ? t : f;
      if (t.dtype != f.dtype || t.lanes() != c.lanes())
        throw TirRuntimeError("Select: condition " + c.dtype.name() + " and arms " + t.dtype.name() + ", " +
                                  f.dtype.name() + " do not match", line);
      for (int i = 0; i < c.lanes(); ++i)
        if (c.truthy(i)) t.dtype.is_float() ? void(f.floats[i] = t.floats[i]) : void(f.ints[i] = t.ints[i]);
      return f;
    }
    case ExprKind::BufferLoad: return eval_load(*e->as<BufferLoadNode>());
    case ExprKind::Ramp: {
      const auto* r = e->as<RampNode>();
      if (r->lanes < 1) throw TirRuntimeError("Ramp with " + std::to_string(r->lanes) + " lanes", line);
      RuntimeValue base = eval(r->base), stride = eval(r->stride);
      std::vector<RuntimeValue> lanes;
      for (int i = 0; i < r->lanes; ++i)
        lanes.push_back(apply_binary(ExprKind::Add, base,
                                     apply_binary(ExprKind::Mul, RuntimeValue::of_int(stride.dtype, i), stride, line), line));
      return concat_lanes(lanes);
    }
    case ExprKind::Broadcast: {
      const auto* b = e->as<BroadcastNode>();
      if (b->lanes < 1) throw TirRuntimeError("Broadcast with " + std::to_string(b->lanes) + " lanes", line);
      return concat_lanes(std::vector<RuntimeValue>(b->lanes, eval(b->value)));
    }
    case ExprKind::Let: {
      const auto* l = e->as<LetNode>();
      RuntimeValue v = eval(l->value);
      auto& vars = frames_.back().vars;
      vars[l->var.get()] = v;
      RuntimeValue r = eval(l->body);
      vars.erase(l->var.get());
      return r;
    }
    case ExprKind::Call: return eval_call(*e->as<CallNode>());
    case ExprKind::Shuffle: return eval_shuffle(*e->as<ShuffleNode>());
    case ExprKind::And:
    case ExprKind::Or: return eval_logical(*e->as<BinaryNode>());
    case ExprKind::Not: {
      RuntimeValue v = cast_value(eval(e->as<NotNode>()->a), DataType::bool_());
      for (int64_t& x : v.ints) x = x == 0;
      return v;
    }
    default: return eval_binary(*e->as<BinaryNode>());
  }
}

RuntimeValue Interpreter::eval_binary(const BinaryNode& b) {
  RuntimeValue x = eval(b.a);
  RuntimeValue y = eval(b.b);
  return apply_binary(b.kind, x, y, b.loc.line);
}

// Scalars short-circuit (b is not evaluated when a decides); vectors combine lane by lane.
RuntimeValue Interpreter::eval_logical(const BinaryNode& b) {
  const bool is_and = b.kind == ExprKind::And;
  RuntimeValue x = eval(b.a);
  if (x.lanes() == 1) {
    if (x.truthy() != is_and) return RuntimeValue::of_int(DataType::bool_(), is_and ? 0 : 1);
    return cast_value(eval(b.b), DataType::bool_());
  }
  RuntimeValue y = eval(b.b);
  for (int i = 0; i < x.lanes(); ++i) x.ints[i] = is_and ? (x.ints[i] && y.ints[i]) : (x.ints[i] || y.ints[i]);
  return x;
}

std::vector<std::vector<int64_t>> Interpreter::lane_indices(const std::vector<PrimExpr>& indices, int& lanes) {
  std::vector<std::vector<int64_t>> out;
  lanes = 1;
  for (const PrimExpr& i : indices) {
    RuntimeValue v = eval(i);
    std::vector<int64_t> per_lane;
    for (int l = 0; l < v.lanes(); ++l) per_lane.push_back(v.int_at(l));
    lanes = std::max(lanes, v.lanes());
    out.push_back(std::move(per_lane));
  }
  return out;
}

namespace {

// The scalar index of lane `l`: vector indices give their lane, scalar ones themselves.
std::vector<int64_t> index_of_lane(const std::vector<std::vector<int64_t>>& idx, int l) {
  std::vector<int64_t> out;
  for (const auto& v : idx) out.push_back(v.size() == 1 ? v[0] : v.at(l));
  return out;
}

}  // namespace

// The indices, then the predicate, then the elements lane by lane; an element whose lanes are all
// off is not read (no bounds fault), and lanes that are off read 0.
RuntimeValue Interpreter::eval_load(const BufferLoadNode& l) {
  ArrayRef a = array_of(l.buffer, l.loc.line);
  int lanes = 1;
  auto idx = lane_indices(l.indices, lanes);
  const int w = l.buffer->dtype.lanes;
  const std::vector<char> on = l.predicate ? lane_mask(eval(l.predicate), lanes * w, l.loc.line) : std::vector<char>{};
  const RuntimeValue zero = RuntimeValue::zeros(l.buffer->dtype);
  std::vector<RuntimeValue> parts;
  for (int j = 0; j < lanes; ++j)
    parts.push_back(any_lane_on(on, j * w, w)
                        ? keep_lanes_on(load_element(a, index_of_lane(idx, j), l.buffer->name, l.loc.line), zero, on, j * w)
                        : zero);
  return concat_lanes(parts);
}

RuntimeValue Interpreter::eval_shuffle(const ShuffleNode& s) {
  std::vector<RuntimeValue> vectors;
  for (const PrimExpr& v : s.vectors) vectors.push_back(eval(v));
  RuntimeValue all = concat_lanes(vectors);
  std::vector<RuntimeValue> picked;
  for (const PrimExpr& i : s.indices) {
    int64_t k = eval_int(i);
    if (k < 0 || k >= all.lanes())
      throw TirRuntimeError("Shuffle index " + std::to_string(k) + " is outside the " + std::to_string(all.lanes()) +
                                " lanes of its vectors", s.loc.line);
    picked.push_back(all.lane(static_cast<int>(k)));
  }
  if (picked.empty()) throw TirRuntimeError("Shuffle without indices", s.loc.line);
  return concat_lanes(picked);
}

void Interpreter::exec_store(const BufferStoreNode& s) {
  ArrayRef a = array_of(s.buffer, s.loc.line);
  RuntimeValue v = eval(s.value);
  int lanes = 1;
  auto idx = lane_indices(s.indices, lanes);
  // A vector index stores W = ||v|| / lanes consecutive value lanes at each index lane.
  const int w = v.lanes() / lanes;
  if (w * lanes != v.lanes() || w != s.buffer->dtype.lanes)
    throw TirRuntimeError("store of " + v.dtype.name() + " to " + std::to_string(lanes) + " index lanes of buffer " +
                              s.buffer->name + " of " + s.buffer->dtype.name(), s.loc.line);
  // the predicate after the value and the indices; an element whose lanes are all off is not
  // touched, one partly off keeps its old value in those lanes
  const std::vector<char> on = s.predicate ? lane_mask(eval(s.predicate), v.lanes(), s.loc.line) : std::vector<char>{};
  for (int j = 0; j < lanes; ++j) {
    if (!any_lane_on(on, j * w, w)) continue;
    std::vector<RuntimeValue> piece;
    for (int k = 0; k < w; ++k) piece.push_back(v.lane(j * w + k));
    const std::vector<int64_t> index = index_of_lane(idx, j);
    RuntimeValue element = concat_lanes(piece);
    if (!all_lanes_on(on, j * w, w)) element = keep_lanes_on(element, load_element(a, index, s.buffer->name, s.loc.line), on, j * w);
    store_element(a, index, element, s.buffer->name, s.loc.line);
  }
}

}  // namespace onegrad::tir
