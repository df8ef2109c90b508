#include "uop/resolve_function.h"

#include <unordered_map>

#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

bool is_placeholder(const UOp* u) {
  return u->op == Ops::PARAM && u->arg.is<ParamArg>() && u->arg.get<ParamArg>().name.empty();
}

namespace {

bool is_function(const UOp* u) { return u->op == Ops::FUNCTION && !u->src.empty() && u->src[0]->op == Ops::TUPLE; }

// The TUPLE of a FUNCTION whose body (already free of nested FUNCTIONs) has its PARAMs replaced by
// the (resolved) arguments.
UOpRef apply(const UOp* fn, const UOpRef& body, const std::vector<UOpRef>& args) {
  Substitution subst;
  for (const UOp* n : body->toposort()) {
    if (!is_placeholder(n)) continue;
    int64_t slot = n->arg.get<ParamArg>().slot;
    if (slot < 0 || size_t(slot) >= args.size())
      throw VerifyError("FUNCTION: PARAM " + std::to_string(slot) + " has no argument (" +
                        std::to_string(args.size()) + " given) in " + fn->brief());
    subst.emplace(n, args[size_t(slot)]);
  }
  return substitute(body, subst);
}

}  // namespace

UOpRef resolve_functions(const UOpRef& root) {
  if (!root->holds_function()) return root;  // the common case, without a walk
  std::vector<const UOp*> order = root->toposort();
  bool any = false;
  for (const UOp* u : order) any = any || is_function(u);
  if (!any) return root;
  // Sources first: a FUNCTION's body and arguments are resolved before the GETTUPLEs that read it.
  std::unordered_map<const UOp*, UOpRef> done;
  std::unordered_map<const UOp*, UOpRef> applied;  // FUNCTION -> its substituted TUPLE
  auto resolved = [&](const UOpRef& u) -> const UOpRef& {
    auto it = done.find(u.get());
    return it != done.end() ? it->second : u;
  };
  for (const UOp* n : order) {
    if (n->op == Ops::GETTUPLE && is_function(n->src[0].get())) {
      const UOp* fn = n->src[0].get();
      auto [it, fresh] = applied.try_emplace(fn);
      if (fresh) {
        std::vector<UOpRef> args;
        for (size_t k = 1; k < fn->src.size(); k++) args.push_back(resolved(fn->src[k]));
        it->second = apply(fn, resolved(fn->src[0]), args);
      }
      int64_t i = n->arg.get<int64_t>();
      if (i < 0 || size_t(i) >= it->second->src.size())
        throw VerifyError("GETTUPLE: element " + std::to_string(i) + " of a FUNCTION returning " +
                          std::to_string(it->second->src.size()));
      done[n] = it->second->src[size_t(i)];
      continue;
    }
    std::vector<UOpRef> src;
    bool changed = false;
    for (const UOpRef& s : n->src) {
      src.push_back(resolved(s));
      changed = changed || src.back() != s;
    }
    if (changed) done[n] = n->with_src(std::move(src));
  }
  return resolved(root);
}

}  // namespace onegrad
