#include "schedule/fusion_cost.h"

#include <algorithm>
#include <cstdio>

#include "schedule/symbolic_index.h"

namespace onegrad {

namespace {

bool is_op(Ops op) { return is_alu(op) || op == Ops::CAST || op == Ops::BITCAST || op == Ops::REDUCE; }

std::string shape_text_of(const UOp* u) {
  auto d = const_dims(dims_of(u, "rangeify"));
  return d ? dims_str(*d) : shape_str(u->shape());
}

}  // namespace

std::string dims_str(const std::vector<int64_t>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); i++) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + (d.size() == 1 ? ",)" : ")");
}

int64_t fused_ops(const UOp* value, int64_t limit, const std::unordered_map<const UOp*, int>& buffers,
                  const std::unordered_set<const UOp*>& also_buffers) {
  std::unordered_set<const UOp*> seen;
  std::vector<const UOp*> stack{value};
  int64_t ops = 0;
  while (!stack.empty() && ops <= limit) {
    const UOp* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n != value && (buffers.count(n) || also_buffers.count(n))) continue;
    ops += is_op(n->op);
    for (const UOpRef& s : n->src) stack.push_back(s.get());
  }
  return ops;
}

namespace {

// Whether a value is read often enough per element for the transcendental rule to weigh it.
bool read_transcendental_times(double evaluations, int64_t elements) {
  return evaluations >= kTranscendentalUses * double(std::max<int64_t>(elements, 1));
}

// Whether recomputing a value with `count` transcendentals costs more than a buffer: the
// evaluations beyond one per element, each recomputing them all (fusion_cost.h).
bool transcendental_uses(double evaluations, int64_t elements, int64_t count) {
  double n = double(std::max<int64_t>(elements, 1));
  return count > 0 && read_transcendental_times(evaluations, elements) &&
         (evaluations - n) * double(count) >= kTranscendentalExtra;
}

// The EXP2, LOG2 and SIN nodes of the graph fused into a kernel with `value`, each once.
int64_t fused_transcendentals(const UOp* value, const std::unordered_map<const UOp*, int>& buffers,
                              const std::unordered_set<const UOp*>& also_buffers) {
  std::unordered_set<const UOp*> seen;
  std::vector<const UOp*> stack{value};
  int64_t count = 0;
  while (!stack.empty()) {
    const UOp* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n != value && (buffers.count(n) || also_buffers.count(n))) continue;
    count += n->op == Ops::EXP2 || n->op == Ops::LOG2 || n->op == Ops::SIN;
    for (const UOpRef& s : n->src) stack.push_back(s.get());
  }
  return count;
}

}  // namespace

const char* FusionCost::rule(const UOp* u, Uses& uses) const {
  double elements = double(std::max<int64_t>(uses.elements, 1));
  if (uses.evaluations <= elements) return nullptr;
  if (u->op == Ops::REDUCE) return "reduce_recomputed";
  if (uses.ops < 0) uses.ops = fused_ops(u, kRecomputedOps, realized_, {});
  if (uses.ops > kRecomputedOps) return "chain_recomputed";
  if (read_transcendental_times(uses.evaluations, uses.elements)) {
    if (uses.transcendentals < 0) uses.transcendentals = fused_transcendentals(u, realized_, {});
    if (transcendental_uses(uses.evaluations, uses.elements, uses.transcendentals)) return "transcendental_recomputed";
  }
  return nullptr;
}

void FusionCost::charge(const UOp* u, double evaluations) {
  auto [it, fresh] = uses_.try_emplace(u);
  // a symbolic dim counts its largest value: the fusion is the same for every value
  if (fresh) it->second.elements = upper_numel(dims_of(u, "rangeify"));
  it->second.evaluations += evaluations;
}

bool FusionCost::cut(const UOp* u, double evaluations) {
  auto it = uses_.find(u);
  if (it == uses_.end()) return false;  // its first use is lowered
  Uses more = it->second;
  more.evaluations += evaluations;
  if (!rule(u, more)) return false;
  it->second = more;
  return true;
}

std::vector<std::pair<const UOp*, std::string>> FusionCost::to_realize(
    const std::vector<const UOp*>& order) {
  std::vector<std::pair<const UOp*, std::string>> reduces, chains;
  for (auto& [u, uses] : uses_) {
    if (realized_.count(u)) continue;
    const char* why = rule(u, uses);
    if (!why) continue;
    bool transcendental = std::string(why) == "transcendental_recomputed";
    std::string what = u->op == Ops::REDUCE ? "REDUCE"
                       : !transcendental    ? std::string(op_name(u->op)) + " of over " + std::to_string(kRecomputedOps) + " ops"
                       : uses.transcendentals == 1
                           ? std::string(op_name(u->op)) + " of a transcendental"
                           : std::string(op_name(u->op)) + " of " + std::to_string(uses.transcendentals) + " transcendentals";
    char times[32];
    std::snprintf(times, sizeof times, "%.0f", uses.evaluations);
    (u->op == Ops::REDUCE ? reduces : chains)
        .emplace_back(u, what + " to " + shape_text_of(u) + " would be evaluated " + times +
                             " times for its " + std::to_string(uses.elements) + " elements if fused");
  }
  if (!reduces.empty()) return reduces;
  std::unordered_map<const UOp*, size_t> position;
  for (size_t i = 0; i < order.size(); i++) position[order[i]] = i;
  std::sort(chains.begin(), chains.end(),
            [&](const auto& a, const auto& b) { return position.at(a.first) < position.at(b.first); });
  std::unordered_set<const UOp*> chosen;
  std::vector<std::pair<const UOp*, std::string>> out;
  for (auto& c : chains) {
    bool over = fused_ops(c.first, kRecomputedOps, realized_, chosen) > kRecomputedOps;
    const Uses& uses = uses_.at(c.first);
    bool transcendental = read_transcendental_times(uses.evaluations, uses.elements) &&
                          transcendental_uses(uses.evaluations, uses.elements, fused_transcendentals(c.first, realized_, chosen));
    if (!over && !transcendental) continue;
    chosen.insert(c.first);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace onegrad
