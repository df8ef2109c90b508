#include "codegen/decided_band.h"

#include <algorithm>

#include "symbolic/linear_sum.h"
#include "uop/range_axis.h"

namespace onegrad {

namespace {

bool uses(const UOp& e, const UOp* r) {
  if (&e == r) return true;
  for (const UOp* u : e.toposort())
    if (u == r) return true;
  return false;
}

i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }  // b > 0

}  // namespace

std::optional<std::pair<int64_t, int64_t>> undecided_band(const UOp& cmp, const UOp* r, int64_t n) {
  if (cmp.op != Ops::CMPLT || cmp.src.size() != 2 || !cmp.src[0]->dtype.is_int()) return std::nullopt;
  // a < b as d = b - a > 0, d = c*r + rest + constant
  std::optional<symbolic::LinearSum> a = symbolic::linear_sum(cmp.src[0]), b = symbolic::linear_sum(cmp.src[1]);
  if (!a || !b) return std::nullopt;
  i128 c = 0, lo = b->constant - a->constant, hi = lo;
  auto add = [&](const symbolic::Term& t, i128 sign) {
    i128 k = sign * t.coeff;
    if (t.base.get() == r) {
      c += k;
      return true;
    }
    if (uses(*t.base, r) || !t.base->dtype.is_int()) return false;
    i128 v0 = k * t.base->vmin().as_int(), v1 = k * t.base->vmax().as_int();
    lo += std::min(v0, v1);
    hi += std::max(v0, v1);
    return true;
  };
  for (const symbolic::Term& t : b->terms)
    if (!add(t, 1)) return std::nullopt;
  for (const symbolic::Term& t : a->terms)
    if (!add(t, -1)) return std::nullopt;
  if (c == 0) return std::nullopt;
  i128 from, to;  // the band [from, to) before clipping to [0, n)
  if (c > 0) {  // c*r + rest > 0: false through floor(-hi / c), true from floor(-lo / c) + 1
    from = floor_div(-hi, c) + 1;
    to = floor_div(-lo, c) + 1;
  } else {  // k*r < rest, k = -c: true below ceil(lo / k), false from ceil(hi / k)
    from = ceil_div(lo, -c);
    to = ceil_div(hi, -c);
  }
  from = std::clamp<i128>(from, 0, n);
  to = std::clamp<i128>(to, from, n);
  return std::pair<int64_t, int64_t>{int64_t(from), int64_t(to)};
}

std::pair<int64_t, int64_t> padding_middle(const UOpRef& body, const UOp* r, int64_t n) {
  int64_t lo = 0, hi = n;
  for (const UOp* u : body->toposort()) {
    if (u->op != Ops::CMPLT || !uses(*u, r)) continue;
    std::optional<std::pair<int64_t, int64_t>> band = undecided_band(*u, r, n);
    if (!band || band->first == band->second) continue;
    if (band->first == 0) lo = std::max(lo, band->second);
    else if (band->second == n) hi = std::min(hi, band->first);
  }
  return {lo, std::max(lo, hi)};
}

bool gate_splits_away(const UOp& gate, const std::vector<const UOp*>& loops) {
  std::vector<const UOp*> cmps;
  for (const UOp* u : gate.toposort()) {
    if (u->op == Ops::CMPLT) cmps.push_back(u);
    else if (u->op != Ops::AND && u->op != Ops::CONST && !u->dtype.is_int()) return false;  // a gate of other form
  }
  for (const UOp* cmp : cmps) {
    std::vector<const UOp*> in = cmp->toposort();
    if (std::none_of(in.begin(), in.end(), [](const UOp* u) { return u->op == Ops::RANGE && axis_type(*u) == AxisType::REDUCE; }))
      return false;
    bool decided_in_a_middle = false;
    for (const UOp* r : loops) {
      std::optional<int64_t> n = const_bound(*r);
      if (!n || !uses(*cmp, r)) continue;
      std::optional<std::pair<int64_t, int64_t>> band = undecided_band(*cmp, r, *n);
      if (band && band->first < band->second && (band->first == 0 || band->second == *n) &&
          band->second - band->first < *n)
        decided_in_a_middle = true;
    }
    if (!decided_in_a_middle) return false;
  }
  return !cmps.empty();
}

}  // namespace onegrad
