// Callify's memo. The graphs of repeated calls of one op on new data (a setitem into a fresh
// tensor, an index_select of other rows of the same shape) differ only in their BUFFER leaves and
// the nodes above them, and callify gives all of them the same FUNCTION body. Callify rebuilds
// every node above a buffer to find that body (one interned create each); the memo finds it by
// comparing the graph, node for node, with the graph that first made it.
//
// An entry keeps the body and a description of the graph that made it (ops, args, the places of
// sources, the sizes and dtypes of its buffers, the nodes no buffer is under), never a BUFFER: no
// buffer is kept alive by the memo. Graphs with variables (symbolic dims), traced placeholders or
// FUNCTIONs go to callify itself. The setting CALLIFY_MEMO=0 callifies every graph afresh.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "schedule/callify.h"

namespace onegrad {

// What callify(outputs) gives: the same body, buffers and variable values.
Callified callify_memo(std::span<const UOpRef> outputs);

struct CallifyMemoStats {
  uint64_t hits = 0, misses = 0;  // misses: graphs callified afresh and kept
  size_t kept = 0;                // entries kept now (bounded)
};
CallifyMemoStats callify_memo_stats();

}  // namespace onegrad
