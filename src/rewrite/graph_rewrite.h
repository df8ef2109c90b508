// graph_rewrite: apply a PatternMatcher over a whole graph, in one of three traversal modes. All
// modes are iterative (an explicit stack, never recursion) and memoized (each distinct node is
// rewritten once per call), so deep graphs and shared subgraphs cost no more than their size.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "rewrite/pattern_matcher.h"

namespace onegrad {

enum class RewriteMode {
  // Children first, to a fixed point: sources are rewritten before their users, and every node a
  // rule returns is itself rewritten again (and its new sources too) until no rule applies.
  BottomUp,
  // Parents first: a node is rewritten (to a fixed point at the root) before its sources are
  // visited; a rule may call Match::stop_descending() to leave the sources of its result alone.
  TopDown,
  // One walk, children first: each node is offered to the rules once; results are not revisited.
  SingleWalk,
};

// One rewrite that happened: which rule turned which node into which.
struct TraceEntry {
  std::string rule;
  UOpRef before;
  UOpRef after;
};

struct RewriteTrace {
  std::vector<TraceEntry> entries;
  std::string str() const;  // one line per entry: "rule: BEFORE -> AFTER" in brief form
};

struct RewriteOptions {
  RewriteMode mode = RewriteMode::BottomUp;
  void* ctx = nullptr;              // handed to every rewrite function (Match::ctx)
  RewriteTrace* trace = nullptr;    // when set, every applied rule is recorded
  std::string name = "graph_rewrite";  // the pass's name, for error messages
  // A node rewritten more than this many times in a row is taken as a cycle: RewriteError names
  // the rules involved instead of hanging.
  size_t max_steps_per_node = 1000;
  // Rules that keep growing the graph through new *sources* rewrite each new node only once, so
  // the per-node limit never trips. The whole call may apply at most
  //   rewrite_budget_base + rewrite_budget_per_input_node * (nodes of the input graph visited)
  // rules; past that RewriteError names the rules that fired most. Real passes apply a few rules
  // per input node.
  size_t rewrite_budget_base = 1000000;
  size_t rewrite_budget_per_input_node = 100;
};

// Rewrite the graph under `root`; returns the new root (the same node when nothing applied).
UOpRef graph_rewrite(const UOpRef& root, const PatternMatcher& pm, const RewriteOptions& opts = {});

// Apply `pm` to a single node until no rule applies (no traversal of sources).
UOpRef rewrite_fixed_point(const UOpRef& node, const PatternMatcher& pm, const RewriteOptions& opts = {});

}  // namespace onegrad
