#include "tir/ast/root_block.h"

#include "tir/ast/visitor.h"

namespace onegrad::tir {

namespace {
bool contains_block(const Stmt& s) {
  struct Finder : IRVisitor {
    bool found = false;
    void visit_stmt(const Stmt& st) override {
      if (st && st->kind == StmtKind::BlockRealize) found = true;
      if (!found) IRVisitor::visit_stmt(st);
    }
  } f;
  f.visit_stmt(s);
  return f.found;
}
}  // namespace

bool script_wraps_in_root(const Stmt& body, bool has_root_allocs) {
  if (has_root_allocs) return true;
  auto* realize = body ? body->as<BlockRealizeNode>() : nullptr;
  if (realize && realize->block->iter_vars.empty()) return false;
  return contains_block(body);
}

Stmt make_root_block(Stmt body, std::vector<Buffer> alloc_buffers) {
  auto block = std::make_shared<BlockNode>(body ? body->loc : SourceLoc{});
  block->name_hint = "root";
  block->alloc_buffers = std::move(alloc_buffers);
  block->body = std::move(body);
  auto realize = std::make_shared<BlockRealizeNode>(block->loc);
  realize->predicate = bool_imm(true);
  realize->block = block;
  return realize;
}

}  // namespace onegrad::tir
