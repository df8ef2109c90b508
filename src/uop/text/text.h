// The text form of UOp graphs: a printer and a parser that round-trip exactly, so compiler stages
// can be tested with golden text (input graph text -> expected graph text), as LLVM/MLIR do.
//
//   %0 = CONST index 16
//   %1 = RANGE index (%0) {id=0, LOOP}
//   %2 = BUFFER ptr<float32, GLOBAL> {id=1, size=16, device=CPU, GLOBAL}
//   %3 = INDEX ptr<float32, GLOBAL> (%2, %1)
//
// One node per line, sources before users; the last line is the root. docs/text-form.md has the
// grammar. parse_graph(print_graph(g)) is pointer-identical to g (nodes are interned), and
// print_graph(parse_graph(t)) == t for any text the printer wrote.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// One root: the root is the last line.
std::string print_graph(const UOpRef& root);
// Several roots (sharing nodes): every node once, then a `roots %a, %b` line naming them in order.
// A single root prints exactly as the overload above.
std::string print_graph(std::span<const UOpRef> roots);

// Parse a graph; returns its root: the one value the `roots` line names, or else the last value
// defined. Throws ParseError (with line and column) on malformed text; never anything else.
UOpRef parse_graph(std::string_view text);
// Parse a graph with any number of roots: those the `roots` line names, or else the last value.
std::vector<UOpRef> parse_graphs(std::string_view text);

// The text of one arg, as it appears after a node's sources (empty for no arg). `node_dtype` lets
// fields that repeat the node's dtype be left out (BUFFER, PARAM, SLICE) and bool CONSTs read
// true/false.
std::string print_arg(const Arg& arg, DType node_dtype);
// Parse an arg written by print_arg (the whole text must be the arg); throws ParseError.
Arg parse_arg(std::string_view text, DType node_dtype);

}  // namespace onegrad
