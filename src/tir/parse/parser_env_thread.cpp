// Thread launches. `with T.launch_thread("threadIdx.x", n) as tx:` declares tx and launches it;
// TVM's tests also declare first, `tx = T.env_thread("threadIdx.x")`, then launch with
// `T.launch_thread(tx, n)` (a binder over the rest of the block, or a with-item). Both build
// AttrStmt(IterVar(tx, [0, n), ThreadIndex, tag), "thread_extent", n), which runs on the CPU as a
// serial loop of tx over [0, n); the declaration itself builds nothing.
#include "tir/ast/buffer.h"
#include "tir/parse/parser_impl.h"

namespace onegrad::tir {

Value env_thread_call(Parser& p, CallArgs& c) {
  p.arity(c, 1, 2);
  std::string tag = p.str_of(c.args[0], "the thread tag");
  const Value* dt = c.arg(1, "dtype");
  DataType t = dt ? p.dtype_of(*dt, "T.env_thread") : DataType::int_(32);
  if (!t.is_int() || t.lanes != 1) p.fail("T.env_thread's dtype must be a scalar integer type, not " + t.name(), c.loc);
  Var v = make_var(p.target_name(tag.c_str()), t, c.loc);
  p.env_threads_[v.get()] = tag;
  Value out = Value::of_expr(v, c.loc);
  out.declared_var = true;
  return out;
}

Value launch_thread_call(Parser& p, CallArgs& c) {
  p.arity(c, 2, 2);
  auto iv = std::make_shared<IterVarNode>();
  iv->iter_type = IterVarType::ThreadIndex;
  std::optional<Value> bound;
  if (c.args[0].kind == Value::Kind::Str) {
    iv->thread_tag = c.args[0].s;
    PrimExpr extent = p.to_expr(c.args[1]);
    iv->var = make_var(p.targets_.empty() ? iv->thread_tag : p.targets_[0], extent->dtype, c.loc);
    bound = Value::of_expr(iv->var, c.loc);
    bound->declared_var = true;
  } else {
    PrimExpr var = c.args[0].kind == Value::Kind::Expr ? c.args[0].expr : nullptr;
    auto found = var && var->kind == ExprKind::Var ? p.env_threads_.find(static_cast<const VarNode*>(var.get()))
                                                   : p.env_threads_.end();
    if (found == p.env_threads_.end())
      p.fail("T.launch_thread needs a thread tag or a variable made by T.env_thread", c.args[0].loc);
    iv->var = std::static_pointer_cast<const VarNode>(var);
    iv->thread_tag = found->second;
    bound = c.args[0];
  }
  const DataType t = iv->var->dtype;
  PrimExpr extent = c.args[1].is_py_number() ? p.int_literal(c.args[1], t, c.args[1].loc) : p.to_expr(c.args[1]);
  PrimExpr dom_extent = extent;
  if (extent->dtype != t) {
    // TVM launches an env_thread Var (int32 by default) over an extent of another width
    // (`T.launch_thread(tx, T.int64(32))`): it keeps the Var and the extent as written. The
    // attribute keeps the written extent (and prints it); the IterVar's domain is that literal in
    // the Var's type, so every thread index is a value of tx's type.
    const IntImmNode* lit = as_int_imm(extent);
    if (!lit || !extent->dtype.is_int() || extent->dtype.lanes != 1)
      p.fail("T.launch_thread: the extent is " + extent->dtype.name() + " but " + iv->var->name_hint + " is " + t.name() +
                 " (an extent of another type must be an integer literal)",
             c.args[1].loc);
    if (wrap_int(lit->value, t) != lit->value)
      p.fail("T.launch_thread: the extent " + std::to_string(lit->value) + " does not fit " + iv->var->name_hint + "'s " +
                 t.name(),
             c.args[1].loc);
    dom_extent = int_imm(lit->value, t, c.args[1].loc);
  }
  iv->dom = Range{p.literal_as(Value::of_int(0, c.loc), t), dom_extent};
  SourceLoc l = c.loc;
  return Value::of_binder(
      [iv, extent, l](Stmt body) {
        auto n = std::make_shared<AttrStmtNode>(l);
        n->node_iter_var = iv, n->attr_key = "thread_extent", n->value = extent, n->body = std::move(body);
        return Stmt(n);
      },
      bound, l);
}

}  // namespace onegrad::tir
