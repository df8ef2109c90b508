// The printer's state: unique names for Vars and Buffers in scope, the buffers each function
// declares, and the text so far. Expressions are in printer_expr.cpp, statements and functions in
// printer_stmt.cpp.
#pragma once
#include <cmath>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tir/ast/module.h"

namespace onegrad::tir {

// Python operator precedences, lowest first (the ones TVMScript uses).
enum Prec : int {
  kPrecOr = 2, kPrecAnd = 3, kPrecNot = 4, kPrecCmp = 5, kPrecAdd = 10, kPrecMul = 11, kPrecUnary = 12,
  kPrecAtom = 14,
};

inline bool is_true_literal(const PrimExpr& e) { return e && e->dtype.is_bool() && is_const_int(e, 1); }
// The 0 the parser gives a range that names only its extent (int, or +0.0 for ill-typed float ranges).
inline bool is_zero_literal(const PrimExpr& e) {
  auto* f = e ? e->as<FloatImmNode>() : nullptr;
  return is_const_int(e, 0) || (f && f->value == 0 && !std::signbit(f->value));
}

// A Python string literal with escapes.
std::string quote(const std::string& s);

class ScriptPrinter {
 public:
  explicit ScriptPrinter(std::string module_name = "Module") : module_name_(std::move(module_name)) {}

  struct Text {
    std::string s;
    int prec;
  };
  Text expr(const PrimExpr& e);
  std::string str(const PrimExpr& e) { return expr(e).s; }
  void func(const std::string& name, const PrimFunc& f, int indent);
  std::string result() const { return out_.str(); }

 private:
  friend class BufferCollector;
  // Names.
  std::string define(const void* obj, const std::string& hint);
  void undefine(const void* obj);
  std::string var_name(const VarNode* v);
  std::string buffer_name(const BufferNode* b);

  // Expressions.
  Text binary(const BinaryNode* n);
  Text call(const CallNode* n);
  Text literal_int(const IntImmNode* n);
  Text literal_float(const FloatImmNode* n);
  std::string operand(const PrimExpr& e, int min_prec);
  std::string args(const std::vector<PrimExpr>& es);
  std::string index(const PrimExpr& e);
  std::string load(const Buffer& b, const std::vector<PrimExpr>& indices);
  std::string region(const BufferRegion& r);
  std::string range_end(const PrimExpr& min, const PrimExpr& extent);
  std::string attr_value(const AttrValue& v);
  std::string annotations(const Annotations& a);
  std::string type_annotation(const Type& t);
  std::string buffer_call(const char* fn, const BufferNode& b, bool with_data);
  std::string elem_offset(const BufferNode& b);
  std::string shape(const std::vector<PrimExpr>& dims);

  // Statements.
  void line(int indent, const std::string& text);
  void stmt(const Stmt& s, int indent);
  void body(const Stmt& s, int indent);
  void for_loop(const ForNode* n, int indent);
  void block_realize(const BlockRealizeNode* n, int indent, bool no_realize = false);
  void allocate(const AllocateNode* n, int indent, bool as_with);
  bool with_form(const Stmt& s, int indent);
  void declare_views_over(const VarNode* data, int indent);
  void define_buffer(const Buffer& b);

  std::string module_name_;
  std::ostringstream out_;
  std::unordered_map<const void*, std::string> names_;
  std::unordered_set<std::string> in_use_;
  // Data Vars of buffers a construct declares: printed as `A.data`.
  std::unordered_map<const VarNode*, const BufferNode*> data_owner_;
  // Buffers no construct declares (views over a pointer, realize targets): printed as T.Buffer
  // right after the binder of their data Var, or at the top of the function.
  std::unordered_map<const VarNode*, std::vector<Buffer>> views_by_data_;
  // The loops around the statement being printed (T.axis.remap binds to them).
  std::vector<const ForNode*> loops_;
  // LetStmt Vars declared at the top of the function (used outside their LetStmt).
  std::unordered_set<const VarNode*> declared_lets_;
};

}  // namespace onegrad::tir
