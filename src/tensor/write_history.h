// The autograd side of an in-place write (setitem, assign, add_ ...; docs/autograd.md "In-place
// writes"). A write changes a buffer, not a graph, so the graph a realized node stands for (its
// History) is updated by hand: after `target = value` through a view of node N, N's history is
//   WHERE(mask, placed, old)
// with placed/mask the value (and ones) carried from the target's shape back to N's by the adjoint
// of the view's movement ops (the gradient rules of RESHAPE, SHRINK, PERMUTE, ... applied to the
// value), and old the history N had, or N's buffer itself where there was none (the elements a
// write leaves are unchanged). The gradient of the write then follows from the rules: the written
// value gets the gradient of the region, the overwritten elements none.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

struct WriteHistory {
  // PyTorch's rule for leaves: while gradients are on, a leaf that requires grad and any view of
  // one refuse an in-place write (ArgumentError naming `op`).
  static void check_leaf(const Tensor& w, const std::string& op);
  // The new history of the node a write through `w` lands in, built from the graphs as they are
  // before the write (target: the view of w's buffer written; value: what is stored, of the
  // target's shape and dtype). Nothing when autograd has nothing to record.
  struct Pending {
    UOpRef node, graph;
  };
  static std::optional<Pending> prepare(const Tensor& w, const UOp* buffer, const Tensor& target,
                                        const Tensor& value);
  static void commit(const Pending& p) { record(p.node, p.graph); }
  // Lazy values moved from `buffer` onto its snapshot before a write keep the histories of the
  // nodes they read (the snapshot's views stand for what the buffer's views stood for).
  static void follow_snapshot(const UOp* buffer, const UOpRef& snapshot);
  // `like` (a view of a buffer) with the node directly over the buffer tagged: the same elements,
  // but not the nodes histories and leaves are recorded for. kOldValue marks a history's reference to the elements a
  // write left alone, kData the views .data/detach_() hand out.
  enum Tag : int64_t { kOldValue = -1001, kData = -1002 };
  static UOpRef untracked_view(const UOpRef& like, int64_t tag);
  // The histories: `node` (a realized view of a buffer) stands for `graph` when differentiating.
  // realize() records the lazy graph it replaced, a write the WHERE above. A history lasts as long
  // as its node: the registry holds the node weakly (it is dropped once no graph uses the node).
  static void record(const UOpRef& node, const UOpRef& graph);
  // The node that runs a write: AFTER(buffer, STORE(target, value)), the spec's assign. realize()
  // records no history for it (the write records its own, commit). Told by its STORE, not by a
  // tag: a tagged AFTER marks a graph as holding index checks (UOp::holds_tagged_after), which
  // the engine tests in O(1) before walking the graph.
  static UOpRef write_node(const UOp* buffer, const UOpRef& target, const UOpRef& value);
  static bool is_write(const UOp& u);
  static std::unordered_map<const UOp*, UOpRef> live();  // node -> graph
};

}  // namespace onegrad
