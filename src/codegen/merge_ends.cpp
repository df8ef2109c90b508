// merge_ends: Linearize wants one END per loop. Kernel form closes each STORE with its own chain
// of ENDs (docs/kernel-form.md), so two stores in one loop arrive as two ENDs of one RANGE.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "codegen/linearize.h"
#include "uop/errors.h"
#include "uop/range_axis.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// END(body, r1, r2, ...) -> END(END(body, r_inner), ..., r_outer)
UOpRef split_multi_range_ends(const UOpRef& sink) {
  Substitution subst;
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::END || u->src.size() <= 2) continue;
    std::vector<UOpRef> rs(u->src.begin() + 1, u->src.end());
    std::sort(rs.begin(), rs.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) > axis_id(b); });
    UOpRef e = u->src[0];
    for (const UOpRef& r : rs) e = UOp::create(Ops::END, dtypes::void_, {e, r});
    subst[u] = e;
  }
  // A split END's body may itself hold a split END: substitute() takes replacements as they are, so
  // repeat until none is left (each round removes the outermost ones).
  if (subst.empty()) return sink;
  return split_multi_range_ends(substitute(sink, subst));
}

void add_body(const UOpRef& body, std::vector<UOpRef>& bodies) {
  auto add = [&](const UOpRef& b) {
    if (std::find(bodies.begin(), bodies.end(), b) == bodies.end()) bodies.push_back(b);
  };
  if (body->op == Ops::GROUP) {
    for (const UOpRef& b : body->src) add(b);
  } else {
    add(body);
  }
}

}  // namespace

UOpRef merge_ends(const UOpRef& sink) {
  UOpRef g = split_multi_range_ends(sink);
  std::unordered_set<const UOp*> merged_ranges;
  // One range per round, the one whose ENDs come first in topological order (inner loops first:
  // merging them can make the outer ENDs identical, and interning then merges those for free).
  while (true) {
    std::unordered_map<const UOp*, std::vector<const UOp*>> ends;
    std::vector<const UOp*> order;
    for (const UOp* u : g->toposort()) {
      if (u->op != Ops::END || u->src.size() != 2) continue;
      auto& v = ends[u->src[1].get()];
      if (v.empty()) order.push_back(u->src[1].get());
      v.push_back(u);
    }
    auto it = std::find_if(order.begin(), order.end(), [&](const UOp* r) { return ends[r].size() > 1; });
    if (it == order.end()) return g;
    // One END's body uses another END of the same loop (a loop's result feeds the same loop): the
    // merge cannot remove it, and there is no order to run them in.
    if (!merged_ranges.insert(*it).second)
      throw InternalError("linearize: a result of loop RANGE r" + std::to_string(axis_id((*it)->ref())) +
                          " is used inside the same loop");
    std::vector<UOpRef> bodies;
    for (const UOp* e : ends[*it]) add_body(e->src[0], bodies);
    UOpRef body = bodies.size() == 1 ? bodies[0] : UOp::create(Ops::GROUP, dtypes::void_, bodies);
    UOpRef merged = UOp::create(Ops::END, dtypes::void_, {body, (*it)->ref()});
    Substitution subst;
    for (const UOp* e : ends[*it]) subst[e] = merged;
    g = substitute(g, subst);
  }
}

}  // namespace onegrad
