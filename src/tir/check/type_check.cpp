// One check per construct, each citing its rule (spec/tir-spec.md). Where TVM accepts what a rule
// refuses (mostly the «…» rules the draft marks as not what TVM implemented), the issue says so
// (TypeIssue::tvm_accepts, via `deviation`): a warning by default, an error when checking strictly
// (module_issues.h, docs/tir.md "Where the spec and TVM disagree").
#include "tir/check/type_check.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_set>

#include "tir/ast/linear_form.h"
#include "tir/check/call_rules.h"
#include "tir/print/printer.h"
#include "tir/check/issues.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {

std::string name(DataType t) { return t.name(); }
bool is_int_scalar(DataType t) { return t.is_integer() && t.is_scalar(); }
bool is_bool_scalar(DataType t) { return t.is_bool() && t.is_scalar(); }

class TypeChecker : public IRVisitor {
 public:
  std::vector<TypeIssue> issues;

  void issue(const char* rule, const std::string& msg, SourceLoc loc) {
    issues.push_back({rule, msg, loc.line, loc.column, ""});
  }
  // A rule TVM does not enforce; spec_rule cites it ("PrimExprs 7.2").
  void deviation(const char* rule, const std::string& msg, SourceLoc loc, const char* spec_rule) {
    issues.push_back({rule, msg, loc.line, loc.column, spec_rule});
  }

  void visit_expr(const PrimExpr& e) override {
    if (!e) return;
    check_expr(e);
    IRVisitor::visit_expr(e);
  }

  void visit_stmt(const Stmt& s) override {
    if (!s) return;
    check_stmt(s);
    IRVisitor::visit_stmt(s);
  }

  void visit_buffer(const Buffer& b) override {
    if (!b || !seen_buffers_.insert(b.get()).second) return;
    check_buffer(*b);
    IRVisitor::visit_buffer(b);
  }

  void visit_var_def(const Var& v) override { check_var(*v); }

  void check_func(const PrimFuncNode& f) {
    visit_func(f);
    check_return_type(f);
    sort_by_position(issues);
  }

 private:
  std::unordered_set<const BufferNode*> seen_buffers_;

  // spec: Finer-Grained Types.
  void check_var(const VarNode& v) {
    const Type& t = v.type_annotation;
    if (t.kind == Type::Kind::Pointer && (!t.element || t.element->kind != Type::Kind::Prim))
      issue("Var", "the PointerType of " + v.name_hint + " must point to a PrimType", v.loc);
    if (t.kind == Type::Kind::Tuple && !t.fields.empty())
      issue("Var", "the TupleType of " + v.name_hint + " must be empty", v.loc);
    if (t.value_dtype() != v.dtype)
      issue("Var", v.name_hint + " has dtype " + name(v.dtype) + " but type annotation " + t.to_string(), v.loc);
  }

  // spec: BufferLoad 1-2 and BufferStore 1-3: only the last index may be a vector; integer indices of
  // one width.
  void check_indices(const char* rule, const Buffer& b, const std::vector<PrimExpr>& indices, SourceLoc loc) {
    if (indices.size() != b->shape.size())
      issue(rule, "buffer " + b->name + " is " + std::to_string(b->shape.size()) + "-dimensional but has " +
                      std::to_string(indices.size()) + " indices",
            loc);
    for (size_t i = 0; i + 1 < indices.size(); ++i)
      if (!indices[i]->dtype.is_scalar())
        issue(rule, "only the last index may be a vector, but index " + std::to_string(i) + " is " + name(indices[i]->dtype), loc);
    for (size_t i = 0; i < indices.size(); ++i) {
      if (!indices[i]->dtype.is_integer())
        issue(rule, "index " + std::to_string(i) + " (" + print_expr(indices[i]) + ") has dtype " + name(indices[i]->dtype) +
                        ", not an integer",
              loc);
      else if (indices[i]->dtype.bits != indices[0]->dtype.bits)
        deviation(rule, "indices have different widths: " + name(indices[0]->dtype) + " and " + name(indices[i]->dtype), loc,
                  std::string_view(rule) == "BufferLoad" ? "PrimExprs 7.2" : "Statements 4.3");
    }
  }

  // TVM's BufferLoad/BufferStore constructors: a lane mask of bools, one per accessed lane.
  void check_predicate(const char* rule, const PrimExpr& predicate, int lanes, const char* access, SourceLoc loc) {
    if (!predicate) return;
    if (predicate->dtype.lanes != lanes)
      issue(rule, "Got a predicate mask with " + std::to_string(predicate->dtype.lanes) + " lanes, but trying to " + access +
                      " with " + std::to_string(lanes) + " lanes. The number of lanes must match.",
            loc);
    if (!predicate->dtype.element().is_bool())
      issue(rule, "Predicate mask elements must be boolean values, but got " + name(predicate->dtype.element()) + ".", loc);
  }

  void check_expr(const PrimExpr& e) {
    DataType t = e->dtype;
    SourceLoc loc = e->loc;
    switch (e->kind) {
      case ExprKind::Var: return check_var(*e->as<VarNode>());
      case ExprKind::IntImm: {
        int64_t v = e->as<IntImmNode>()->value;
        if (!t.is_scalar()) issue("IntImm", "an IntImm must be a scalar, not " + name(t), loc);
        if (!t.is_integer()) return issue("IntImm", "an IntImm must have an Int or UInt dtype, not " + name(t), loc);
        bool ok = true;
        // A uint64 IntImm holds its value's bits, so every int64 is a uint64 value (2^63 and up negative).
        if (t.code == DataType::Code::UInt) ok = t.bits >= 64 || (v >= 0 && v < (int64_t{1} << t.bits));
        else if (t.bits == 1) ok = v == 0 || v == 1;
        else if (t.bits < 64) ok = v >= -(int64_t{1} << (t.bits - 1)) && v < (int64_t{1} << (t.bits - 1));
        if (!ok) issue("IntImm", "the value " + std::to_string(v) + " is out of the range of " + name(t), loc);
        return;
      }
      case ExprKind::FloatImm: {
        double v = e->as<FloatImmNode>()->value;
        if (!t.is_float()) return issue("FloatImm", "a FloatImm must have a Float or BFloat dtype, not " + name(t), loc);
        double limit = t.code == DataType::Code::BFloat ? 3.38953139e38
                       : t.bits == 16                   ? 65504.0
                       : t.bits == 32                   ? static_cast<double>(FLT_MAX)
                                                        : DBL_MAX;
        if (std::isfinite(v) && std::fabs(v) > limit)
          issue("FloatImm", "the value " + std::to_string(v) + " is out of the range of " + name(t), loc);
        return;
      }
      case ExprKind::Cast: {
        DataType from = e->as<CastNode>()->value->dtype;
        if (from.lanes != t.lanes) issue("Cast", "cannot cast " + name(from) + " to " + name(t) + ": the lanes differ", loc);
        // TVM casts a pointer to an integer (ptrtoint); to a float no code generator can
        if (from.code == DataType::Code::Handle && t.is_integer())
          deviation("Cast", "a handle can only be cast to a handle, not to " + name(t), loc, "PrimExprs 5");
        else if (from.code == DataType::Code::Handle && t.code != DataType::Code::Handle)
          issue("Cast", "a handle can only be cast to a handle, not to " + name(t), loc);
        if (t.code == DataType::Code::Handle && !(from.is_integer() || from.code == DataType::Code::Handle))
          issue("Cast", "only integers and handles can be cast to a handle, not " + name(from), loc);
        return;
      }
      case ExprKind::Select: {
        auto* n = e->as<SelectNode>();
        DataType c = n->condition->dtype;
        if (!c.is_bool()) issue("Select", "the condition must be bool, not " + name(c), loc);
        if (n->true_value->dtype != n->false_value->dtype)
          issue("Select", "the arms have different dtypes: " + name(n->true_value->dtype) + " and " + name(n->false_value->dtype), loc);
        if (c.lanes != 1 && c.lanes != n->true_value->dtype.lanes)
          issue("Select", "a " + name(c) + " condition cannot select between " + name(n->true_value->dtype) + " values", loc);
        return;
      }
      case ExprKind::BufferLoad: {
        auto* n = e->as<BufferLoadNode>();
        check_indices("BufferLoad", n->buffer, n->indices, loc);
        return check_predicate("BufferLoad", n->predicate, t.lanes, "load a vector", loc);
      }
      case ExprKind::Ramp: {
        auto* n = e->as<RampNode>();
        if (n->lanes <= 1) issue("Ramp", "lanes must be greater than 1, not " + std::to_string(n->lanes), loc);
        if (n->base->dtype != n->stride->dtype)
          issue("Ramp", "base and stride have different dtypes: " + name(n->base->dtype) + " and " + name(n->stride->dtype), loc);
        if (!n->base->dtype.is_scalar() || !n->stride->dtype.is_scalar()) issue("Ramp", "base and stride must be scalars", loc);
        if (n->base->dtype.is_float() && n->stride->dtype.is_float())
          deviation("Ramp", "base and stride must be integers, not " + name(n->base->dtype), loc, "PrimExprs 8.1.3");
        else if (!n->base->dtype.is_integer() || !n->stride->dtype.is_integer())
          issue("Ramp", "base and stride must be integers, not " + name(n->base->dtype), loc);
        return;
      }
      case ExprKind::Broadcast: {
        auto* n = e->as<BroadcastNode>();
        if (!n->value->dtype.is_scalar()) issue("Broadcast", "the value must be a scalar, not " + name(n->value->dtype), loc);
        if (n->lanes <= 1) issue("Broadcast", "lanes must be greater than 1, not " + std::to_string(n->lanes), loc);
        return;
      }
      case ExprKind::Let: {
        auto* n = e->as<LetNode>();
        if (n->var->dtype != n->value->dtype)
          issue("Let", n->var->name_hint + " has dtype " + name(n->var->dtype) + " but is bound to a " + name(n->value->dtype), loc);
        return;
      }
      case ExprKind::Shuffle: {
        auto* n = e->as<ShuffleNode>();
        if (n->vectors.empty()) return issue("Shuffle", "a Shuffle needs at least one vector", loc);
        int total = 0;
        for (const PrimExpr& v : n->vectors) {
          total += v->dtype.lanes;
          if (v->dtype.element() != n->vectors[0]->dtype.element())
            issue("Shuffle", "the vectors have different element types: " + name(n->vectors[0]->dtype) + " and " + name(v->dtype), loc);
        }
        // TVM takes fewer indices than lanes (a lane extraction, ExtractElement), never more
        std::string count = std::to_string(n->indices.size()) + " indices for " + std::to_string(total) + " lanes";
        if (!n->indices.empty() && static_cast<int>(n->indices.size()) < total) deviation("Shuffle", count, loc, "PrimExprs 12.4");
        else if (static_cast<int>(n->indices.size()) != total) issue("Shuffle", count, loc);
        for (const PrimExpr& i : n->indices)
          if (!is_int_scalar(i->dtype)) issue("Shuffle", "indices must be integer scalars, not " + name(i->dtype), loc);
        return;
      }
      case ExprKind::Not: {
        DataType a = e->as<NotNode>()->a->dtype;
        if (!a.is_bool()) issue("Not", "the operand must be bool, not " + name(a), loc);
        return;
      }
      case ExprKind::StringImm: return;
      case ExprKind::Call: return check_call(*e->as<CallNode>(), issues);
      default: break;
    }
    auto* n = e->as<BinaryNode>();
    DataType a = n->a->dtype, b = n->b->dtype;
    std::string op = expr_kind_name(e->kind);
    if (e->kind == ExprKind::And || e->kind == ExprKind::Or) {
      if (!a.is_bool() || !b.is_bool()) issue("LogicalOp", op + " needs bool operands, not " + name(a) + " and " + name(b), loc);
      else if (a.lanes != b.lanes) issue("LogicalOp", op + " operands have different lanes: " + name(a) + " and " + name(b), loc);
      return;
    }
    const char* rule = is_cmp_op(e->kind) ? "CmpOp" : "BinaryOp";
    if (a != b) issue(rule, op + " operands have different dtypes: " + name(a) + " and " + name(b), loc);
    // TVM compares pointers (ICmp) and takes Mod of floats (fmod); no pointer arithmetic
    bool handles = a.code == DataType::Code::Handle || b.code == DataType::Code::Handle;
    if (handles && is_cmp_op(e->kind) && a == b) deviation(rule, op + " is not defined on handles", loc, "PrimExprs 16");
    else if (handles) issue(rule, op + " is not defined on handles", loc);
    if (e->kind == ExprKind::Mod && a.is_float() && b.is_float())
      deviation(rule, "Mod needs integer operands, not " + name(a) + " and " + name(b), loc, "PrimExprs 13");
    else if (e->kind == ExprKind::Mod && (!a.is_integer() || !b.is_integer()))
      issue(rule, "Mod needs integer operands, not " + name(a) + " and " + name(b), loc);
  }

  void check_bounds(const char* rule, const std::vector<Range>& ranges, SourceLoc loc) {
    for (const Range& r : ranges)
      for (const PrimExpr& x : {r.min, r.extent}) {
        if (!x) continue;
        if (!is_int_scalar(x->dtype)) issue(rule, "bounds must be integer scalars, not " + name(x->dtype), loc);
        else if (x->dtype != ranges[0].min->dtype)
          deviation(rule, "bounds have different dtypes: " + name(ranges[0].min->dtype) + " and " + name(x->dtype), loc,
                    "Statements 5.2");
      }
  }

  // A bool scalar, or (as TVM takes it: nonzero is true) an integer scalar cited as spec_rule.
  void check_condition(const char* rule, const PrimExpr& c, SourceLoc loc, const char* spec_rule) {
    std::string msg = "the condition must be a bool scalar, not " + name(c->dtype);
    if (is_bool_scalar(c->dtype)) return;
    if (is_int_scalar(c->dtype) && spec_rule) deviation(rule, msg, loc, spec_rule);
    else issue(rule, msg, loc);
  }

  void check_region(const char* rule, const BufferRegion& r, SourceLoc loc) {
    if (r.region.size() != r.buffer->shape.size())
      issue(rule, "the region of " + r.buffer->name + " has " + std::to_string(r.region.size()) + " ranges for " +
                      std::to_string(r.buffer->shape.size()) + " dimensions",
            loc);
  }

  // spec: Other Language Constructs 3 (Buffer).
  void check_buffer(const BufferNode& b) {
    for (const PrimExpr& s : b.shape)
      if (!is_int_scalar(s->dtype)) issue("Buffer", "the shape of " + b.name + " has a " + name(s->dtype) + " extent", b.loc);
    // compiled code and the interpreter read one stride per dimension
    if (!b.strides.empty() && b.strides.size() != b.shape.size())
      issue("Buffer", "buffer " + b.name + " declares " + std::to_string(b.strides.size()) + " strides for its " +
                          std::to_string(b.shape.size()) + " dimensions",
            b.loc);
    for (const PrimExpr& s : b.strides) {
      if (!is_int_scalar(s->dtype)) issue("Buffer", "the strides of " + b.name + " include a " + name(s->dtype), b.loc);
      else if (s->dtype != b.strides[0]->dtype)
        deviation("Buffer", "the strides of " + b.name + " have different dtypes", b.loc, "Other Constructs 3.2");
    }
    if (b.elem_offset && !is_int_scalar(b.elem_offset->dtype))
      issue("Buffer", "the elem_offset of " + b.name + " is " + name(b.elem_offset->dtype) + ", not an integer scalar", b.loc);
    const Type& t = b.data->type_annotation;
    if (t.kind != Type::Kind::Pointer || !t.element || t.element->kind != Type::Kind::Prim)
      issue("Buffer", "the data of " + b.name + " must be a pointer to a primitive type, not " + t.to_string(), b.loc);
  }

  // spec: Other Language Constructs 5 (MatchBufferRegion).
  void check_match(const MatchBufferRegion& m, SourceLoc loc) {
    const BufferNode &b = *m.buffer, &src = *m.source.buffer;
    const char* rule = "MatchBufferRegion";
    check_region(rule, m.source, loc);
    if (b.dtype != src.dtype) issue(rule, b.name + " is " + name(b.dtype) + " but its source " + src.name + " is " + name(src.dtype), loc);
    if (b.data_alignment > 0 && src.data_alignment % b.data_alignment != 0)
      issue(rule, "the alignment of " + src.name + " (" + std::to_string(src.data_alignment) + ") is not a multiple of " +
                      b.name + "'s (" + std::to_string(b.data_alignment) + ")",
            loc);
    if (is_const_int(b.elem_offset, 0) && !is_const_int(src.elem_offset, 0))
      issue(rule, b.name + " has elem_offset 0 but its source does not", loc);
    if (b.scope() != src.scope()) issue(rule, "scope " + b.scope() + " of " + b.name + " does not match " + src.scope(), loc);
    if (b.buffer_type != BufferType::Default || src.buffer_type != BufferType::Default)
      issue(rule, "AutoBroadcast buffers cannot be matched", loc);
    const auto& region = m.source.region;
    int64_t offset = static_cast<int64_t>(region.size()) - static_cast<int64_t>(b.shape.size());
    if (offset < 0) {
      issue(rule, b.name + " has " + std::to_string(b.shape.size()) + " dimensions but the region only " + std::to_string(region.size()), loc);
      return;
    }
    for (int64_t i = 0; i < offset; ++i)
      if (constant_value(region[i].extent) != std::optional<int64_t>(1))
        issue(rule, "dropped dimension " + std::to_string(i) + " of the region must have extent 1, not " + print_expr(region[i].extent), loc);
    for (size_t i = 0; i < b.shape.size(); ++i) {
      if (b.shape[i]->kind == ExprKind::Var) continue;
      const PrimExpr& ext = region[i + offset].extent;
      // "statically prove ... (including via arithmetic simplification)": a linear-form difference.
      if (constant_difference(b.shape[i], ext) != std::optional<int64_t>(0))
        issue(rule, "dimension " + std::to_string(i) + " of " + b.name + " is " + print_expr(b.shape[i]) +
                        " but the region's extent is " + print_expr(ext),
              loc);
    }
  }

  void check_iter_var(const IterVar& iv, SourceLoc loc) {
    if (!iv || !iv->dom || !iv->dom->extent) return;
    DataType ext = iv->dom->extent->dtype;
    if (!ext.is_int()) issue("IterVar", "the extent of " + iv->var->name_hint + " must be an Int, not " + name(ext), loc);
    else if (ext != iv->var->dtype)
      issue("IterVar", "the extent of " + iv->var->name_hint + " is " + name(ext) + " but the var is " + name(iv->var->dtype), loc);
  }

  void check_stmt(const Stmt& s) {
    SourceLoc loc = s->loc;
    switch (s->kind) {
      case StmtKind::LetStmt: {
        auto* n = s->as<LetStmtNode>();
        if (n->var->type_annotation.kind == Type::Kind::Pointer) {
          if (!n->value->dtype.is_handle())
            issue("LetStmt", "pointer " + n->var->name_hint + " is bound to a " + name(n->value->dtype) + ", not a handle", loc);
        } else if (n->var->dtype != n->value->dtype) {
          issue("LetStmt", n->var->name_hint + " is " + name(n->var->dtype) + " but is bound to a " + name(n->value->dtype), loc);
        }
        return;
      }
      case StmtKind::AssertStmt: {
        auto* n = s->as<AssertStmtNode>();
        if (!is_bool_scalar(n->condition->dtype)) issue("AssertStmt", "the condition must be a bool scalar, not " + name(n->condition->dtype), loc);
        if (n->message->kind != ExprKind::StringImm && n->message->dtype != DataType::int_(32))
          issue("AssertStmt", "the message must be a string or an int32, not " + name(n->message->dtype), loc);
        return;
      }
      case StmtKind::BufferStore: {
        auto* n = s->as<BufferStoreNode>();
        check_indices("BufferStore", n->buffer, n->indices, loc);
        int index_lanes = n->indices.empty() ? 1 : n->indices.back()->dtype.lanes;
        int want = index_lanes * n->buffer->dtype.lanes;
        if (n->value->dtype.lanes != want)
          issue("BufferStore", "cannot store a " + name(n->value->dtype) + " value: expected " + std::to_string(want) + " lanes (" +
                                   std::to_string(index_lanes) + " index lanes * " + std::to_string(n->buffer->dtype.lanes) +
                                   " buffer element lanes)",
                loc);
        // TVM's BufferStore constructor: "dtype mismatch on BufferStore" (the parser's `A[i] = v`
        // casts v; T.buffer_store and built IR do not)
        if (n->value->dtype.element() != n->buffer->dtype.element())
          issue("BufferStore", "cannot store a " + name(n->value->dtype) + " value into buffer " + n->buffer->name + " of " +
                                   name(n->buffer->dtype),
                loc);
        return check_predicate("BufferStore", n->predicate, n->value->dtype.lanes, "store a value", loc);
      }
      case StmtKind::BufferRealize: {
        auto* n = s->as<BufferRealizeNode>();
        check_condition("BufferRealize", n->condition, loc, "Statements 5.1");
        check_bounds("BufferRealize", n->bounds, loc);
        return;
      }
      case StmtKind::Allocate: {
        auto* n = s->as<AllocateNode>();
        const Type& t = n->buffer_var->type_annotation;
        bool ok = t.kind == Type::Kind::Pointer && t.element && (*t.element == Type::prim(n->dtype) ||
                                                                 (n->dtype == DataType::bool_() && *t.element == Type::prim(DataType::int_(8))));
        if (!ok) issue("Allocate", n->buffer_var->name_hint + " is " + t.to_string() + ", not a pointer to " + name(n->dtype), loc);
        for (const PrimExpr& x : n->extents) {
          if (!is_int_scalar(x->dtype)) issue("Allocate", "extents must be integer scalars, not " + name(x->dtype), loc);
          else if (x->dtype != n->extents[0]->dtype)
            deviation("Allocate", "extents have different dtypes: " + name(n->extents[0]->dtype) + " and " + name(x->dtype), loc,
                      "Statements 6.2");
        }
        check_condition("Allocate", n->condition, loc, nullptr);
        return;
      }
      case StmtKind::IfThenElse: return check_condition("IfThenElse", s->as<IfThenElseNode>()->condition, loc, "Statements 9");
      case StmtKind::For: return check_for(s->as<ForNode>());
      case StmtKind::While: {
        auto* n = s->as<WhileNode>();
        if (!is_int_scalar(n->condition->dtype)) issue("While", "the condition must be an integer scalar, not " + name(n->condition->dtype), loc);
        // TVM's While takes any scalar: `while True:` ending in a break (decision 11)
        if (n->condition->kind == ExprKind::IntImm) deviation("While", "the condition must not be a constant", loc, "Statements 12");
        return;
      }
      case StmtKind::Block: {
        auto* n = s->as<BlockNode>();
        for (const IterVar& iv : n->iter_vars) {
          if (!is_int_scalar(iv->var->dtype)) issue("Block", "iter var " + iv->var->name_hint + " must be an integer scalar, not " + name(iv->var->dtype), loc);
          check_iter_var(iv, loc);
        }
        for (const BufferRegion& r : n->reads) check_region("BufferRegion", r, loc);
        for (const BufferRegion& r : n->writes) check_region("BufferRegion", r, loc);
        for (const MatchBufferRegion& m : n->match_buffers) check_match(m, loc);
        return;
      }
      case StmtKind::BlockRealize: {
        auto* n = s->as<BlockRealizeNode>();
        if (n->iter_values.size() != n->block->iter_vars.size())
          issue("BlockRealize", std::to_string(n->iter_values.size()) + " bindings for " + std::to_string(n->block->iter_vars.size()) + " iter vars", loc);
        if (!n->predicate->dtype.is_bool()) issue("BlockRealize", "the predicate must be bool, not " + name(n->predicate->dtype), loc);
        return;
      }
      case StmtKind::AttrStmt: check_iter_var(s->as<AttrStmtNode>()->node_iter_var, loc); return;
      default: return;
    }
  }

  // spec: Typing Rules for Statements 11 (For).
  void check_for(const ForNode* n) {
    SourceLoc loc = n->loc;
    DataType v = n->loop_var->dtype;
    bool scalars = true;
    for (const PrimExpr& x : {PrimExpr(n->loop_var), n->min, n->extent})
      if (!is_int_scalar(x->dtype)) {
        issue("For", "loop var, min and extent must be integer scalars, but " + print_expr(x) + " is " + name(x->dtype), loc);
        scalars = false;
      }
    if (!scalars) return;
    if (n->min->dtype.bits > v.bits || n->extent->dtype.bits > v.bits)
      issue("For", "the loop var is " + name(v) + ", narrower than min (" + name(n->min->dtype) + ") or extent (" + name(n->extent->dtype) + ")", loc);
    // An IntImm min or extent narrower than the loop var is promoted to its type.
    auto promoted = [&](const PrimExpr& x) { return x->kind == ExprKind::IntImm && x->dtype.bits < v.bits ? v : x->dtype; };
    if (promoted(n->min) != v || promoted(n->extent) != v)
      issue("For", "loop var, min and extent must have the same dtype: " + name(v) + ", " + name(n->min->dtype) + ", " + name(n->extent->dtype), loc);
    if (n->kind == ForKind::Vectorized) {
      if (!is_const_int(n->min, 0)) issue("For", "a vectorized loop must start at 0", loc);
      auto* ext = as_int_imm(n->extent);
      if (!ext || ext->value < 1) issue("For", "a vectorized loop needs a constant extent of at least 1", loc);
      struct FindWhile : IRVisitor {
        bool found = false;
        void visit_stmt(const Stmt& s) override {
          if (s && s->kind == StmtKind::While) found = true;
          IRVisitor::visit_stmt(s);
        }
      } w;
      w.visit_stmt(n->body);
      if (w.found) issue("For", "a vectorized loop must not contain a while loop", loc);
    }
  }

  // spec: Other Language Constructs 6 (PrimFunc).
  void check_return_type(const PrimFuncNode& f) {
    struct Returns : IRVisitor {
      std::vector<const CallNode*> rets;
      void visit_expr(const PrimExpr& e) override {
        if (auto* c = e ? e->as<CallNode>() : nullptr; c && !c->calls_global && c->op == "tir.ret") rets.push_back(c);
        IRVisitor::visit_expr(e);
      }
    } r;
    r.visit_stmt(f.body);
    Type declared = f.ret_type ? *f.ret_type : Type::tuple();
    if (r.rets.empty()) {
      if (declared != Type::tuple())
        deviation("PrimFunc", "the function returns " + declared.to_string() + " but never calls T.ret", f.loc, "Other Constructs 6");
      return;
    }
    std::optional<Type> first;
    for (const CallNode* c : r.rets) {
      if (c->args.size() != 1) {
        issue("PrimFunc", "T.ret takes one value", c->loc);
        continue;
      }
      const PrimExpr& v = c->args[0];
      Type t = v->kind == ExprKind::Var ? v->as<VarNode>()->type_annotation : Type::prim(v->dtype);
      bool ok = v->kind == ExprKind::Var ? declared == t
                : v->dtype.is_handle()   ? declared.kind == Type::Kind::Pointer
                                         : declared == Type::prim(v->dtype);
      // TVM does not compare T.ret with the return annotation (often absent), nor the returns with each other
      if (!ok)
        deviation("PrimFunc", "T.ret returns " + t.to_string() + " but the function's return type is " + declared.to_string(), c->loc,
                  f.ret_type ? "Other Constructs 6" : "Other Constructs 6 (no annotation: TupleType([]))");
      if (first && *first != t)
        deviation("PrimFunc", "T.ret returns " + t.to_string() + " here and " + first->to_string() + " elsewhere", c->loc,
                  "Other Constructs 6.4");
      if (!first) first = t;
    }
  }
};

}  // namespace

std::vector<TypeIssue> type_issues(const PrimFuncNode& f) {
  TypeChecker c;
  c.check_func(f);
  return c.issues;
}

std::vector<TypeIssue> type_issues(const IRModule& mod) {
  return issues_of_module(mod, [](const PrimFuncNode& f) { return type_issues(f); });
}

void check_types(const IRModule& mod) {
  std::vector<TypeIssue> found = type_issues(mod);
  if (!found.empty()) throw TirTypeError(std::move(found));
}

}  // namespace onegrad::tir
