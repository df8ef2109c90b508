// Functions and modules as TVMScript: the decorator, the signature (buffer parameters in T.Buffer
// form where TVMScript's defaults allow), the declarations a body needs before its first statement
// (free Vars, matched buffers, views, the root block's allocations), then the body.
#include <algorithm>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "tir/print/printer.h"
#include "tir/print/printer_impl.h"
#include "tir/ast/root_block.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {

// What a function mentions: buffers (in order), buffers some construct declares, bound Vars, and
// Vars used without a binding site (shape vars, Let vars) that the function must declare.
class FunctionInventory : public IRVisitor {
 public:
  std::vector<Buffer> buffers;
  std::unordered_set<const BufferNode*> declared;
  std::unordered_set<const BufferNode*> decl_buffers;  // declared by a DeclBuffer statement
  std::unordered_set<const VarNode*> bound;
  std::vector<Var> used;
  std::unordered_set<const VarNode*> used_set;

  // LetStmt Vars used outside their LetStmt (an ill-formed program the parser still reads, because a
  // declared Var is in scope for the whole function): they are declared up front and bound with
  // `with T.let(x, value):`. The same for the IterVar of an AttrStmt (`T.attr(T.iter_var(x, ...))`).
  std::unordered_set<const VarNode*> escaping_lets;
  std::unordered_map<const VarNode*, int> use_count;

  void visit_expr(const PrimExpr& e) override {
    if (e && e->kind == ExprKind::Var) {
      use(std::static_pointer_cast<const VarNode>(e));
      ++use_count[static_cast<const VarNode*>(e.get())];
    }
    if (auto* let = e ? e->as<LetNode>() : nullptr) {
      // A Let binds a Var the function declares beforehand (T.Let(body, where={x: value})); it is
      // not a binding site of its own, so the Var stays undeclared unless something else binds it.
      use(let->var);
      visit_expr(let->value);
      visit_expr(let->body);
      return;
    }
    IRVisitor::visit_expr(e);
  }
  void visit_buffer(const Buffer& b) override {
    if (!b) return;
    if (std::find(buffers.begin(), buffers.end(), b) == buffers.end()) buffers.push_back(b);
    IRVisitor::visit_buffer(b);
  }
  void visit_var_def(const Var& v) override { bound.insert(v.get()); }
  void visit_stmt(const Stmt& s) override {
    if (auto* n = s ? s->as<DeclBufferNode>() : nullptr) {
      decl_buffers.insert(n->buffer.get());
      use(n->buffer->data);  // declared up front when nothing binds or owns it
    }
    if (auto* n = s ? s->as<BlockNode>() : nullptr) {
      for (auto& b : n->alloc_buffers) declared.insert(b.get());
      for (auto& m : n->match_buffers) declared.insert(m.buffer.get());
    }
    if (auto* n = s ? s->as<DeclBufferNode>() : nullptr) declared.insert(n->buffer.get());
    if (auto* n = s ? s->as<LetStmtNode>() : nullptr) lets.emplace_back(n->var.get(), n->body);
    if (auto* n = s ? s->as<AttrStmtNode>() : nullptr; n && n->node_iter_var) lets.emplace_back(n->node_iter_var->var.get(), n->body);
    IRVisitor::visit_stmt(s);
  }

  void find_escaping_lets() {
    for (const auto& [var, body] : lets) {
      struct Count : IRVisitor {
        const VarNode* var;
        int n = 0;
        void visit_expr(const PrimExpr& e) override {
          if (e && e.get() == var) ++n;
          IRVisitor::visit_expr(e);
        }
      } inside;
      inside.var = var;
      inside.visit_stmt(body);
      if (inside.n < use_count[var]) escaping_lets.insert(var);
    }
  }

  std::vector<std::pair<const VarNode*, Stmt>> lets;  // binder Var, the statement it scopes

 private:
  void use(const Var& v) {
    if (used_set.insert(v.get()).second) used.push_back(v);
  }
};

}  // namespace

void ScriptPrinter::func(const std::string& name, const PrimFunc& f, int indent) {
  FunctionInventory inv;
  inv.visit_func(*f);
  inv.find_escaping_lets();
  declared_lets_ = inv.escaping_lets;
  std::unordered_set<const BufferNode*> declared = inv.declared;
  for (auto& [p, b] : f->buffer_map) declared.insert(b.get());
  // Declared buffers own their data Vars (printed `A.data`); the other buffers are views: over a
  // bound pointer (declared after its binder), over a declared buffer's data (`data=A.data`, at the
  // top), or over a pointer of their own (no data=, at the top).
  // A DeclBuffer over a pointer nothing binds (`p = T.handle("float32")`, then
  // `T.decl_buffer(..., data=p)`) does not own it: the pointer is declared up front and named, since
  // `data=buf.data` inside buf's own declaration would not parse.
  // The first buffer parameter over a data Var owns it; a later one (`T.match_buffer(b, ..., data=A.data)`)
  // prints data=.
  for (const Var& p : f->params)
    if (Buffer b = f->buffer_of(p)) data_owner_.emplace(b->data.get(), b.get());
  for (const Buffer& b : inv.buffers)
    if (declared.count(b.get()) && !(inv.decl_buffers.count(b.get()) && !inv.bound.count(b->data.get())))
      data_owner_.emplace(b->data.get(), b.get());
  std::vector<std::pair<Buffer, bool>> top_views;  // view, prints data=
  for (const Buffer& b : inv.buffers) {
    if (declared.count(b.get())) continue;
    if (inv.bound.count(b->data.get())) {
      views_by_data_[b->data.get()].push_back(b);
    } else if (data_owner_.count(b->data.get()) && data_owner_[b->data.get()] != b.get()) {
      top_views.emplace_back(b, true);
    } else {
      data_owner_.emplace(b->data.get(), b.get());
      top_views.emplace_back(b, false);
    }
  }

  std::string deco = "@T.prim_func";
  if (f->is_private || !f->check_well_formed) {
    std::string kw;
    if (f->is_private) kw += "private=True";
    if (!f->check_well_formed) kw += std::string(kw.empty() ? "" : ", ") + "check_well_formed=False";
    deco += "(" + kw + ")";
  }
  line(indent, deco);

  // A buffer parameter prints as `A: T.Buffer(...)` when it has TVMScript's defaults and its shape
  // uses only earlier parameters; otherwise as a handle and T.match_buffer in the body.
  std::unordered_set<const VarNode*> earlier;
  std::vector<std::tuple<Var, Buffer, bool>> matched;  // with data=
  std::string params;
  for (const Var& p : f->params) {
    Buffer b = f->buffer_of(p);
    const bool shares_data = b && data_owner_.at(b->data.get()) != b.get();
    bool simple = b && !shares_data && b->strides.empty() && has_default_elem_offset(*b) && b->scope() == "global" &&
                  b->data_alignment == kDefaultAlignment && b->offset_factor == 1 &&
                  b->buffer_type == BufferType::Default && b->axis_separators.empty();
    if (simple) {
      struct UsesOnly : IRVisitor {
        const std::unordered_set<const VarNode*>* ok;
        bool fine = true;
        void visit_expr(const PrimExpr& e) override {
          if (auto* v = e ? e->as<VarNode>() : nullptr) fine &= ok->count(v) > 0;
          IRVisitor::visit_expr(e);
        }
      } check;
      check.ok = &earlier;
      check.visit_buffer(b);
      simple = check.fine;
    }
    params += params.empty() ? "" : ", ";
    if (simple) {
      define(p.get(), p->name_hint);  // reserved, never printed
      define_buffer(b);
      params += buffer_name(b.get()) + ": " + buffer_call("T.Buffer(", *b, false);
    } else {
      params += define(p.get(), p->name_hint) + ": " + type_annotation(p->type_annotation);
      if (b) matched.emplace_back(p, b, shares_data);
    }
    earlier.insert(p.get());
  }
  std::string ret;
  if (f->ret_type) ret = f->ret_type->kind == Type::Kind::Tuple ? " -> None" : " -> " + type_annotation(*f->ret_type);
  line(indent, "def " + name + "(" + params + ")" + ret + ":");

  int in = indent + 1;
  for (const Var& v : inv.used) {
    bool needs_decl = (!inv.bound.count(v.get()) || inv.escaping_lets.count(v.get())) && !data_owner_.count(v.get()) &&
                      !names_.count(v.get());
    if (!needs_decl) continue;
    std::string ann = type_annotation(v->type_annotation);
    line(in, define(v.get(), v->name_hint) + " = " + ann + (ann.back() == ')' ? "" : "()"));
  }
  // After the declarations: attribute values may name declared Vars.
  if (!f->attrs.empty()) line(in, "T.func_attr(" + annotations(f->attrs) + ")");
  for (auto& [p, b, with_data] : matched) {
    std::string call = buffer_call("T.match_buffer(", *b, with_data);
    call.insert(std::string("T.match_buffer(").size(), var_name(p.get()) + ", ");
    define_buffer(b);
    line(in, buffer_name(b.get()) + " = " + call);
  }
  for (const Var& p : f->params) declare_views_over(p.get(), in);  // views over pointer parameters
  for (const auto& [b, with_data] : top_views) {
    std::string call = buffer_call("T.Buffer(", *b, with_data);
    line(in, define(b.get(), b->name) + " = " + call);
  }

  Stmt body_stmt = f->body;
  if (auto* root = body_stmt->as<BlockRealizeNode>()) {
    const BlockNode& b = *root->block;
    bool plain_root = b.name_hint == "root" && b.iter_vars.empty() && root->iter_values.empty() &&
                      is_true_literal(root->predicate) && b.reads.empty() && b.writes.empty() && !b.init &&
                      b.match_buffers.empty() && b.annotations.empty();
    if (plain_root && script_wraps_in_root(b.body, !b.alloc_buffers.empty())) {
      line(in, "# with T.block(\"root\"):");
      for (const Buffer& buf : b.alloc_buffers) {
        std::string call = buffer_call("T.alloc_buffer(", *buf, false);
        define_buffer(buf);
        line(in, buffer_name(buf.get()) + " = " + call);
      }
      body_stmt = b.body;
    }
  }
  body(body_stmt, in);
}

std::string print_prim_func(const std::string& name, const PrimFunc& f) {
  ScriptPrinter p;
  p.func(name, f, 0);
  return "# from tvm.script import tir as T\n\n" + p.result();
}

std::string print_script(const IRModule& mod) {
  struct CallsGlobal : IRVisitor {
    bool found = false;
    void visit_expr(const PrimExpr& e) override {
      if (auto* c = e ? e->as<CallNode>() : nullptr) found |= c->calls_global;
      IRVisitor::visit_expr(e);
    }
  } calls;
  for (auto& [name, f] : mod.functions) calls.visit_func(*f);
  if (mod.functions.size() == 1 && !calls.found) return print_prim_func(mod.functions[0].first, mod.functions[0].second);
  std::string s = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n\n@I.ir_module\nclass Module:\n";
  for (size_t i = 0; i < mod.functions.size(); ++i) {
    ScriptPrinter p;
    p.func(mod.functions[i].first, mod.functions[i].second, 1);
    s += (i ? "\n" : "") + p.result();
  }
  return s;
}

}  // namespace onegrad::tir
