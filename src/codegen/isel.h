// Instruction Selection for the decomposed elementwise ops (spec: uop-dialect, "Decomposed
// elementwise ops"; spec README decision 4; DESIGN decision 7). A backend declares which decomposed
// ops it renders itself (Capabilities); select_instructions rewrites every other one into its
// decomposition, exactly as the spec's table writes it:
//
//   NEG    MUL(A, -1)                   CMPEQ  CMPNE(CMPNE(A, B), 1)
//   SUB    ADD(A, NEG(B))               NOT    CMPNE(A, 1)
//   DIV    MUL(A, RECIP(B))             EXP2, LOG2, SIN   codegen/decompositions.h
//   CMPGT  CMPLT(B, A)                  SQRT   EXP2(0.5 * LOG2(A))
//   CMPGE  CMPNE(CMPLT(A, B), 1)        POW    EXP2(LOG2(A) * B)
//   CMPLE  CMPNE(CMPLT(B, A), 1)        MULACC ADD(MUL(A, B), C)
//   THREEFRY  5 rounds of add-rotate-xor (codegen/threefry.h)
//
// A decomposition that yields another decomposed op (SUB's NEG, SQRT's EXP2 and LOG2) has it
// rewritten in turn when the backend lacks that one too. docs/codegen.md, "Instruction Selection".
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "codegen/capabilities.h"
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// What a backend renders itself is its Capabilities' `renders` (codegen/capabilities.h).

// One row of the spec's table: the op, where its decomposition is defined, and the builder that
// turns a node of that op into it (its sources, dtype and arg are the node's).
struct Decomposition {
  Ops op;
  const char* spec;                    // the table's text, for docs, traces and errors
  bool (*defined_on)(DType operand);   // the operand dtypes the decomposition is right for
  UOpRef (*build)(const UOp& node);    // null: no decomposition (the backend must render it)
};

// The table, in the spec's order.
const std::vector<Decomposition>& decomposition_table();

// The row for `op` (null when op is not a decomposed op).
const Decomposition* find_decomposition(Ops op);

// Whether the table can decompose `op` on operands of dtype `dt`.
bool has_decomposition(Ops op, DType dt);

// A backend that lacks every op the table can decompose: everything decomposable is decomposed
// (tests; the C backend under CPU_DECOMPOSE_ALL=1). What has no decomposition (float64 EXP2, LOG2,
// SIN; THREEFRY on other than uint64) it still claims to render.
Capabilities lacks_every_decomposed_op(std::string name = "decompose-all");

// The pattern table: one rule per decomposed op (plus the cos and tan rules ahead of SIN's and
// DIV's, see decompositions.h). The rewrite context is the backend's Capabilities.
const PatternMatcher& isel_rules();

// Rewrite every decomposed op under `sink` that `caps` does not render into its decomposition.
// TargetError naming the op, its dtype and the target when the target lacks an op the table
// cannot decompose on that dtype.
UOpRef select_instructions(const UOpRef& sink, const Capabilities& caps, RewriteTrace* trace = nullptr);

}  // namespace onegrad
