#include "uop/substitute.h"

namespace onegrad {

UOpRef substitute(const UOpRef& root, const Substitution& subst) {
  if (subst.empty()) return root;
  return substitute(root, subst, root->toposort());
}

UOpRef substitute(const UOpRef& root, const Substitution& subst, const std::vector<const UOp*>& order) {
  if (subst.empty()) return root;
  // Sources before users; a replaced node's sources are never read, so nothing below a
  // replacement is rebuilt. Only the nodes that change are recorded: one none of whose sources
  // changed is kept without copying its sources (most of a realize's graph, where only the paths
  // from its buffers up change: shape operands and cached aranges stay).
  std::unordered_map<const UOp*, UOpRef> changed;
  changed.reserve(subst.size() * 4);
  for (const UOp* n : order) {
    if (auto it = subst.find(n); it != subst.end()) {
      changed.emplace(n, it->second);
      continue;
    }
    bool any = false;
    for (const UOpRef& s : n->src)
      if (auto d = changed.find(s.get()); d != changed.end() && d->second != s) any = true;
    if (!any) continue;
    std::vector<UOpRef> new_src;
    new_src.reserve(n->src.size());
    for (const UOpRef& s : n->src) {
      auto d = changed.find(s.get());
      new_src.push_back(d != changed.end() ? d->second : s);
    }
    changed.emplace(n, n->with_src(std::move(new_src)));
  }
  auto it = changed.find(root.get());
  return it != changed.end() ? it->second : root;
}

}  // namespace onegrad
