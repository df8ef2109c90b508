// Statements and functions as TVMScript. Binders (LetStmt, AssertStmt, Allocate, DeclBuffer) print
// as one line followed by their body at the same indentation, which is how the parser reads them
// back. Names are unique among those in scope; a name is free again when its binder's scope ends.
#include <algorithm>
#include <unordered_set>

#include "tir/ast/builtins.h"
#include "tir/ast/iter_var_type.h"
#include "tir/print/printer.h"
#include "tir/print/printer_impl.h"
#include "tir/ast/root_block.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {

const std::unordered_set<std::string> kReservedNames = {
    "T", "I", "Module", "range", "True", "False", "None", "and", "as", "assert", "async", "await",
    "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
    "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield"};

std::string identifier(const std::string& hint) {
  std::string s;
  for (char c : hint) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  return s;
}



const char* iter_kind_name(IterVarType t) {
  switch (t) {
    case IterVarType::CommReduce: return "reduce";
    case IterVarType::Ordered: return "scan";
    case IterVarType::Opaque: return "opaque";
    default: return "spatial";
  }
}

}  // namespace

std::string ScriptPrinter::define(const void* obj, const std::string& hint) {
  std::string base = identifier(hint), name = base;
  for (int i = 1; in_use_.count(name) || kReservedNames.count(name); ++i) name = base + "_" + std::to_string(i);
  names_[obj] = name;
  in_use_.insert(name);
  return name;
}

void ScriptPrinter::undefine(const void* obj) {
  auto it = names_.find(obj);
  if (it == names_.end()) return;
  in_use_.erase(it->second);
  names_.erase(it);
}

std::string ScriptPrinter::var_name(const VarNode* v) {
  if (auto it = names_.find(v); it != names_.end()) return it->second;
  if (auto it = data_owner_.find(v); it != data_owner_.end()) return buffer_name(it->second) + ".data";
  return v->name_hint;
}

std::string ScriptPrinter::buffer_name(const BufferNode* b) {
  auto it = names_.find(b);
  return it != names_.end() ? it->second : b->name;
}

std::string ScriptPrinter::type_annotation(const Type& t) {
  if (t.kind == Type::Kind::Pointer) {
    std::string s = "T.handle(" + quote(t.element->dtype.name());
    if (t.storage_scope != "global") s += ", " + quote(t.storage_scope);
    return s + ")";
  }
  return "T." + t.value_dtype().name();
}

std::string ScriptPrinter::attr_value(const AttrValue& v) {
  if (v.buffer) return buffer_name(v.buffer.get());
  if (v.is_dict) {
    std::string s = "{";
    for (size_t i = 0; i < v.list.size(); ++i) s += (i ? ", " : "") + quote(v.keys[i]) + ": " + attr_value(v.list[i]);
    return s + "}";
  }
  if (!v.is_list) return str(v.expr);
  std::string s = "[";
  for (size_t i = 0; i < v.list.size(); ++i) s += (i ? ", " : "") + attr_value(v.list[i]);
  return s + "]";
}

std::string ScriptPrinter::annotations(const Annotations& a) {
  std::string s = "{";
  for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + quote(a[i].first) + ": " + attr_value(a[i].second);
  return s + "}";
}

std::string ScriptPrinter::shape(const std::vector<PrimExpr>& dims) {
  std::string s = "(" + args(dims);
  return s + (dims.size() == 1 ? ",)" : ")");
}

// A literal elem_offset is read in the shape's index type, so one of another width (T.int32(0) on an
// int64 shape, as TVM's fused functions carry) keeps its type written out.
std::string ScriptPrinter::elem_offset(const BufferNode& b) {
  if (!b.elem_offset) return "None";
  const PrimExpr& e = b.elem_offset;
  if (auto* i = e->as<IntImmNode>(); i && e->dtype != shape_index_dtype(b.shape))
    return "T." + e->dtype.name() + "(" + std::to_string(i->value) + ")";
  return str(e);
}

std::string ScriptPrinter::buffer_call(const char* fn, const BufferNode& b, bool with_data) {
  std::string s = std::string(fn) + shape(b.shape) + ", " + quote(b.dtype.name());
  if (with_data) s += ", data=" + var_name(b.data.get());
  if (!b.strides.empty()) s += ", strides=" + shape(b.strides);
  if (!has_default_elem_offset(b)) s += ", elem_offset=" + elem_offset(b);
  if (b.scope() != "global") s += ", scope=" + quote(b.scope());
  if (b.data_alignment != kDefaultAlignment) s += ", align=" + std::to_string(b.data_alignment);
  if (b.offset_factor != 1) s += ", offset_factor=" + std::to_string(b.offset_factor);
  if (b.buffer_type == BufferType::AutoBroadcast) s += ", buffer_type=\"auto\"";
  if (!b.axis_separators.empty()) s += ", axis_separators=[" + args(b.axis_separators) + "]";
  return s + ")";
}

void ScriptPrinter::line(int indent, const std::string& text) { out_ << std::string(4 * indent, ' ') << text << '\n'; }

void ScriptPrinter::define_buffer(const Buffer& b) {
  define(b.get(), b->name);
  data_owner_.emplace(b->data.get(), b.get());
}

void ScriptPrinter::declare_views_over(const VarNode* data, int indent) {
  auto it = views_by_data_.find(data);
  if (it == views_by_data_.end()) return;
  for (const Buffer& b : it->second) {
    std::string name = define(b.get(), b->name);
    line(indent, name + " = " + buffer_call("T.Buffer(", *b, true));
  }
}

void ScriptPrinter::body(const Stmt& s, int indent) { stmt(s, indent); }

void ScriptPrinter::allocate(const AllocateNode* n, int indent, bool as_with) {
  // T.decl_buffer without data= is Allocate + DeclBuffer of the same pointer: fold it back.
  if (auto* decl = n->body->as<DeclBufferNode>()) {
    const BufferNode& b = *decl->buffer;
    bool folds = b.data == n->buffer_var && b.dtype == n->dtype && is_true_literal(n->condition) &&
                 n->annotations.empty() && b.shape.size() == n->extents.size();
    for (size_t i = 0; folds && i < b.shape.size(); ++i) folds = str(b.shape[i]) == str(n->extents[i]);
    if (folds) {
      std::string call = buffer_call("T.decl_buffer(", b, false);
      define_buffer(decl->buffer);
      int in = as_with ? indent + 1 : indent;
      line(indent, as_with ? "with " + call + " as " + buffer_name(&b) + ":" : buffer_name(&b) + " = " + call);
      declare_views_over(n->buffer_var.get(), in);
      body(decl->body, in);
      undefine(&b);
      return;
    }
  }
  std::string s = "T.allocate([" + args(n->extents) + "], " + quote(n->dtype.name()) + ", " +
                  quote(n->buffer_var->type_annotation.kind == Type::Kind::Pointer
                            ? n->buffer_var->type_annotation.storage_scope
                            : "global");
  if (!is_true_literal(n->condition)) s += ", " + str(n->condition);
  if (!n->annotations.empty()) s += ", annotations=" + annotations(n->annotations);
  std::string name = define(n->buffer_var.get(), n->buffer_var->name_hint);
  int in = as_with ? indent + 1 : indent;
  line(indent, as_with ? "with " + s + ") as " + name + ":" : name + " = " + s + ")");
  declare_views_over(n->buffer_var.get(), in);
  body(n->body, in);
  undefine(n->buffer_var.get());
}

bool ScriptPrinter::with_form(const Stmt& s, int indent) {
  // A Var declared up front, or bound again while already bound (ill-formed, but parseable), is
  // bound with T.let, which names an existing Var.
  if (auto* n = s->as<LetStmtNode>(); n && (declared_lets_.count(n->var.get()) || names_.count(n->var.get()))) {
    line(indent, "with T.let(" + var_name(n->var.get()) + ", " + str(n->value) + "):");
    declare_views_over(n->var.get(), indent + 1);
    body(n->body, indent + 1);
    return true;
  }
  if (auto* n = s->as<LetStmtNode>()) {
    std::string value = str(n->value);
    std::string type = n->var->type_annotation == Type::prim(n->value->dtype) ? "" : ", " + type_annotation(n->var->type_annotation);
    std::string name = define(n->var.get(), n->var->name_hint);
    line(indent, "with T.LetStmt(" + value + type + ") as " + name + ":");
    declare_views_over(n->var.get(), indent + 1);
    body(n->body, indent + 1);
    undefine(n->var.get());
    return true;
  }
  if (auto* n = s->as<AssertStmtNode>()) {
    line(indent, "with T.Assert(" + str(n->condition) + ", " + str(n->message) + "):");
    body(n->body, indent + 1);
    return true;
  }
  if (auto* n = s->as<DeclBufferNode>()) {
    std::string call = buffer_call("T.decl_buffer(", *n->buffer, true);
    define_buffer(n->buffer);
    line(indent, "with " + call + " as " + buffer_name(n->buffer.get()) + ":");
    body(n->body, indent + 1);
    undefine(n->buffer.get());
    return true;
  }
  if (auto* n = s->as<AllocateNode>()) {
    allocate(n, indent, true);
    return true;
  }
  return false;
}

namespace {

// range(extent) gives min = 0 of the extent's type (int32 when the extent is not a number).
bool starts_at_zero(const ForNode* n) {
  DataType t = n->extent->dtype;
  return is_zero_literal(n->min) && (n->min->dtype == t || (t.code == DataType::Code::Handle && n->min->dtype == DataType::int_(32)));
}

bool plain_serial_from_zero(const ForNode* n) {
  return n->kind == ForKind::Serial && n->annotations.empty() && starts_at_zero(n);
}

bool uses_any(const PrimExpr& e, const std::vector<const ForNode*>& loops) {
  struct Uses : IRVisitor {
    const std::vector<const ForNode*>* loops;
    bool found = false;
    void visit_expr(const PrimExpr& x) override {
      if (x && x->kind == ExprKind::Var)
        for (const ForNode* l : *loops) found |= l->loop_var.get() == x.get();
      IRVisitor::visit_expr(x);
    }
  } u;
  u.loops = &loops;
  u.visit_expr(e);
  return u.found;
}

}  // namespace

void ScriptPrinter::for_loop(const ForNode* n, int indent) {
  // Directly nested plain loops from 0 print as one T.grid when no extent uses an outer grid var.
  std::vector<const ForNode*> grid{n};
  while (plain_serial_from_zero(grid.back())) {
    auto* inner = grid.back()->body->as<ForNode>();
    if (!inner || !plain_serial_from_zero(inner) || uses_any(inner->extent, grid)) break;
    grid.push_back(inner);
  }
  if (grid.size() >= 2 && plain_serial_from_zero(grid.back())) {
    std::string names, extents;
    for (const ForNode* l : grid) {
      names += (names.empty() ? "" : ", ") + define(l->loop_var.get(), l->loop_var->name_hint);
      extents += (extents.empty() ? "" : ", ") + str(l->extent);
      loops_.push_back(l);
    }
    line(indent, "for " + names + " in T.grid(" + extents + "):");
    body(grid.back()->body, indent + 1);
    for (const ForNode* l : grid) {
      undefine(l->loop_var.get());
      loops_.pop_back();
    }
    return;
  }
  static const char* const kFns[] = {"T.serial", "T.parallel", "T.vectorized", "T.unroll", "T.thread_binding"};
  std::string fn = kFns[static_cast<int>(n->kind)];
  if (n->kind == ForKind::Serial && n->annotations.empty()) fn = "range";
  bool from_zero = starts_at_zero(n);
  std::string a = from_zero ? str(n->extent) : str(n->min) + ", " + range_end(n->min, n->extent);
  if (n->kind == ForKind::ThreadBinding)
    a += ", thread=" + quote(n->thread_binding ? n->thread_binding->thread_tag : "");
  if (!n->annotations.empty()) a += ", annotations=" + annotations(n->annotations);
  std::string name = define(n->loop_var.get(), n->loop_var->name_hint);
  line(indent, "for " + name + " in " + fn + "(" + a + "):");
  loops_.push_back(n);
  body(n->body, indent + 1);
  loops_.pop_back();
  undefine(n->loop_var.get());
}

void ScriptPrinter::block_realize(const BlockRealizeNode* n, int indent, bool no_realize) {
  const BlockNode& b = *n->block;
  line(indent, "with T.block(" + quote(b.name_hint) + (no_realize ? ", no_realize=True" : "") + "):");
  int in = indent + 1;
  std::vector<const void*> scoped;
  // T.axis.remap when every iter var is spatial or reduce, bound to an enclosing loop var over the
  // loop's own domain (the parser gives such a var the loop's min and extent).
  bool remap = b.iter_vars.size() >= 2 && n->iter_values.size() == b.iter_vars.size();
  std::string kinds, vars;
  for (size_t i = 0; remap && i < b.iter_vars.size(); ++i) {
    const IterVarNode& iv = *b.iter_vars[i];
    const ForNode* loop = nullptr;
    for (const ForNode* l : loops_)
      if (l->loop_var == n->iter_values[i]) loop = l;
    remap = loop && iv.dom && (iv.iter_type == IterVarType::DataPar || iv.iter_type == IterVarType::CommReduce) &&
            iv.var->dtype == loop->loop_var->dtype && str(iv.dom->min) == str(loop->min) &&
            str(iv.dom->extent) == str(loop->extent);
    if (remap) {
      kinds += iv.iter_type == IterVarType::DataPar ? "S" : "R";
      vars += (vars.empty() ? "" : ", ") + str(n->iter_values[i]);
    }
  }
  if (remap) {
    std::string names;
    for (const IterVar& iv : b.iter_vars) {
      names += (names.empty() ? "" : ", ") + define(iv->var.get(), iv->var->name_hint);
      scoped.push_back(iv->var.get());
    }
    line(in, names + " = T.axis.remap(" + quote(kinds) + ", [" + vars + "])");
  }
  for (size_t i = 0; !remap && i < b.iter_vars.size(); ++i) {
    const IterVarNode& iv = *b.iter_vars[i];
    std::string dom = "None";
    if (iv.dom) {
      bool from_zero = is_zero_literal(iv.dom->min) && iv.dom->min->dtype == iv.dom->extent->dtype &&
                       (iv.dom->extent->dtype == iv.var->dtype || iv.dom->extent->kind != ExprKind::IntImm);
      dom = from_zero ? str(iv.dom->extent) : "(" + str(iv.dom->min) + ", " + range_end(iv.dom->min, iv.dom->extent) + ")";
    }
    std::string value = i < n->iter_values.size() ? str(n->iter_values[i]) : "None";
    bool typed = i < n->iter_values.size() && n->iter_values[i]->dtype != iv.var->dtype;
    std::string name = define(iv.var.get(), iv.var->name_hint);
    scoped.push_back(iv.var.get());
    line(in, name + " = T.axis." + iter_kind_name(iv.iter_type) + "(" + dom + ", " + value +
                 (typed ? ", dtype=" + quote(iv.var->dtype.name()) : "") + ")");
  }
  if (n->predicate && !is_true_literal(n->predicate)) line(in, "T.where(" + str(n->predicate) + ")");
  auto regions = [&](const std::vector<BufferRegion>& rs) {
    std::string s;
    for (size_t i = 0; i < rs.size(); ++i) s += (i ? ", " : "") + region(rs[i]);
    return s;
  };
  if (!b.reads.empty()) line(in, "T.reads(" + regions(b.reads) + ")");
  if (!b.writes.empty()) line(in, "T.writes(" + regions(b.writes) + ")");
  if (!b.annotations.empty()) line(in, "T.block_attr(" + annotations(b.annotations) + ")");
  for (const Buffer& buf : b.alloc_buffers) {
    std::string call = buffer_call("T.alloc_buffer(", *buf, false);
    define_buffer(buf);
    scoped.push_back(buf.get());
    line(in, buffer_name(buf.get()) + " = " + call);
  }
  for (const MatchBufferRegion& m : b.match_buffers) {
    std::string call = buffer_call("T.match_buffer(", *m.buffer, false);
    call.insert(std::string("T.match_buffer(").size(), region(m.source) + ", ");
    define_buffer(m.buffer);
    scoped.push_back(m.buffer.get());
    line(in, buffer_name(m.buffer.get()) + " = " + call);
  }
  if (b.init) {
    line(in, "with T.init():");
    body(b.init, in + 1);
  }
  body(b.body, in);
  for (const void* obj : scoped) undefine(obj);
}

void ScriptPrinter::stmt(const Stmt& s, int indent) {
  switch (s->kind) {
    case StmtKind::SeqStmt: {
      auto* n = s->as<SeqStmtNode>();
      if (n->seq.empty()) line(indent, "pass");
      // A binder before the end of a sequence scopes only its own body: the flat form would
      // swallow the statements after it, so it prints as a with-statement.
      for (size_t i = 0; i < n->seq.size(); ++i) {
        if (i + 1 < n->seq.size() && with_form(n->seq[i], indent)) continue;
        stmt(n->seq[i], indent);
      }
      return;
    }
    case StmtKind::LetStmt: {
      // A chain of lets prints one line each, walked in a loop rather than by recursion: programs
      // bind thousands of values in a row, and a frame per let would exhaust the stack.
      std::vector<const VarNode*> defined;
      Stmt cur = s;
      while (cur->kind == StmtKind::LetStmt) {
        auto* n = cur->as<LetStmtNode>();
        if (declared_lets_.count(n->var.get()) || names_.count(n->var.get())) break;
        std::string value = str(n->value);
        std::string name = define(n->var.get(), n->var->name_hint);
        line(indent, name + ": " + type_annotation(n->var->type_annotation) + " = " + value);
        declare_views_over(n->var.get(), indent);
        defined.push_back(n->var.get());
        cur = n->body;
      }
      if (defined.empty()) return void(with_form(s, indent));
      body(cur, indent);
      for (auto it = defined.rbegin(); it != defined.rend(); ++it) undefine(*it);
      return;
    }
    case StmtKind::AttrStmt: {
      auto* n = s->as<AttrStmtNode>();
      const VarNode* iter = n->node_iter_var ? n->node_iter_var->var.get() : nullptr;
      // an IterVar Var declared up front (used outside the attribute) or bound again is named, not declared
      const bool declared = iter && (declared_lets_.count(iter) || names_.count(iter));
      // T.launch_thread(tag, n) builds a ThreadIndex IterVar over [0, n): only such a one prints as it
      const IterVarNode* iv = n->node_iter_var.get();
      const bool launch = iv && iv->iter_type == IterVarType::ThreadIndex && iv->dom && is_zero_literal(iv->dom->min) &&
                          iv->dom->min->dtype == n->value->dtype && str(iv->dom->extent) == str(n->value);
      if (launch && n->attr_key == "thread_extent" && !declared) {
        std::string name = define(n->node_iter_var->var.get(), n->node_iter_var->var->name_hint);
        line(indent, "with T.launch_thread(" + quote(n->node_iter_var->thread_tag) + ", " + str(n->value) +
                         ") as " + name + ":");
        body(n->body, indent + 1);
        undefine(n->node_iter_var->var.get());
        return;
      }
      // `tx = T.env_thread(tag)` launched over a literal of another width (`T.int64(32)` for an int32 tx)
      const IntImmNode* value = as_int_imm(n->value);
      const IntImmNode* dom_extent = iv && iv->dom ? as_int_imm(iv->dom->extent) : nullptr;
      if (iv && n->attr_key == "thread_extent" && !declared && iv->iter_type == IterVarType::ThreadIndex && value &&
          dom_extent && value->value == dom_extent->value && n->value->dtype != iv->var->dtype &&
          iv->dom->extent->dtype == iv->var->dtype && is_zero_literal(iv->dom->min) &&
          iv->dom->min->dtype == iv->var->dtype) {
        std::string name = define(iter, iv->var->name_hint);
        std::string dtype = iv->var->dtype == DataType::int_(32) ? "" : ", dtype=" + quote(iv->var->dtype.name());
        line(indent, name + " = T.env_thread(" + quote(iv->thread_tag) + dtype + ")");
        line(indent, "with T.launch_thread(" + name + ", " + str(n->value) + "):");
        body(n->body, indent + 1);
        undefine(iter);
        return;
      }
      if (n->node_iter_var) {  // another attribute of an IterVar: declared, then named by T.iter_var
        const IterVarNode& iv = *n->node_iter_var;
        std::string name = declared ? var_name(iter) : define(iter, iv.var->name_hint);
        if (!declared) line(indent, name + " = T." + iv.var->dtype.name() + "()");
        std::string dom = iv.dom ? "T.Range(" + str(iv.dom->min) + ", " + range_end(iv.dom->min, iv.dom->extent) + ")" : "None";
        line(indent, "with T.attr(T.iter_var(" + name + ", " + dom + ", " + quote(std::string(iter_var_type_name(iv.iter_type))) +
                         ", " + quote(iv.thread_tag) + "), " + quote(n->attr_key) + ", " + str(n->value) + "):");
        body(n->body, indent + 1);
        if (!declared) undefine(iter);
        return;
      }
      std::string node = n->node_buffer ? buffer_name(n->node_buffer.get())
                         : n->node_expr ? str(n->node_expr)
                                        : "None";
      line(indent, "with T.attr(" + node + ", " + quote(n->attr_key) + ", " + str(n->value) + "):");
      body(n->body, indent + 1);
      return;
    }
    case StmtKind::AssertStmt: {
      auto* n = s->as<AssertStmtNode>();
      line(indent, "assert " + str(n->condition) + ", " + str(n->message));
      body(n->body, indent);
      return;
    }
    case StmtKind::BufferStore: {
      auto* n = s->as<BufferStoreNode>();
      int index_lanes = n->indices.empty() ? 1 : n->indices.back()->dtype.lanes;
      DataType expected = n->buffer->dtype.with_lanes(n->buffer->dtype.lanes * index_lanes);
      if (n->predicate) {  // as TVM prints it
        line(indent, buffer_name(n->buffer.get()) + ".vstore([" + args(n->indices) + "], " + str(n->value) +
                         ", predicate=" + str(n->predicate) + ")");
      } else if (n->value->dtype == expected) {
        line(indent, load(n->buffer, n->indices) + " = " + str(n->value));
      } else {
        line(indent, "T.buffer_store(" + buffer_name(n->buffer.get()) + ", " + str(n->value) + ", [" +
                         args(n->indices) + "])");
      }
      return;
    }
    case StmtKind::BufferRealize: {
      auto* n = s->as<BufferRealizeNode>();
      std::string cond = is_true_literal(n->condition) ? "" : ", " + str(n->condition);
      line(indent, "with T.realize(" + region({n->buffer, n->bounds}) + ", " + quote(n->buffer->scope()) + cond + "):");
      body(n->body, indent + 1);
      return;
    }
    case StmtKind::Allocate: return allocate(s->as<AllocateNode>(), indent, false);
    case StmtKind::DeclBuffer: {
      auto* n = s->as<DeclBufferNode>();
      std::string call = buffer_call("T.decl_buffer(", *n->buffer, true);
      define_buffer(n->buffer);
      line(indent, buffer_name(n->buffer.get()) + " = " + call);
      body(n->body, indent);
      undefine(n->buffer.get());
      return;
    }
    case StmtKind::IfThenElse: {
      auto* n = s->as<IfThenElseNode>();
      line(indent, "if " + str(n->condition) + ":");
      body(n->then_case, indent + 1);
      Stmt rest = n->else_case;
      while (rest) {
        auto* elif = rest->as<IfThenElseNode>();
        if (!elif) {
          line(indent, "else:");
          body(rest, indent + 1);
          break;
        }
        line(indent, "elif " + str(elif->condition) + ":");
        body(elif->then_case, indent + 1);
        rest = elif->else_case;
      }
      return;
    }
    case StmtKind::Evaluate: {
      auto* n = s->as<EvaluateNode>();
      if (auto* c = n->value->as<CallNode>(); c && !c->calls_global) {
        if (c->op == "tir.ret" && c->args.size() == 1) return line(indent, "return " + str(c->args[0]));
        if (c->op == "tir.break" && c->args.empty()) return line(indent, "break");
        if (c->op == "tir.continue" && c->args.empty()) return line(indent, "continue");
      }
      return line(indent, "T.evaluate(" + str(n->value) + ")");
    }
    case StmtKind::For: return for_loop(s->as<ForNode>(), indent);
    case StmtKind::While: {
      auto* n = s->as<WhileNode>();
      line(indent, "while " + str(n->condition) + ":");
      body(n->body, indent + 1);
      return;
    }
    case StmtKind::Block: {
      // A Block outside a BlockRealize: T.block(no_realize=True) when it has no iter vars (the
      // parser allows no bindings there), else realized with its own vars as bindings.
      auto block = std::static_pointer_cast<const BlockNode>(s);
      BlockRealizeNode realize(s->loc);
      for (auto& iv : block->iter_vars) realize.iter_values.push_back(iv->var);
      realize.predicate = bool_imm(true);
      realize.block = block;
      return block_realize(&realize, indent, block->iter_vars.empty());
    }
    case StmtKind::BlockRealize: return block_realize(s->as<BlockRealizeNode>(), indent);
  }
}

}  // namespace onegrad::tir
