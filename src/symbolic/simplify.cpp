// symbolic_rules(): the rule families in order, and simplify(): one bottom-up rewrite to a fixed point.
#include "symbolic/simplify.h"

#include "symbolic/rules.h"

namespace onegrad {

const PatternMatcher& symbolic_rules() {
  static const PatternMatcher pm = [] {
    std::vector<Rule> rules;
    for (auto family : {symbolic::fold_constant_rules, symbolic::lower_decomposed_rules, symbolic::identity_rules,
                        symbolic::fold_interval_rules, symbolic::canonical_order_rules, symbolic::fold_divmod_rules,
                        symbolic::fold_compare_rules}) {
      for (Rule& r : family()) {
        // Index math is scalar. On a shaped (tensor-level) node a fold could replace it by a
        // shape-() CONST or by a source of another shape, so the rules leave those nodes alone.
        r.pattern = r.pattern.where([](const UOp& u) { return u.has_shape() && u.shape().empty(); });
        rules.push_back(std::move(r));
      }
    }
    return PatternMatcher(std::move(rules));
  }();
  return pm;
}

UOpRef simplify(const UOpRef& expr, RewriteTrace* trace) {
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.trace = trace;
  opts.name = "simplify";
  return graph_rewrite(expr, symbolic_rules(), opts);
}

}  // namespace onegrad
