// PatternMatcher: rules indexed by root op, tried in table order.
#include "rewrite/pattern_matcher.h"

#include <memory>

#include "uop/errors.h"

namespace onegrad {

void Match::check_ctx() const {
  if (!ctx_) throw InternalError("rewrite: a rule asked for the pass context, but graph_rewrite was given none");
}

PatternMatcher::PatternMatcher(std::vector<Rule> rules) : rules_(std::move(rules)) { build_index(); }

PatternMatcher operator+(const PatternMatcher& a, const PatternMatcher& b) {
  std::vector<Rule> rules = a.rules_;
  rules.insert(rules.end(), b.rules_.begin(), b.rules_.end());
  return PatternMatcher(std::move(rules));
}

void PatternMatcher::build_index() {
  for (auto& list : by_op_) list.clear();
  needs_src_ops_.assign(rules_.size(), {});
  for (uint32_t r = 0; r < rules_.size(); r++) {
    const UPat::Data& p = rules_[r].pattern.data();
    if (!rules_[r].fn) throw InternalError("rewrite: rule '" + rules_[r].name + "' has no rewrite function");
    // A root that allows any op can match every node: it goes in every list, in table order.
    if (p.ops.empty()) {
      for (auto& list : by_op_) list.push_back(r);
    } else {
      for (Ops o : p.ops)
        if (by_op_[size_t(o)].empty() || by_op_[size_t(o)].back() != r) by_op_[size_t(o)].push_back(r);
    }
    // A repeated source pattern needs nothing when there are no sources, so only written lists count.
    if (p.src && !p.repeat)
      for (const UPat& s : *p.src)
        if (s.data().ops.size() == 1) needs_src_ops_[r].set(size_t(s.data().ops[0]));
  }
}

namespace {

// Captures reused across match attempts so a failed attempt allocates nothing. A rule may itself run
// a rewrite (a nested pass), so each nesting level gets its own buffer.
struct CapturesPool {
  std::vector<std::unique_ptr<Captures>> buffers;
  size_t depth = 0;
};
thread_local CapturesPool t_pool;

struct PooledCaptures {
  Captures* caps;
  PooledCaptures() {
    if (t_pool.depth == t_pool.buffers.size()) t_pool.buffers.push_back(std::make_unique<Captures>());
    caps = t_pool.buffers[t_pool.depth++].get();
  }
  ~PooledCaptures() {
    caps->clear();  // drop the references now, keep the capacity
    t_pool.depth--;
  }
};

}  // namespace

RuleHit PatternMatcher::rewrite(const UOpRef& node, void* ctx) const {
  const std::vector<uint32_t>& candidates = by_op_[size_t(node->op)];
  if (candidates.empty()) return {};
  std::bitset<kNumOps> src_ops;
  for (const UOpRef& s : node->src) src_ops.set(size_t(s->op));

  PooledCaptures pooled;
  Captures& caps = *pooled.caps;
  for (uint32_t r : candidates) {
    if ((needs_src_ops_[r] & ~src_ops).any()) continue;
    const Rule& rule = rules_[r];
    caps.clear();
    if (!match(rule.pattern, node, caps)) continue;
    Match m(node, caps, ctx);
    UOpRef out = rule.fn(m);
    // Returning the node itself is "no change" (a decline), unless the rule asks to stop descending.
    if (out && (out != node || m.stopped())) return RuleHit{std::move(out), &rule, m.stopped()};
  }
  return {};
}

}  // namespace onegrad
