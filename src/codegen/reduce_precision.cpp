#include "codegen/reduce_precision.h"

#include <algorithm>
#include <map>
#include <optional>

#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

int64_t largest_divisor(int64_t n, int64_t limit) {
  for (int64_t d = std::min(n, limit); d > 1; d--)
    if (n % d == 0) return d;
  return 1;
}

// How one reduce axis of bound n is split: `pad` (a PADTO multiple, 0 for none) first, then the
// GROUP_REDUCE factors, outermost first; what they leave is the axis's part of the innermost chunk.
struct AxisPlan {
  int64_t pad = 0;
  std::vector<int64_t> groups;
  int64_t chunk = 1;  // the plain REDUCE part left inside the levels
};

int64_t smallest_prime_factor(int64_t n) {
  for (int64_t d = 2; d * d <= n; d++)
    if (n % d == 0) return d;
  return n;
}

// Levels for bound n whose innermost part may hold up to `chunk_limit` elements; nullopt when a
// prime factor of n exceeds both limits (no level can be cut there), unless `long_levels`: then
// such a factor is a level of its own, longer than kLevelTerms.
std::optional<AxisPlan> levels_for(int64_t n, int64_t chunk_limit, bool long_levels = false) {
  AxisPlan p;
  p.chunk = largest_divisor(n, chunk_limit);
  for (int64_t m = n / p.chunk; m > 1;) {
    int64_t d = largest_divisor(m, kLevelTerms);
    if (d == 1 && !long_levels) return std::nullopt;
    if (d == 1) d = smallest_prime_factor(m);
    p.groups.insert(p.groups.begin(), d);
    m /= d;
  }
  return p;
}

// The rule's error bound for a plan, in ulps: the lengths of the chains it adds summed, the
// innermost chunk (`inner` elements of the axes inside this one per step) and every level.
int64_t chain_lengths(const AxisPlan& p, int64_t inner) {
  int64_t n = p.chunk * inner;
  for (int64_t g : p.groups) n += g;
  return n;
}

AxisPlan plan_axis(int64_t n, int64_t chunk_limit, int64_t inner) {
  if (std::optional<AxisPlan> p = levels_for(n, chunk_limit)) return *p;
  // Pad to a multiple of the smallest power of two m with ceil(n/m) <= kLevelTerms: every factor of
  // the padded bound is then at most kLevelTerms, and the m - 1 extra iterations at most add n/8.
  int64_t m = 1;
  while ((n + m - 1) / m > kLevelTerms) m *= 2;
  AxisPlan padded = *levels_for((n + m - 1) / m * m, chunk_limit);
  padded.pad = m;
  // A level longer than kLevelTerms instead, when the chains add up to no more than the padded
  // plan's (a conv's 129 input channels inside its 3 taps: 43 partial sums of 9 elements, 52 in
  // all, where the padding made 8 of 54): the error bound is no worse, and no iteration is masked
  // (the masks cost the loop its vector code and its fused multiply-adds).
  AxisPlan unpadded = *levels_for(n, chunk_limit, true);
  return chain_lengths(unpadded, inner) <= chain_lengths(padded, inner) ? unpadded : padded;
}

bool float_sum(const UOp& u) { return u.op == Ops::REDUCE && u.arg.is<ReduceArg>() && u.arg.get<ReduceArg>().op == Ops::ADD && u.dtype.is_float(); }

}  // namespace

std::vector<Opt> precision_opts(const UOpRef& optimized) {
  std::vector<UOpRef> axes = kernel_axes(optimized);
  std::map<size_t, AxisPlan> plans;  // by axis position
  for (const UOp* u : optimized->toposort()) {
    if (!float_sum(*u)) continue;
    std::vector<UOpRef> ranges(u->src.begin() + 1, u->src.end());
    int64_t terms = 1, unrolled = 1;
    for (const UOpRef& r : ranges) {
      int64_t b = const_bound(r).value_or(kChunkTerms + 1);  // a symbolic bound may be long
      terms = std::min(terms * b, kChunkTerms * kChunkTerms);
      if (axis_type(r) == AxisType::UNROLL) unrolled *= b;
    }
    if (terms <= kChunkTerms) continue;
    std::sort(ranges.begin(), ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) > axis_id(b); });
    // Innermost axis first: each takes what is left of the chunk's budget; once an axis is cut into
    // levels, the axes outside it are levels only (a plain axis there would lengthen its level).
    int64_t budget = std::max<int64_t>(1, kChunkTerms / unrolled), inner = unrolled;
    for (const UOpRef& r : ranges) {
      std::optional<int64_t> n = const_bound(r);
      if (axis_type(r) != AxisType::REDUCE || !n) continue;
      size_t pos = size_t(std::find(axes.begin(), axes.end(), r) - axes.begin());
      AxisPlan p = plan_axis(*n, budget, inner);
      bool plain = p.groups.empty() && p.pad == 0;
      budget = plain ? budget / p.chunk : 1;
      inner *= plain ? p.chunk : 1;
      plans.emplace(pos, p);
    }
  }
  std::vector<Opt> opts;
  // From the last axis to the first: a split shifts only the positions after it.
  for (auto it = plans.rbegin(); it != plans.rend(); ++it) {
    int64_t a = int64_t(it->first);
    const AxisPlan& p = it->second;
    if (p.pad) opts.push_back(Opt::padto(a, p.pad));
    for (size_t i = 0; i < p.groups.size(); i++) opts.push_back(Opt::split(a + int64_t(i), p.groups[i], AxisType::GROUP_REDUCE, true));
  }
  return opts;
}

}  // namespace onegrad
