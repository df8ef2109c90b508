#include "tir/ast/stmt.h"

namespace onegrad::tir {

const char* stmt_kind_name(StmtKind k) {
  static const char* const kNames[] = {"LetStmt",  "AttrStmt",   "AssertStmt", "BufferStore", "BufferRealize",
                                       "Allocate", "DeclBuffer", "SeqStmt",    "IfThenElse",  "Evaluate",
                                       "For",      "While",      "Block",      "BlockRealize"};
  return kNames[static_cast<int>(k)];
}

Stmt make_seq(std::vector<Stmt> stmts, SourceLoc loc) {
  if (stmts.size() == 1) return stmts[0];
  auto seq = std::make_shared<SeqStmtNode>(loc);
  seq->seq = std::move(stmts);
  return seq;
}

}  // namespace onegrad::tir
