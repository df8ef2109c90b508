// linearize: order each loop's contents (its own nodes and its inner loops, as units) by their
// dependencies, then write the loops out inside one another. Iterative: a deep graph or a deep
// loop nest uses no recursion.
#include "codegen/linearize.h"

#include <queue>
#include <tuple>
#include <unordered_map>

#include "codegen/loop_structure.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// An item of a loop's body: a node placed in it, or an inner loop as a whole. Items are numbered
// nodes first (by position), then loops (n + loop number).
struct Items {
  const LoopStructure& ls;
  size_t n;
  explicit Items(const LoopStructure& l) : ls(l), n(l.nodes.size()) {}

  // Where node i sits as an item: (enclosing loop, item). A RANGE or END stands for its whole loop.
  std::pair<int, size_t> place(uint32_t i) const {
    Ops op = ls.nodes[i]->op;
    if (op == Ops::RANGE || op == Ops::END) {
      int l = ls.loop_of[i];
      return {ls.parent[l], n + size_t(l)};
    }
    return {ls.loop_of[i], i};
  }
  int depth(int loop) const { return loop == LoopStructure::kBody ? 0 : ls.depth[loop]; }
  // Lift (loop, item) one level: the item becomes the loop it is in.
  void lift(int& loop, size_t& item) const {
    item = n + size_t(loop);
    loop = ls.parent[loop];
  }
};

// Ties between ready items: definitions first (buffer PARAMs by slot, then variables, then
// register buffers), then the kernel's own topological order (a loop by its RANGE's position).
using Priority = std::tuple<int, int64_t>;

Priority priority(const Items& it, size_t item) {
  const LoopStructure& ls = it.ls;
  if (item >= it.n) return {3, int64_t(ls.position.at(ls.range[item - it.n]))};
  const UOp* u = ls.nodes[item];
  if (u->op == Ops::PARAM) {
    const ParamArg& p = u->arg.get<ParamArg>();
    return {u->dtype.is_ptr ? 0 : 1, p.slot};
  }
  if (u->op == Ops::BUFFER) return {2, int64_t(item)};
  return {3, int64_t(item)};
}

// The order of every loop body's items (index kBody + 1 is the kernel body).
std::vector<std::vector<size_t>> order_items(const LoopStructure& ls) {
  Items it(ls);
  const size_t total = it.n + ls.range.size();
  std::vector<std::vector<size_t>> succ(total);
  std::vector<uint32_t> indegree(total, 0);
  std::vector<int> home(total);  // the loop each item belongs to
  std::vector<bool> present(total, false);
  for (uint32_t i = 0; i < it.n; i++) {
    auto [loop, item] = it.place(i);
    home[item] = loop;
    present[item] = true;
  }
  for (uint32_t i = 0; i < it.n; i++) {
    const UOp* u = ls.nodes[i];
    if (u->op == Ops::PARAM) continue;
    for (const UOpRef& s : u->src) {
      auto [ul, ui] = it.place(i);
      auto [sl, si] = it.place(ls.position.at(s.get()));
      while (it.depth(ul) > it.depth(sl)) it.lift(ul, ui);
      while (it.depth(sl) > it.depth(ul)) it.lift(sl, si);
      while (ul != sl) {
        it.lift(ul, ui);
        it.lift(sl, si);
      }
      if (ui == si) continue;  // inside one inner loop: ordered there
      succ[si].push_back(ui);
      indegree[ui]++;
    }
  }
  // Kahn's algorithm per loop body, smallest priority first.
  std::vector<std::vector<size_t>> bodies(ls.range.size() + 1);
  using Entry = std::pair<Priority, size_t>;
  std::vector<std::priority_queue<Entry, std::vector<Entry>, std::greater<>>> ready(ls.range.size() + 1);
  size_t placed = 0, wanted = 0;
  for (size_t item = 0; item < total; item++) {
    if (!present[item]) continue;
    wanted++;
    if (indegree[item] == 0) ready[home[item] + 1].push({priority(it, item), item});
  }
  for (size_t b = 0; b < ready.size(); b++) {
    while (!ready[b].empty()) {
      size_t item = ready[b].top().second;
      ready[b].pop();
      bodies[b].push_back(item);
      placed++;
      for (size_t v : succ[item])
        if (--indegree[v] == 0) ready[home[v] + 1].push({priority(it, v), v});
    }
  }
  if (placed != wanted) {
    for (size_t item = 0; item < total; item++) {
      if (!present[item] || indegree[item] == 0) continue;
      const UOp* u = item < it.n ? ls.nodes[item] : ls.range[item - it.n];
      throw InternalError("linearize: the kernel's loops cannot be ordered (a cycle through " + u->brief() +
                          "): a loop's result is used inside that loop");
    }
  }
  return bodies;
}

// Writes instructions out, rebuilding a node whose sources were rewritten on the way (a gated
// STORE becomes IF, STORE, ENDIF; its users then name the new STORE).
struct Emitter {
  std::vector<UOpRef> out;
  std::unordered_map<const UOp*, UOpRef> replaced;
  int64_t ifs = 0;

  UOpRef renamed(const UOp* u) {
    if (u->op == Ops::PARAM) return u->ref();
    std::vector<UOpRef> src;
    bool changed = false;
    for (const UOpRef& s : u->src) {
      auto r = replaced.find(s.get());
      changed |= r != replaced.end();
      src.push_back(r != replaced.end() ? r->second : s);
    }
    return changed ? u->with_src(std::move(src)) : u->ref();
  }

  void emit(const UOp* u) {
    UOpRef v = renamed(u);
    if (v->op == Ops::STORE && v->src.size() == 3) {  // STORE(addr, value, gate)
      UOpRef cond = UOp::create(Ops::IF, dtypes::void_, {v->src[2]}, Arg(ifs++));
      UOpRef st = UOp::create(Ops::STORE, dtypes::void_, {v->src[0], v->src[1]});
      out.push_back(cond);
      out.push_back(st);
      out.push_back(UOp::create(Ops::ENDIF, dtypes::void_, {cond}));
      replaced[u] = st;
      return;
    }
    if (v.get() != u) replaced[u] = v;
    out.push_back(std::move(v));
  }
};

}  // namespace

UOpRef linearize(const UOpRef& sink) {
  UOpRef g = merge_ends(sink);
  LoopStructure ls = analyze_loops(g);
  std::vector<std::vector<size_t>> bodies = order_items(ls);
  const size_t n = ls.nodes.size();
  Emitter em;
  // Frames of (loop, next item); a finished loop writes its END.
  std::vector<std::pair<int, size_t>> stack{{LoopStructure::kBody, 0}};
  while (!stack.empty()) {
    auto& [loop, next] = stack.back();
    const std::vector<size_t>& body = bodies[loop + 1];
    if (next == body.size()) {
      if (loop != LoopStructure::kBody) em.emit(ls.end[loop]);
      stack.pop_back();
      continue;
    }
    size_t item = body[next++];
    if (item < n) {
      em.emit(ls.nodes[item]);
    } else {
      int inner = int(item - n);
      em.emit(ls.range[inner]);
      stack.push_back({inner, 0});
    }
  }
  return UOp::create(Ops::LINEAR, dtypes::void_, std::move(em.out));
}

}  // namespace onegrad
