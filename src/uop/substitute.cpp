#include "uop/substitute.h"

namespace onegrad {

UOpRef substitute(const UOpRef& root, const Substitution& subst) {
  if (subst.empty()) return root;
  return substitute(root, subst, root->toposort());
}

UOpRef substitute(const UOpRef& root, const Substitution& subst, const std::vector<const UOp*>& order) {
  if (subst.empty()) return root;
  // Sources before users; a replaced node's sources are never read, so nothing below a
  // replacement is rebuilt.
  std::unordered_map<const UOp*, UOpRef> done;
  done.reserve(order.size());
  for (const UOp* n : order) {
    if (auto it = subst.find(n); it != subst.end()) {
      done[n] = it->second;
      continue;
    }
    std::vector<UOpRef> new_src;
    new_src.reserve(n->src.size());
    bool changed = false;
    for (const UOpRef& s : n->src) {
      auto d = done.find(s.get());
      new_src.push_back(d != done.end() ? d->second : s);
      changed |= new_src.back() != s;
    }
    done[n] = changed ? n->with_src(std::move(new_src)) : n->ref();
  }
  return done.at(root.get());
}

}  // namespace onegrad
