// T.iter_var(var, dom, iter_type, thread_tag): TVM's printed form of the IterVar a T.attr
// annotates, as in T.attr(T.iter_var(tx, T.Range(0, 256), "ThreadIndex", "threadIdx.x"),
// "thread_extent", 256), which is what `with T.launch_thread("threadIdx.x", 256) as tx:` builds.
#include "tir/ast/buffer.h"
#include "tir/ast/iter_var_type.h"
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

Value iter_var_call(Parser& p, CallArgs& c) {
  p.arity(c, 4, 4);
  PrimExpr var = p.to_expr(c.args[0]);
  if (var->kind != ExprKind::Var) p.fail("T.iter_var needs a Var, not " + var->dtype.name() + " expression", c.args[0].loc);
  auto iv = std::make_shared<IterVarNode>();
  iv->var = std::static_pointer_cast<const VarNode>(var);
  const Value& dom = c.args[1];
  if (dom.kind == Value::Kind::Tuple || dom.kind == Value::Kind::List) {
    if (dom.items.size() != 2) p.fail("T.iter_var's domain is T.Range(begin, end)", dom.loc);
    auto [lo, hi] = p.match_types(dom.items[0], dom.items[1], dom.loc);
    iv->dom = Range{lo, p.range_extent(lo, hi, dom.loc)};
  } else if (dom.kind != Value::Kind::None) {
    p.fail("T.iter_var's domain is T.Range(begin, end) or None", dom.loc);
  }
  std::string type = p.str_of(c.args[2], "the iter type");
  std::optional<IterVarType> found = iter_var_type_from_name(type);
  if (!found) p.fail("unknown iter type \"" + type + "\"", c.args[2].loc);
  iv->iter_type = *found;
  iv->thread_tag = p.str_of(c.args[3], "the thread tag");
  Value out;
  out.kind = Value::Kind::IterVar;
  out.iter_var = iv;
  out.loc = c.loc;
  return out;
}

}  // namespace onegrad::tir
