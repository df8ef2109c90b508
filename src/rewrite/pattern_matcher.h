// PatternMatcher: an ordered table of named rules `pattern → rewrite`. Rules are indexed by the op
// of their root so a node is tried only against rules that can match it, and each pattern rejects
// on op, dtype, arg and source count before looking at sources.
#pragma once
#include <array>
#include <bitset>
#include <functional>
#include <string>
#include <vector>

#include "rewrite/upat.h"

namespace onegrad {

// What a rewrite function sees: the captures, the matched node, and the pass's context.
class Match {
 public:
  Match(const UOpRef& root, const Captures& caps, void* ctx) : root_(root), caps_(caps), ctx_(ctx) {}
  const UOpRef& operator[](const std::string& name) const { return caps_[name]; }
  bool has(const std::string& name) const { return caps_.has(name); }
  const UOpRef& root() const { return root_; }
  // The context given to graph_rewrite (InternalError when there is none).
  template <class T>
  T& ctx() const {
    check_ctx();
    return *static_cast<T*>(ctx_);
  }
  void* raw_ctx() const { return ctx_; }
  // In a parents-first rewrite: do not visit the sources of the returned node.
  void stop_descending() { stop_ = true; }
  bool stopped() const { return stop_; }

 private:
  void check_ctx() const;
  const UOpRef& root_;
  const Captures& caps_;
  void* ctx_;
  bool stop_ = false;
};

// A rewrite returns the replacement, or a null UOpRef to decline (the next rule is tried).
using RewriteFn = std::function<UOpRef(Match&)>;

struct Rule {
  std::string name;  // cited by traces and by non-termination reports
  UPat pattern;
  RewriteFn fn;
};

struct RuleHit {
  // Null when no rule rewrote the node. The node itself when a rule returned it unchanged and
  // called stop_descending (returning the node without stopping counts as declining).
  UOpRef result;
  const Rule* rule = nullptr;
  bool stop_descending = false;
};

class PatternMatcher {
 public:
  PatternMatcher() = default;
  explicit PatternMatcher(std::vector<Rule> rules);

  // Try the rules in order on `node`; the first that matches and returns a node wins.
  RuleHit rewrite(const UOpRef& node, void* ctx = nullptr) const;

  // The rules of `a` followed by those of `b`.
  friend PatternMatcher operator+(const PatternMatcher& a, const PatternMatcher& b);
  const std::vector<Rule>& rules() const { return rules_; }

 private:
  void build_index();
  std::vector<Rule> rules_;
  // For each op, the indices of the rules whose root can be that op, in table order.
  std::array<std::vector<uint32_t>, kNumOps> by_op_;
  // Per rule: ops that must appear among a node's sources for the rule to match (its written
  // sources that name a single op). Checked against the node's source ops before matching.
  std::vector<std::bitset<kNumOps>> needs_src_ops_;
};

}  // namespace onegrad
