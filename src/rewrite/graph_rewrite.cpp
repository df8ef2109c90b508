// graph_rewrite: the traversal that applies a PatternMatcher over a graph.
//
// The walk is an explicit stack of frames (a million-deep chain must not touch the C++ stack) and
// a memo from each node met to its final result, so a shared subgraph is rewritten once. A node
// goes Unseen → InProgress → Done. Rewriting a node into another one is a *link*: the node's
// result is whatever its replacement's result turns out to be.
//
// Non-termination shows up in two ways, both reported with the rules involved:
//  - a node that a rewrite needs is still InProgress (a rule produced a node whose result depends
//    on itself: a+b → b+a → a+b, or x → x+0);
//  - a chain of rewrites of one node grows past max_steps_per_node (a rule that keeps producing
//    new nodes, like a counter);
//  - the call as a whole applies more rules than its budget, which grows with the number of input
//    nodes visited (rules that keep growing the graph through new sources).
// Each link remembers the rule that made it (a parent-pointer list), which is what the report cites.
#include "rewrite/graph_rewrite.h"

#include <algorithm>
#include <unordered_set>

#include "rewrite/node_map.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

enum class State : uint8_t { Unseen, InProgress, Done };

struct NodeEntry {
  // Holds the key alive: a node a rule created mid-rewrite must not die while the memo lists it,
  // or a new node could reuse its address and hit a stale entry.
  UOpRef self;
  UOpRef result;       // when Done; null means "the node itself" (no count traffic for the common case)
  int32_t history = -1;  // the rewrites that led to this node's pending replacement
  State state = State::Unseen;
};

enum class Step : uint8_t {
  Visit,     // first meeting: rewrite (top-down) and/or schedule the sources
  AfterSrc,  // the sources are Done: rebuild and/or rewrite (bottom-up)
  Link,      // `target` is Done: its result is `node`'s result
};

struct Frame {
  const UOp* node;
  const UOp* target;    // Link only
  int32_t history;      // the rewrites that produced `node` (-1: none)
  uint32_t steps;       // how many rewrites in a row produced `node`
  Step step;
};

// One applied rule in a chain of rewrites; `prev` is the rewrite that produced the node it applied to.
struct HistoryEntry {
  const Rule* rule;
  int32_t prev;
};

class Rewriter {
 public:
  Rewriter(const PatternMatcher& pm, const RewriteOptions& opts)
      : pm_(pm), opts_(opts), first_new_serial_(UOp::serial_watermark()) {}

  UOpRef run(const UOpRef& root) {
    stack_.push_back(Frame{root.get(), nullptr, -1, 0, Step::Visit});
    while (!stack_.empty()) {
      Frame f = stack_.back();
      stack_.pop_back();
      switch (opts_.mode) {
        case RewriteMode::BottomUp: bottom_up(f); break;
        case RewriteMode::TopDown: top_down(f); break;
        case RewriteMode::SingleWalk: single_walk(f); break;
      }
    }
    return result_ref(*memo_.find(root.get()), root.get());
  }

 private:
  // ---- the three modes ----

  void bottom_up(const Frame& f) {
    switch (f.step) {
      case Step::Visit:
        if (!enter(f)) return;
        stack_.push_back(Frame{f.node, nullptr, f.history, f.steps, Step::AfterSrc});
        push_sources(f.node, f.history);
        return;
      case Step::AfterSrc: {
        if (UOpRef rebuilt = rebuild(f.node)) return replace(f.node, std::move(rebuilt), f.history, f.steps);
        NodeEntry* e = memo_.find(f.node);
        RuleHit hit = apply(e->self);  // no insertion into the memo before `e` is used again
        if (!hit.result || hit.result == f.node) return finish_unchanged(e);
        int32_t h = record(hit.rule, f.history, f.steps, f.node);
        return replace(f.node, std::move(hit.result), h, f.steps + 1);
      }
      case Step::Link: return link(f);
    }
  }

  void top_down(const Frame& f) {
    switch (f.step) {
      case Step::Visit: {
        NodeEntry* e = enter(f);
        if (!e) return;
        RuleHit hit = apply(e->self);
        if (hit.result == f.node) return finish_unchanged(e);  // stopped, unchanged
        if (hit.result) {
          int32_t h = record(hit.rule, f.history, f.steps, f.node);
          // Stopping takes the replacement as it is: neither it nor its sources are visited.
          if (hit.stop_descending) return finish(f.node, std::move(hit.result));
          return replace(f.node, std::move(hit.result), h, f.steps + 1);
        }
        stack_.push_back(Frame{f.node, nullptr, f.history, f.steps, Step::AfterSrc});
        push_sources(f.node, f.history);
        return;
      }
      case Step::AfterSrc:
        // New sources can enable rules at this node again: the rebuilt node is visited afresh.
        if (UOpRef rebuilt = rebuild(f.node)) return replace(f.node, std::move(rebuilt), f.history, f.steps);
        return finish_unchanged(memo_.find(f.node));
      case Step::Link: return link(f);
    }
  }

  void single_walk(const Frame& f) {
    switch (f.step) {
      case Step::Visit:
        if (!enter(f)) return;
        stack_.push_back(Frame{f.node, nullptr, -1, 0, Step::AfterSrc});
        push_sources(f.node, -1);
        return;
      case Step::AfterSrc: {
        UOpRef rebuilt = rebuild(f.node);
        NodeEntry* e = memo_.find(f.node);
        RuleHit hit = apply(rebuilt ? rebuilt : e->self);
        // Offered once: the replacement is the result, not visited again.
        if (hit.result) return finish(f.node, std::move(hit.result));
        if (rebuilt) return finish(f.node, std::move(rebuilt));
        return finish_unchanged(e);
      }
      case Step::Link: return;  // single walks never link
    }
  }

  // ---- shared steps ----

  // Start on a node; null when it is already Done (memoized). The entry stays valid until the next
  // insertion into the memo.
  NodeEntry* enter(const Frame& f) {
    NodeEntry& e = memo_.get(f.node);
    if (e.state == State::Done) return nullptr;
    if (e.state == State::InProgress) cycle(f.node, f.history, e.history);
    e.state = State::InProgress;
    e.history = f.history;
    if (!e.self) e.self = UOpRef::share(f.node);
    if (f.node->serial() < first_new_serial_) input_nodes_++;  // a node of the graph we were given
    return &e;
  }

  // Schedule the sources not yet Done, first source on top so it is rewritten first.
  void push_sources(const UOp* u, int32_t history) {
    for (size_t i = u->src.size(); i-- > 0;) {
      const UOp* s = u->src[i].get();
      if (NodeEntry* e = memo_.find(s)) {
        if (e->state == State::Done) continue;
        // A source still in progress is a node whose result would depend on itself.
        if (e->state == State::InProgress) cycle(s, history, e->history);
      }
      stack_.push_back(Frame{s, nullptr, -1, 0, Step::Visit});
    }
  }

  // `u` with its sources replaced by their results; null when no source changed. One memo lookup
  // per source; references are taken only when something changed.
  UOpRef rebuild(const UOp* u) {
    bool changed = false;
    scratch_.clear();
    for (const UOpRef& s : u->src) {
      const UOp* r = result_of(s.get());
      changed |= r != s.get();
      scratch_.push_back(r);
    }
    if (!changed) return nullptr;
    std::vector<UOpRef> src;
    src.reserve(scratch_.size());
    for (const UOp* r : scratch_) src.push_back(UOpRef::share(r));
    return u->with_src(std::move(src));
  }

  // Make `u`'s result that of `y`: at once when y is Done, after visiting y when it is new.
  void replace(const UOp* u, UOpRef y, int32_t history, uint32_t steps) {
    NodeEntry& ye = memo_.get(y.get());
    if (ye.state == State::Done) return finish(u, result_ref(ye, y.get()));
    if (ye.state == State::InProgress) cycle(y.get(), history, ye.history);
    const UOp* yp = y.get();
    ye.self = std::move(y);  // kept alive by the memo from here on
    memo_.find(u)->history = history;
    stack_.push_back(Frame{u, yp, history, steps, Step::Link});
    stack_.push_back(Frame{yp, nullptr, history, steps, Step::Visit});
  }

  void link(const Frame& f) {
    NodeEntry* t = memo_.find(f.target);
    if (!t || t->state != State::Done)
      throw InternalError("graph_rewrite '" + opts_.name + "': linked to a node that was not rewritten");
    finish(f.node, result_ref(*t, f.target));
  }

  void finish(const UOp* u, UOpRef result) {
    NodeEntry& e = memo_.get(u);
    if (!e.self) e.self = UOpRef::share(u);
    if (result.get() != u) e.result = std::move(result);
    e.state = State::Done;
  }
  void finish_unchanged(NodeEntry* e) { e->state = State::Done; }

  static UOpRef result_ref(const NodeEntry& e, const UOp* key) {
    return e.result ? e.result : UOpRef::share(key);
  }

  const UOp* result_of(const UOp* u) {
    NodeEntry* e = memo_.find(u);
    if (!e || e->state != State::Done)
      throw InternalError("graph_rewrite '" + opts_.name + "': a source was not rewritten before its user");
    return e->result ? e->result.get() : u;
  }

  RuleHit apply(const UOpRef& node) {
    RuleHit hit = pm_.rewrite(node, opts_.ctx);
    if (hit.result && hit.result != node && opts_.trace) opts_.trace->entries.push_back({hit.rule->name, node, hit.result});
    return hit;
  }

  // Note that `rule` rewrote a node produced by `history`; throws when the chain is too long or
  // the call is over its budget.
  int32_t record(const Rule* rule, int32_t history, uint32_t steps, const UOp* node) {
    history_.push_back(HistoryEntry{rule, history});
    int32_t h = int32_t(history_.size() - 1);
    size_t budget = opts_.rewrite_budget_base + opts_.rewrite_budget_per_input_node * input_nodes_;
    if (history_.size() > budget)
      throw RewriteError("graph_rewrite '" + opts_.name + "' does not terminate: " + std::to_string(history_.size()) +
                         " rewrites for " + std::to_string(input_nodes_) +
                         " input nodes (the graph keeps growing), most by rule(s): " + busiest_rules());
    if (steps + 1 > opts_.max_steps_per_node)
      throw RewriteError("graph_rewrite '" + opts_.name + "' does not terminate: " + node->brief() +
                         " was rewritten more than " + std::to_string(opts_.max_steps_per_node) +
                         " times in a row, by rule(s): " + rule_names({h}));
    return h;
  }

  [[noreturn]] void cycle(const UOp* u, int32_t h1, int32_t h2) {
    throw RewriteError("graph_rewrite '" + opts_.name + "' does not terminate: rewriting " + u->brief() +
                       " needs its own result (a cycle), by rule(s): " + rule_names({h1, h2}));
  }

  // The rules that fired most in this call, busiest first (at most three).
  std::string busiest_rules() const {
    std::vector<std::pair<size_t, const Rule*>> counts;
    for (const HistoryEntry& e : history_) {
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.second == e.rule; });
      if (it == counts.end()) counts.push_back({1, e.rule});
      else it->first++;
    }
    std::sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (size_t i = 0; i < counts.size() && i < 3; i++)
      out += (i ? ", " : "") + counts[i].second->name + " (" + std::to_string(counts[i].first) + ")";
    return out;
  }

  // The distinct rule names along some chains of rewrites, oldest first.
  std::string rule_names(std::initializer_list<int32_t> chains) const {
    std::vector<std::string> names;
    for (int32_t h : chains) {
      std::vector<std::string> chain;
      for (; h != -1; h = history_[size_t(h)].prev) chain.push_back(history_[size_t(h)].rule->name);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        if (std::find(names.begin(), names.end(), *it) == names.end()) names.push_back(*it);
    }
    if (names.empty()) return "(none recorded)";
    std::string out;
    for (size_t i = 0; i < names.size(); i++) out += (i ? ", " : "") + names[i];
    return out;
  }

  const PatternMatcher& pm_;
  const RewriteOptions& opts_;
  NodeMap<NodeEntry> memo_;
  std::vector<Frame> stack_;
  std::vector<HistoryEntry> history_;
  std::vector<const UOp*> scratch_;  // source results while rebuilding
  uint64_t first_new_serial_;         // nodes with a serial below it existed before this call
  size_t input_nodes_ = 0;            // input nodes visited so far
};

}  // namespace

UOpRef graph_rewrite(const UOpRef& root, const PatternMatcher& pm, const RewriteOptions& opts) {
  if (!root) throw InternalError("graph_rewrite '" + opts.name + "': null root");
  return Rewriter(pm, opts).run(root);
}

UOpRef rewrite_fixed_point(const UOpRef& node, const PatternMatcher& pm, const RewriteOptions& opts) {
  if (!node) throw InternalError("rewrite_fixed_point '" + opts.name + "': null node");
  UOpRef cur = node;
  std::vector<UOpRef> seen{node};  // also keeps every intermediate alive, so pointers stay unique
  std::unordered_set<const UOp*> seen_set{node.get()};
  std::vector<std::string> rules;
  auto names = [&] {
    std::vector<std::string> distinct;
    for (const std::string& r : rules)
      if (std::find(distinct.begin(), distinct.end(), r) == distinct.end()) distinct.push_back(r);
    std::string out;
    for (size_t i = 0; i < distinct.size(); i++) out += (i ? ", " : "") + distinct[i];
    return out;
  };
  for (;;) {
    RuleHit hit = pm.rewrite(cur, opts.ctx);
    if (!hit.result || hit.result == cur) return cur;
    if (opts.trace) opts.trace->entries.push_back({hit.rule->name, cur, hit.result});
    rules.push_back(hit.rule->name);
    if (rules.size() > opts.max_steps_per_node)
      throw RewriteError("rewrite_fixed_point '" + opts.name + "' does not terminate: " + node->brief() +
                         " was rewritten more than " + std::to_string(opts.max_steps_per_node) +
                         " times in a row, by rule(s): " + names());
    if (!seen_set.insert(hit.result.get()).second)
      throw RewriteError("rewrite_fixed_point '" + opts.name + "' does not terminate: " + node->brief() +
                         " is rewritten in a cycle, by rule(s): " + names());
    seen.push_back(hit.result);
    cur = std::move(hit.result);
  }
}

}  // namespace onegrad
