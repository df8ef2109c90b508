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
      std::vector<Rule> more = family();
      rules.insert(rules.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
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
