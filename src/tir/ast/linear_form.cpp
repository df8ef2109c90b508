#include "tir/ast/linear_form.h"

#include <string>
#include <utility>
#include <vector>

#include "tir/print/printer.h"

namespace onegrad::tir {

namespace {

// e as a sum of coefficient * term plus a constant: terms are Vars (by identity) and other
// expressions (by their printed text). Coefficients that overflow give up (ok = false).
struct Linear {
  std::vector<std::pair<std::string, int64_t>> terms;
  int64_t constant = 0;
  bool ok = true;

  void add(const std::string& key, int64_t c) {
    for (auto& [k, v] : terms)
      if (k == key) return void(ok &= !__builtin_add_overflow(v, c, &v));
    terms.emplace_back(key, c);
  }
  int64_t times(int64_t a, int64_t b) {
    int64_t r = 0;
    ok &= !__builtin_mul_overflow(a, b, &r);
    return r;
  }
  void collect(const PrimExpr& e, int64_t scale) {
    if (!ok) return;
    if (auto* imm = e->as<IntImmNode>()) return void(ok &= !__builtin_add_overflow(constant, times(scale, imm->value), &constant));
    if (auto* b = e->as<BinaryNode>()) {
      if (b->kind == ExprKind::Add) return collect(b->a, scale), collect(b->b, scale);
      if (b->kind == ExprKind::Sub) return collect(b->a, scale), collect(b->b, times(scale, -1));
      if (b->kind == ExprKind::Mul) {
        if (auto* c = b->b->as<IntImmNode>()) return collect(b->a, times(scale, c->value));
        if (auto* c = b->a->as<IntImmNode>()) return collect(b->b, times(scale, c->value));
      }
    }
    if (e->kind == ExprKind::Var) return add("var@" + std::to_string(reinterpret_cast<uintptr_t>(e.get())), scale);
    add(print_expr(e), scale);
  }
};

}  // namespace

std::optional<int64_t> constant_difference(const PrimExpr& a, const PrimExpr& b) {
  Linear l;
  l.collect(a, 1);
  l.collect(b, -1);
  if (!l.ok) return std::nullopt;
  for (auto& [k, c] : l.terms)
    if (c != 0) return std::nullopt;
  return l.constant;
}

std::optional<int64_t> constant_value(const PrimExpr& e) { return constant_difference(e, int_imm(0, e->dtype)); }

}  // namespace onegrad::tir
