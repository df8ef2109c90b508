#include "tir/ast/structural_equal.h"

#include <cstring>
#include <unordered_map>

#include "tir/print/printer.h"

namespace onegrad::tir {

namespace {

class Comparer {
 public:
  std::string why;

  bool fail(const std::string& what) {
    if (why.empty()) why = what;
    return false;
  }

  bool var(const Var& a, const Var& b) {
    if (!a || !b) return !a && !b ? true : fail("a Var is missing");
    if (auto it = vars_.find(a.get()); it != vars_.end())
      return it->second == b.get() ? true : fail("Var " + a->name_hint + " pairs with two different Vars");
    if (back_vars_.count(b.get())) return fail("Var " + b->name_hint + " pairs with two different Vars");
    if (a->type_annotation != b->type_annotation)
      return fail("Var " + a->name_hint + " has type " + a->type_annotation.to_string() + " vs " + b->type_annotation.to_string());
    vars_[a.get()] = b.get();
    back_vars_[b.get()] = a.get();
    return true;
  }

  bool buffer(const Buffer& a, const Buffer& b) {
    if (!a || !b) return !a && !b ? true : fail("a Buffer is missing");
    if (auto it = buffers_.find(a.get()); it != buffers_.end())
      return it->second == b.get() ? true : fail("Buffer " + a->name + " pairs with two different buffers");
    buffers_[a.get()] = b.get();
    if (a->dtype != b->dtype) return fail("Buffer " + a->name + " dtype " + a->dtype.name() + " vs " + b->dtype.name());
    if (a->data_alignment != b->data_alignment || a->offset_factor != b->offset_factor || a->buffer_type != b->buffer_type)
      return fail("Buffer " + a->name + " alignment, offset factor or type differ");
    return var(a->data, b->data) && exprs(a->shape, b->shape, "shape") && exprs(a->strides, b->strides, "strides") &&
           expr(a->elem_offset, b->elem_offset) && exprs(a->axis_separators, b->axis_separators, "axis_separators");
  }

  bool exprs(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b, const char* what) {
    if (a.size() != b.size()) return fail(std::string(what) + " lengths differ");
    for (size_t i = 0; i < a.size(); ++i)
      if (!expr(a[i], b[i])) return false;
    return true;
  }

  bool expr(const PrimExpr& a, const PrimExpr& b) {
    if (!a || !b) return !a && !b ? true : fail("an expression is missing");
    std::string where = print_expr(a) + " vs " + print_expr(b);
    if (a->kind != b->kind) return fail("node kinds differ: " + where);
    if (a->dtype != b->dtype) return fail("dtypes " + a->dtype.name() + " and " + b->dtype.name() + " differ: " + where);
    switch (a->kind) {
      case ExprKind::Var: return var(std::static_pointer_cast<const VarNode>(a), std::static_pointer_cast<const VarNode>(b));
      case ExprKind::IntImm: return a->as<IntImmNode>()->value == b->as<IntImmNode>()->value ? true : fail("values differ: " + where);
      case ExprKind::FloatImm: {
        double x = a->as<FloatImmNode>()->value, y = b->as<FloatImmNode>()->value;
        return std::memcmp(&x, &y, sizeof x) == 0 || (x != x && y != y) ? true : fail("values differ: " + where);
      }
      case ExprKind::StringImm:
        return a->as<StringImmNode>()->value == b->as<StringImmNode>()->value ? true : fail("strings differ: " + where);
      case ExprKind::Cast: return expr(a->as<CastNode>()->value, b->as<CastNode>()->value);
      case ExprKind::Select: {
        auto *x = a->as<SelectNode>(), *y = b->as<SelectNode>();
        return expr(x->condition, y->condition) && expr(x->true_value, y->true_value) && expr(x->false_value, y->false_value);
      }
      case ExprKind::BufferLoad: {
        auto *x = a->as<BufferLoadNode>(), *y = b->as<BufferLoadNode>();
        return buffer(x->buffer, y->buffer) && exprs(x->indices, y->indices, "indices") && expr(x->predicate, y->predicate);
      }
      case ExprKind::Ramp: {
        auto *x = a->as<RampNode>(), *y = b->as<RampNode>();
        return x->lanes == y->lanes && expr(x->base, y->base) && expr(x->stride, y->stride);
      }
      case ExprKind::Broadcast: return a->as<BroadcastNode>()->lanes == b->as<BroadcastNode>()->lanes &&
                                       expr(a->as<BroadcastNode>()->value, b->as<BroadcastNode>()->value);
      case ExprKind::Let: {
        auto *x = a->as<LetNode>(), *y = b->as<LetNode>();
        return var(x->var, y->var) && expr(x->value, y->value) && expr(x->body, y->body);
      }
      case ExprKind::Call: {
        auto *x = a->as<CallNode>(), *y = b->as<CallNode>();
        if (x->op != y->op || x->calls_global != y->calls_global) return fail("calls differ: " + where);
        return exprs(x->args, y->args, "call arguments");
      }
      case ExprKind::Shuffle: {
        auto *x = a->as<ShuffleNode>(), *y = b->as<ShuffleNode>();
        return exprs(x->vectors, y->vectors, "shuffle vectors") && exprs(x->indices, y->indices, "shuffle indices");
      }
      case ExprKind::Not: return expr(a->as<NotNode>()->a, b->as<NotNode>()->a);
      default: {
        auto *x = a->as<BinaryNode>(), *y = b->as<BinaryNode>();
        return expr(x->a, y->a) && expr(x->b, y->b);
      }
    }
  }

  bool range(const Range& a, const Range& b) { return expr(a.min, b.min) && expr(a.extent, b.extent); }

  bool region(const BufferRegion& a, const BufferRegion& b) {
    if (a.region.size() != b.region.size()) return fail("region lengths differ");
    if (!buffer(a.buffer, b.buffer)) return false;
    for (size_t i = 0; i < a.region.size(); ++i)
      if (!range(a.region[i], b.region[i])) return false;
    return true;
  }

  bool attr(const AttrValue& a, const AttrValue& b) {
    if (a.is_list != b.is_list || a.list.size() != b.list.size() || a.is_dict != b.is_dict || a.keys != b.keys ||
        !a.buffer != !b.buffer)
      return fail("annotation values differ");
    if (a.buffer) return buffer(a.buffer, b.buffer);
    if (!a.is_list) return expr(a.expr, b.expr);
    for (size_t i = 0; i < a.list.size(); ++i)
      if (!attr(a.list[i], b.list[i])) return false;
    return true;
  }

  bool annotations(const Annotations& a, const Annotations& b) {
    if (a.size() != b.size()) return fail("annotation counts differ");
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].first != b[i].first) return fail("annotation keys " + a[i].first + " and " + b[i].first + " differ");
      if (!attr(a[i].second, b[i].second)) return false;
    }
    return true;
  }

  bool iter_var(const IterVar& a, const IterVar& b) {
    if (!a || !b) return !a && !b ? true : fail("an IterVar is missing");
    if (a->iter_type != b->iter_type || a->thread_tag != b->thread_tag || a->dom.has_value() != b->dom.has_value())
      return fail("IterVars differ");
    return (!a->dom || range(*a->dom, *b->dom)) && var(a->var, b->var);
  }

  bool stmt(const Stmt& a, const Stmt& b) {
    if (!a || !b) return !a && !b ? true : fail("a statement is missing");
    if (a->kind != b->kind) return fail(std::string("statement kinds ") + stmt_kind_name(a->kind) + " and " + stmt_kind_name(b->kind) + " differ");
    switch (a->kind) {
      case StmtKind::LetStmt: {
        auto *x = a->as<LetStmtNode>(), *y = b->as<LetStmtNode>();
        return expr(x->value, y->value) && var(x->var, y->var) && stmt(x->body, y->body);
      }
      case StmtKind::AttrStmt: {
        auto *x = a->as<AttrStmtNode>(), *y = b->as<AttrStmtNode>();
        if (x->attr_key != y->attr_key) return fail("attribute keys differ");
        return expr(x->node_expr, y->node_expr) && buffer(x->node_buffer, y->node_buffer) &&
               iter_var(x->node_iter_var, y->node_iter_var) && expr(x->value, y->value) && stmt(x->body, y->body);
      }
      case StmtKind::AssertStmt: {
        auto *x = a->as<AssertStmtNode>(), *y = b->as<AssertStmtNode>();
        return expr(x->condition, y->condition) && expr(x->message, y->message) && stmt(x->body, y->body);
      }
      case StmtKind::BufferStore: {
        auto *x = a->as<BufferStoreNode>(), *y = b->as<BufferStoreNode>();
        return buffer(x->buffer, y->buffer) && expr(x->value, y->value) && exprs(x->indices, y->indices, "indices") &&
               expr(x->predicate, y->predicate);
      }
      case StmtKind::BufferRealize: {
        auto *x = a->as<BufferRealizeNode>(), *y = b->as<BufferRealizeNode>();
        return region({x->buffer, x->bounds}, {y->buffer, y->bounds}) && expr(x->condition, y->condition) && stmt(x->body, y->body);
      }
      case StmtKind::Allocate: {
        auto *x = a->as<AllocateNode>(), *y = b->as<AllocateNode>();
        if (x->dtype != y->dtype) return fail("allocation dtypes differ");
        return var(x->buffer_var, y->buffer_var) && exprs(x->extents, y->extents, "extents") &&
               expr(x->condition, y->condition) && annotations(x->annotations, y->annotations) && stmt(x->body, y->body);
      }
      case StmtKind::DeclBuffer: {
        auto *x = a->as<DeclBufferNode>(), *y = b->as<DeclBufferNode>();
        return buffer(x->buffer, y->buffer) && stmt(x->body, y->body);
      }
      case StmtKind::SeqStmt: {
        auto *x = a->as<SeqStmtNode>(), *y = b->as<SeqStmtNode>();
        if (x->seq.size() != y->seq.size()) return fail("sequence lengths differ");
        for (size_t i = 0; i < x->seq.size(); ++i)
          if (!stmt(x->seq[i], y->seq[i])) return false;
        return true;
      }
      case StmtKind::IfThenElse: {
        auto *x = a->as<IfThenElseNode>(), *y = b->as<IfThenElseNode>();
        return expr(x->condition, y->condition) && stmt(x->then_case, y->then_case) && stmt(x->else_case, y->else_case);
      }
      case StmtKind::Evaluate: return expr(a->as<EvaluateNode>()->value, b->as<EvaluateNode>()->value);
      case StmtKind::For: {
        auto *x = a->as<ForNode>(), *y = b->as<ForNode>();
        if (x->kind != y->kind) return fail("loop kinds differ");
        return expr(x->min, y->min) && expr(x->extent, y->extent) && var(x->loop_var, y->loop_var) &&
               iter_var(x->thread_binding, y->thread_binding) && annotations(x->annotations, y->annotations) &&
               stmt(x->body, y->body);
      }
      case StmtKind::While: {
        auto *x = a->as<WhileNode>(), *y = b->as<WhileNode>();
        return expr(x->condition, y->condition) && stmt(x->body, y->body);
      }
      case StmtKind::Block: {
        auto *x = a->as<BlockNode>(), *y = b->as<BlockNode>();
        if (x->name_hint != y->name_hint) return fail("block names " + x->name_hint + " and " + y->name_hint + " differ");
        if (x->iter_vars.size() != y->iter_vars.size() || x->reads.size() != y->reads.size() ||
            x->writes.size() != y->writes.size() || x->alloc_buffers.size() != y->alloc_buffers.size() ||
            x->match_buffers.size() != y->match_buffers.size())
          return fail("block " + x->name_hint + " has different iter vars, regions or buffers");
        for (size_t i = 0; i < x->iter_vars.size(); ++i)
          if (!iter_var(x->iter_vars[i], y->iter_vars[i])) return false;
        for (size_t i = 0; i < x->reads.size(); ++i)
          if (!region(x->reads[i], y->reads[i])) return false;
        for (size_t i = 0; i < x->writes.size(); ++i)
          if (!region(x->writes[i], y->writes[i])) return false;
        for (size_t i = 0; i < x->alloc_buffers.size(); ++i)
          if (!buffer(x->alloc_buffers[i], y->alloc_buffers[i])) return false;
        for (size_t i = 0; i < x->match_buffers.size(); ++i)
          if (!buffer(x->match_buffers[i].buffer, y->match_buffers[i].buffer) ||
              !region(x->match_buffers[i].source, y->match_buffers[i].source))
            return false;
        return annotations(x->annotations, y->annotations) && stmt(x->init, y->init) && stmt(x->body, y->body);
      }
      case StmtKind::BlockRealize: {
        auto *x = a->as<BlockRealizeNode>(), *y = b->as<BlockRealizeNode>();
        return exprs(x->iter_values, y->iter_values, "block bindings") && expr(x->predicate, y->predicate) &&
               stmt(x->block, y->block);
      }
    }
    return fail("unknown statement");
  }

  bool func(const PrimFuncNode& a, const PrimFuncNode& b) {
    if (a.params.size() != b.params.size()) return fail("parameter counts differ");
    for (size_t i = 0; i < a.params.size(); ++i) {
      if (!var(a.params[i], b.params[i])) return false;
      Buffer x = a.buffer_of(a.params[i]), y = b.buffer_of(b.params[i]);
      if (!x != !y) return fail("parameter " + a.params[i]->name_hint + " is a buffer on one side only");
      if (x && !buffer(x, y)) return false;
    }
    if (a.ret_type.has_value() != b.ret_type.has_value() || (a.ret_type && *a.ret_type != *b.ret_type))
      return fail("return types differ");
    if (a.is_private != b.is_private || a.check_well_formed != b.check_well_formed) return fail("decorator flags differ");
    return annotations(a.attrs, b.attrs) && stmt(a.body, b.body);
  }

 private:
  std::unordered_map<const VarNode*, const VarNode*> vars_, back_vars_;
  std::unordered_map<const BufferNode*, const BufferNode*> buffers_;
};

}  // namespace

std::string structural_difference(const PrimFunc& a, const PrimFunc& b) {
  Comparer c;
  c.func(*a, *b);
  return c.why;
}

std::string structural_difference(const IRModule& a, const IRModule& b) {
  if (a.functions.size() != b.functions.size()) return "function counts differ";
  for (size_t i = 0; i < a.functions.size(); ++i) {
    if (a.functions[i].first != b.functions[i].first) return "function names differ";
    std::string why = structural_difference(a.functions[i].second, b.functions[i].second);
    if (!why.empty()) return a.functions[i].first + ": " + why;
  }
  return "";
}

}  // namespace onegrad::tir
