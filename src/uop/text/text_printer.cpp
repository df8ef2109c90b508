// The graph printer: every node reachable from the roots, once, sources before users, numbered
// %0, %1, ... in that order. Iterative, so a 100k-deep chain prints without deep recursion.
#include <unordered_map>

#include "uop/text/arg_text.h"
#include "uop/errors.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

// Post-order over several roots with one shared `seen` set, so shared nodes print once.
std::vector<const UOp*> toposort_roots(std::span<const UOpRef> roots, std::unordered_map<const UOp*, size_t>& ids) {
  std::vector<const UOp*> order;
  std::vector<std::pair<const UOp*, size_t>> stack;
  auto visit = [&](const UOp* u) {
    if (ids.emplace(u, SIZE_MAX).second) stack.push_back({u, 0});
  };
  for (const UOpRef& root : roots) {
    if (!root) throw InternalError("print_graph: a root is null");
    visit(root.get());
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next < u->src.size()) {
        visit(u->src[next++].get());  // may reallocate `stack`: the references above are not reused
        continue;
      }
      ids[u] = order.size();
      order.push_back(u);
      stack.pop_back();
    }
  }
  return order;
}

void write_ref(std::string& out, size_t id) {
  out += '%';
  out += std::to_string(id);
}

}  // namespace

std::string print_graph(std::span<const UOpRef> roots) {
  std::unordered_map<const UOp*, size_t> ids;
  std::vector<const UOp*> order = toposort_roots(roots, ids);
  std::string out;
  out.reserve(order.size() * 40);
  for (size_t i = 0; i < order.size(); i++) {
    const UOp* u = order[i];
    write_ref(out, i);
    out += " = ";
    out += op_name(u->op);
    out += ' ';
    out += u->dtype.name();
    if (!u->src.empty()) {
      out += " (";
      for (size_t s = 0; s < u->src.size(); s++) {
        if (s) out += ", ";
        write_ref(out, ids.at(u->src[s].get()));
      }
      out += ')';
    }
    if (!u->arg.is_none()) {
      out += ' ';
      write_arg(out, u->arg, u->dtype);
    }
    if (u->tag) out += " tag=" + std::to_string(*u->tag);
    out += '\n';
  }
  if (roots.size() != 1) {
    out += "roots";
    for (size_t r = 0; r < roots.size(); r++) {
      out += r ? ", " : " ";
      write_ref(out, ids.at(roots[r].get()));
    }
    out += '\n';
  }
  return out;
}

std::string print_graph(const UOpRef& root) { return print_graph(std::span<const UOpRef>(&root, 1)); }

}  // namespace onegrad
