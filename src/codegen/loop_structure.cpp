// analyze_loops: ranges(u) for every node (interned sets, one pass in each direction), the loop
// tree from the ENDs, and each node's loop. Iterative throughout: deep graphs are fine.
#include "codegen/loop_structure.h"

#include <algorithm>
#include <unordered_set>

#include "codegen/range_sets.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

[[noreturn]] void fail(const std::string& why) { throw InternalError("linearize: " + why); }

std::string range_name(const UOp* r) { return "RANGE r" + std::to_string(r->arg.get<RangeArg>().id); }

// Post-order from the SINK, not descending into a PARAM's shape operand.
std::vector<const UOp*> kernel_nodes(const UOpRef& sink) {
  return sink->toposort([](const UOp& u) { return u.op != Ops::PARAM; });
}

// The body-like sources through which an END's loops reach the side effects inside it.
bool passes_loops_down(Ops op) { return op == Ops::END || op == Ops::GROUP || op == Ops::SINK; }

}  // namespace

int LoopStructure::loop_number(const UOp* range_node) const { return loop_of[position.at(range_node)]; }

LoopStructure analyze_loops(const UOpRef& sink) {
  LoopStructure ls;
  ls.nodes = kernel_nodes(sink);
  const size_t n = ls.nodes.size();
  for (uint32_t i = 0; i < n; i++) ls.position.emplace(ls.nodes[i], i);
  std::vector<int> loop_of_range(n, -1);
  for (uint32_t i = 0; i < n; i++) {
    if (ls.nodes[i]->op != Ops::RANGE) continue;
    loop_of_range[i] = int(ls.range.size());
    ls.range.push_back(ls.nodes[i]);
  }
  const size_t nl = ls.range.size();
  auto loop_at = [&](const UOp* r) { return uint32_t(loop_of_range[ls.position.at(r)]); };

  RangeSets sets;
  // Loops forced on side effects by the ENDs around them: users before sources.
  std::vector<RangeSets::Id> forced(n, RangeSets::kEmpty);
  for (size_t i = n; i-- > 0;) {
    const UOp* u = ls.nodes[i];
    if (!passes_loops_down(u->op)) continue;
    RangeSets::Id down = forced[i];
    if (u->op == Ops::END) {
      if (u->src.size() != 2 || u->src[1]->op != Ops::RANGE) fail("END must be (body, range): " + u->brief());
      down = sets.with(down, loop_at(u->src[1].get()));
      uint32_t b = ls.position.at(u->src[0].get());
      forced[b] = sets.unite(forced[b], down);
    } else {
      for (const UOpRef& s : u->src) {
        uint32_t b = ls.position.at(s.get());
        forced[b] = sets.unite(forced[b], down);
      }
    }
  }
  // ranges(u): sources before users.
  std::vector<RangeSets::Id> ranges(n, RangeSets::kEmpty);
  for (uint32_t i = 0; i < n; i++) {
    const UOp* u = ls.nodes[i];
    RangeSets::Id r = RangeSets::kEmpty;
    if (u->op != Ops::PARAM)
      for (const UOpRef& s : u->src) r = sets.unite(r, ranges[ls.position.at(s.get())]);
    if (u->op == Ops::RANGE) r = sets.with(r, loop_of_range[i]);
    if (u->op == Ops::STORE) r = sets.unite(r, forced[i]);
    if (u->op == Ops::END) {
      uint32_t l = loop_at(u->src[1].get());
      r = sets.without(r, l);
      if (ls.end.size() < nl) ls.end.resize(nl, nullptr);
      if (ls.end[l] != nullptr) fail(range_name(u->src[1].get()) + " has two ENDs (merge_ends first)");
      ls.end[l] = u;
    }
    ranges[i] = r;
  }
  ls.end.resize(nl, nullptr);

  // The loop tree: the ranges open around END(body, r) enclose r, and must form one chain.
  std::vector<RangeSets::Id> outer(nl);
  for (size_t l = 0; l < nl; l++) {
    if (!ls.end[l]) fail(range_name(ls.range[l]) + " is never closed by an END");
    outer[l] = ranges[ls.position.at(ls.end[l])];
  }
  // Nesting is transitive: a loop inside r is inside every loop around r too, even when nothing in
  // it reads those ranges (a reduction whose body depends only on an inner loop).
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t l = 0; l < nl; l++)
      for (uint32_t p : std::vector<uint32_t>(sets.members(outer[l]).begin(), sets.members(outer[l]).end())) {
        RangeSets::Id closed = sets.unite(outer[l], outer[p]);
        if (closed != outer[l]) outer[l] = closed, changed = true;
      }
  }
  ls.parent.assign(nl, LoopStructure::kBody);
  ls.depth.assign(nl, 0);
  for (size_t l = 0; l < nl; l++) {
    ls.depth[l] = int(sets.size(outer[l])) + 1;
    for (uint32_t p : sets.members(outer[l])) {
      if (sets.size(outer[p]) + 1 != sets.size(outer[l])) continue;
      if (sets.with(outer[p], p) != outer[l]) break;
      ls.parent[l] = int(p);
    }
    if (sets.size(outer[l]) > 0 && ls.parent[l] == LoopStructure::kBody) {
      std::string names;
      for (uint32_t p : sets.members(outer[l])) names += " " + range_name(ls.range[p]);
      fail("the loops around " + range_name(ls.range[l]) + " (" + names.substr(1) + ") do not nest in one order");
    }
  }

  // Placement: the innermost loop of ranges(u), which must hold all of ranges(u).
  ls.loop_of.assign(n, LoopStructure::kBody);
  for (uint32_t i = 0; i < n; i++) {
    const UOp* u = ls.nodes[i];
    if (u->op == Ops::RANGE) {
      ls.loop_of[i] = loop_of_range[i];
      continue;
    }
    if (u->op == Ops::END) {
      ls.loop_of[i] = int(loop_at(u->src[1].get()));
      continue;
    }
    const auto& rs = sets.members(ranges[i]);
    if (rs.empty()) continue;
    uint32_t inner = *std::max_element(rs.begin(), rs.end(), [&](uint32_t a, uint32_t b) { return ls.depth[a] < ls.depth[b]; });
    if (!sets.subset(ranges[i], sets.with(outer[inner], inner))) {
      std::string names;
      for (uint32_t r : rs) names += " " + range_name(ls.range[r]);
      fail(u->brief() + " depends on loops that do not nest (" + names.substr(1) + ")");
    }
    ls.loop_of[i] = int(inner);
  }
  // A RANGE's bound is computed outside its loop.
  for (size_t l = 0; l < nl; l++) {
    RangeSets::Id bound = ranges[ls.position.at(ls.range[l]->src[0].get())];
    if (!sets.subset(bound, outer[l]))
      fail("the bound of " + range_name(ls.range[l]) + " depends on a loop that does not enclose it");
  }
  return ls;
}

}  // namespace onegrad
