// A.vload(begin, dtype, predicate) and A.vstore(begin, value, predicate): TVM's Buffer methods that
// read or write `dtype.lanes / A.dtype.lanes` consecutive elements from the index `begin`, as a
// BufferLoad/BufferStore whose last index becomes Ramp(begin[-1], 1, lanes). The predicate (a bool
// lane mask) is kept on the node as TVM keeps it, even when every lane is on; its type is the
// checker's (BufferLoad/BufferStore rules), as TVM's constructors check it.
#include "tir/ast/buffer.h"
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

namespace {

// The predicate argument, or null when there is none (None or left out).
PrimExpr predicate_of(Parser& p, const CallArgs& c, size_t position) {
  const Value* pred = c.arg(position, "predicate");
  if (!pred || pred->kind == Value::Kind::None) return nullptr;
  return p.to_expr(*pred);
}

// The indices of the access: begin, the last one widened to a Ramp over `lanes` buffer elements.
std::vector<PrimExpr> vector_indices(Parser& p, const CallArgs& c, const Buffer& b, DataType value, const char* verb) {
  if (value.element() != b->dtype.element() || value.lanes % b->dtype.lanes != 0)
    p.fail(std::string("Cannot ") + verb + " " + value.name() + (verb[0] == 'l' ? " from" : " to") + " buffer of " +
               b->dtype.name(),
           c.loc);
  const Value* begin = c.arg(1, "begin");
  if (!begin) p.fail(c.path + " needs the index to begin at", c.loc);
  std::vector<PrimExpr> indices = begin->kind == Value::Kind::List || begin->kind == Value::Kind::Tuple
                                      ? p.exprs(begin->items)
                                      : std::vector<PrimExpr>{p.to_expr(*begin)};
  if (indices.empty()) p.fail(c.path + " needs at least one index", begin->loc);
  int factor = value.lanes / b->dtype.lanes;
  PrimExpr& last = indices.back();
  if (factor > 1 && last->dtype.is_scalar()) {
    if (!last->dtype.is_integer() || last->dtype.is_bool()) p.fail(c.path + ": the index must be an integer, not " + last->dtype.name(), last->loc);
    last = make_ramp(last, int_imm(1, last->dtype, c.loc), factor, c.loc);
  }
  return indices;
}

// The method's own arguments, after self: 1 to 3.
void method_arity(Parser& p, const CallArgs& c) {
  if (c.args.size() < 2 || c.args.size() > 4)
    p.fail(c.path + " takes 1 to 3 positional arguments, got " + std::to_string(c.args.size() - 1), c.loc);
}

}  // namespace

// args[0] is the buffer (the method's self).
Value buffer_vload(Parser& p, CallArgs& c) {
  method_arity(p, c);
  const Buffer& b = c.args[0].buffer;
  const Value* dtype = c.arg(2, "dtype");
  DataType t = dtype && dtype->kind != Value::Kind::None ? p.dtype_of(*dtype, "vload") : b->dtype;
  std::vector<PrimExpr> indices = vector_indices(p, c, b, t, "load");
  return Value::of_expr(make_buffer_load(b, std::move(indices), c.loc, predicate_of(p, c, 3)), c.loc);
}

Value buffer_vstore(Parser& p, CallArgs& c) {
  method_arity(p, c);
  const Buffer& b = c.args[0].buffer;
  const Value* v = c.arg(2, "value");
  if (!v) p.fail(c.path + " needs a value", c.loc);
  PrimExpr value = v->is_py_number() ? p.literal_as(*v, b->dtype.element()) : p.to_expr(*v);
  auto n = std::make_shared<BufferStoreNode>(c.loc);
  n->buffer = b;
  n->indices = vector_indices(p, c, b, value->dtype, "store");
  n->value = value;
  n->predicate = predicate_of(p, c, 3);
  return Value::of_stmt(n, c.loc);
}

}  // namespace onegrad::tir
