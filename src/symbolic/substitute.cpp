#include "symbolic/substitute.h"

#include "rewrite/graph_rewrite.h"

namespace onegrad::symbolic {

UOpRef substitute(const UOpRef& e, const Substitution& subst) {
  if (subst.empty()) return e;
  // Parents first, matching the original nodes; a replacement is taken as it is (its sources are
  // not visited), so x -> x' and x' -> x can coexist in one substitution.
  static const PatternMatcher pm({{"substitute", UPat::any(), [](Match& m) -> UOpRef {
                        const auto& s = m.ctx<const Substitution>();
                        auto it = s.find(m.root().get());
                        if (it == s.end()) return nullptr;
                        m.stop_descending();
                        return it->second;
                      }}});
  RewriteOptions opts;
  opts.mode = RewriteMode::TopDown;
  opts.ctx = const_cast<Substitution*>(&subst);
  opts.name = "substitute";
  return graph_rewrite(e, pm, opts);
}

}  // namespace onegrad::symbolic
