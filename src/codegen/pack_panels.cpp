#include "codegen/pack_panels.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "codegen/kernel_axes.h"
#include "codegen/vector_lanes.h"
#include "symbolic/simplify.h"
#include "uop/range_axis.h"
#include "uop/settings.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// Fewer re-reads than this do not pay for the copy: det's 1x1 convs re-reading a panel 4 or 5
// times ran 2-9% slower packed, rec's re-reading it 10 to 40 times 1-38% faster.
constexpr int64_t kMinReuse = 8;
// A smaller slice (a depthwise conv's 3x3 or 5x5 weights, a few channels' rows) is a handful of
// cache lines: what it could lose to conflicts does not pay for a copy per iteration (a threshold,
// not a measurement per kernel).
constexpr int64_t kMinPanelBytes = 2048;

bool by_id(const UOp* a, const UOp* b) { return axis_id(*a) < axis_id(*b); }

std::vector<const UOp*> ranges_of(const UOpRef& e) {
  std::vector<const UOp*> out;
  for (const UOp* u : e->toposort())
    if (u->op == Ops::RANGE) out.push_back(u);
  std::sort(out.begin(), out.end(), by_id);
  return out;
}

// b - a when the simplifier folds it to a constant.
std::optional<int64_t> difference(const UOpRef& a, const UOpRef& b) {
  UOpRef diff = simplify(UOp::alu(Ops::ADD, {b, UOp::alu(Ops::MUL, {a, UOp::index(-1)})}));
  if (!diff->is_const()) return std::nullopt;
  return int64_t(diff->const_value().as_int());
}

bool is_reduction(const UOp& u) { return u.op == Ops::REDUCE && u.arg.is<ReduceArg>() && !is_scan(u); }

// The REDUCEs of the kernel: which closes each range, and the ranges each one's value varies with
// (those it reads that no REDUCE inside it closes): the loops it is re-run in.
struct Reductions {
  std::unordered_map<const UOp*, const UOp*> closer;
  std::unordered_map<const UOp*, std::vector<const UOp*>> open;

  explicit Reductions(const UOpRef& sink) {
    for (const UOp* u : sink->toposort())
      if (is_reduction(*u))
        for (size_t i = 1; i < u->src.size(); i++) closer[u->src[i].get()] = u;
  }
  const std::vector<const UOp*>& open_ranges(const UOp* red) {
    auto it = open.find(red);
    if (it != open.end()) return it->second;
    std::unordered_set<const UOp*> closed;
    std::vector<const UOp*> nodes = red->toposort(), out;
    for (const UOp* u : nodes)
      if (is_reduction(*u))
        for (size_t i = 1; i < u->src.size(); i++) closed.insert(u->src[i].get());
    for (const UOp* u : nodes)
      if (u->op == Ops::RANGE && !closed.count(u)) out.push_back(u);
    return open[red] = out;
  }
};

// One panel: the loads of one buffer, inside one outermost REDUCE, whose addresses vary with the
// same ranges and differ by constants.
struct Panel {
  const UOp* param = nullptr;
  const UOp* top = nullptr;
  std::vector<const UOp*> inner, outer;  // I and O of the header, by id
  UOpRef base;                           // the first load's address (lane 0)
  std::vector<const UOp*> loads;
  std::vector<int64_t> offsets, lanes;   // per load: c_j (from `base`) and k_j
  DType dtype;
};

// The address of lane 0 of a global LOAD, or nullptr for a load the pass leaves alone.
UOpRef global_address(const UOp& u) {
  if (u.op != Ops::LOAD || u.src.size() != 1 || u.src[0]->op != Ops::INDEX || u.src[0]->src.size() != 2) return nullptr;
  if (u.src[0]->src[0]->op != Ops::PARAM || (u.dtype != dtypes::float32 && u.dtype != dtypes::float64)) return nullptr;
  return vector_lanes(u) > 1 ? contiguous_base(u.src[0]->src[1]) : u.src[0]->src[1];
}

// The loads' panel candidates, before the size and reuse checks.
std::vector<Panel> group_loads(const UOpRef& sink, Reductions& reds) {
  std::vector<Panel> panels;
  for (const UOp* u : sink->toposort()) {
    UOpRef base = global_address(*u);
    if (!base) continue;
    Panel p;
    for (const UOp* r : ranges_of(base)) (reds.closer.count(r) ? p.inner : p.outer).push_back(r);
    if (p.inner.empty()) continue;
    p.top = reds.closer.at(p.inner.front());
    std::vector<const UOp*> in_top = p.top->toposort();
    bool nested = std::all_of(p.inner.begin(), p.inner.end(), [&](const UOp* r) {
      return std::find(in_top.begin(), in_top.end(), reds.closer.at(r)) != in_top.end();
    });
    if (!nested) continue;
    p.param = u->src[0]->src[0].get();
    int64_t k = vector_lanes(*u);
    auto same = std::find_if(panels.begin(), panels.end(), [&](const Panel& q) {
      return q.param == p.param && q.top == p.top && q.inner == p.inner && q.outer == p.outer && q.dtype == u->dtype &&
             difference(q.base, base).has_value();
    });
    if (same != panels.end()) {
      same->loads.push_back(u);
      same->offsets.push_back(*difference(same->base, base));
      same->lanes.push_back(k);
      continue;
    }
    p.base = base;
    p.loads = {u};
    p.offsets = {0};
    p.lanes = {k};
    p.dtype = u->dtype;
    panels.push_back(std::move(p));
  }
  return panels;
}

// The panel's layout: rows (I's iterations) of `width` elements from `first`.
struct Layout {
  int64_t rows = 1, first = 0, width = 0;
  std::vector<int64_t> row_strides;  // per inner range, in rows
};

std::optional<Layout> layout(const Panel& p) {
  Layout l;
  int64_t end = 0;
  l.first = *std::min_element(p.offsets.begin(), p.offsets.end());
  for (size_t j = 0; j < p.loads.size(); j++) end = std::max(end, p.offsets[j] + p.lanes[j]);
  l.width = end - l.first;
  l.row_strides.assign(p.inner.size(), 0);
  for (size_t i = p.inner.size(); i-- > 0;) {
    std::optional<int64_t> n = const_bound(*p.inner[i]);
    if (!n) return std::nullopt;
    l.row_strides[i] = l.rows;
    l.rows *= *n;
  }
  return l;
}

// How many times the top REDUCE re-reads the panel: the loops it runs in that the address does
// not vary with, nested inside all of O.
int64_t reuse(const Panel& p, Reductions& reds) {
  int64_t outer_id = -1, n = 1;
  for (const UOp* r : p.outer) outer_id = std::max(outer_id, axis_id(*r));
  for (const UOp* r : reds.open_ranges(p.top)) {
    if (axis_id(*r) <= outer_id || axis_type(*r) == AxisType::THREAD) continue;
    if (std::find(p.outer.begin(), p.outer.end(), r) != p.outer.end()) continue;
    std::optional<int64_t> b = const_bound(*r);
    n *= b ? *b : kMinReuse;
  }
  return n;
}

// Whether the loads' rows already lie one after another in memory, as the panel would hold them.
bool dense(const Panel& p, const Layout& l) {
  for (size_t i = 0; i < p.inner.size(); i++) {
    Substitution step;
    step[p.inner[i]] = UOp::alu(Ops::ADD, {p.inner[i]->ref(), UOp::index(1)});
    if (difference(p.base, substitute(p.base, step)) != l.row_strides[i] * l.width) return false;
  }
  return true;
}

// Whether most of a row would be elements no load reads (the lanes of a block of a's rows, a row
// of k apart): the panel would copy mostly what is never read.
bool sparse(const Panel& p, const Layout& l) {
  std::vector<bool> read(size_t(l.width), false);
  for (size_t j = 0; j < p.loads.size(); j++)
    for (int64_t i = 0; i < p.lanes[j]; i++) read[size_t(p.offsets[j] - l.first + i)] = true;
  return 2 * std::count(read.begin(), read.end(), true) < l.width;
}

UOpRef access(const UOpRef& memory, DType ptr, const UOpRef& base, int64_t k) {
  return UOp::create(Ops::INDEX, ptr, {memory, k > 1 ? contiguous_index(base, k) : base});
}

UOpRef row_index(const std::vector<UOpRef>& ranges, const Layout& l) {
  UOpRef row = UOp::index(0);
  for (size_t i = 0; i < ranges.size(); i++) row = UOp::alu(Ops::ADD, {row, UOp::alu(Ops::MUL, {ranges[i], UOp::index(l.row_strides[i])})});
  return UOp::alu(Ops::MUL, {row, UOp::index(l.width)});
}

// The panel's buffer filled, and each load rewritten to read it (see the header).
void pack(const Panel& p, const Layout& l, int64_t buffer_id, int64_t& next_range, Substitution& out) {
  DType ptr = p.dtype.ptr(AddrSpace::LOCAL);
  UOpRef pan = UOp::create(Ops::BUFFER, ptr, {}, BufferArg{buffer_id, l.rows * l.width, p.dtype, Device(), AddrSpace::LOCAL});
  Substitution fresh;
  std::vector<UOpRef> fill_ranges, inner;
  for (const UOp* r : p.inner) {
    fill_ranges.push_back(UOp::range(*const_bound(*r), next_range++, AxisType::LOOP));
    fresh[r] = fill_ranges.back();
    inner.push_back(r->ref());
  }
  UOpRef from = substitute(p.base, fresh), to = row_index(fill_ranges, l);
  std::vector<UOpRef> stores;
  // Widest segments first, and none whose elements a copied one already holds (a window's scalar
  // loads at the lanes of its vector load are copied by the vector's copy).
  std::vector<size_t> order(p.loads.size());
  for (size_t j = 0; j < order.size(); j++) order[j] = j;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p.lanes[x] > p.lanes[y]; });
  std::vector<bool> held(size_t(l.width), false);
  const UOp& first = *p.loads.front();
  for (size_t j : order) {
    auto lane = [&](int64_t i) { return held.begin() + (p.offsets[j] - l.first + i); };
    if (std::all_of(lane(0), lane(p.lanes[j]), [](bool h) { return h; })) continue;
    std::fill(lane(0), lane(p.lanes[j]), true);
    UOpRef src = access(first.src[0]->src[0], first.src[0]->dtype, simplify(UOp::alu(Ops::ADD, {from, UOp::index(p.offsets[j])})), p.lanes[j]);
    UOpRef value = UOp::create(Ops::LOAD, p.dtype, {src}, first.arg);
    UOpRef dst = access(pan, ptr, simplify(UOp::alu(Ops::ADD, {to, UOp::index(p.offsets[j] - l.first)})), p.lanes[j]);
    stores.push_back(UOp::create(Ops::STORE, dtypes::void_, {dst, value}));
  }
  UOpRef body = stores.size() == 1 ? stores[0] : UOp::create(Ops::GROUP, dtypes::void_, stores);
  UOpRef filled = UOp::create(Ops::AFTER, ptr, {pan, close_in_order(body, fill_ranges)});
  UOpRef row = row_index(inner, l);
  for (size_t j = 0; j < p.loads.size(); j++) {
    UOpRef at = simplify(UOp::alu(Ops::ADD, {row, UOp::index(p.offsets[j] - l.first)}));
    out[p.loads[j]] = UOp::create(Ops::LOAD, p.dtype, {access(filled, ptr, at, p.lanes[j])}, p.loads[j]->arg);
  }
}

}  // namespace

UOpRef pack_panels(const UOpRef& sink, const Capabilities& target) {
  if (target.panel_bytes <= 0 || setting("PACK_PANELS", 1) == 0) return sink;
  Reductions reds(sink);
  if (reds.closer.empty()) return sink;
  std::vector<Panel> panels = group_loads(sink, reds);
  // A buffer the kernel also writes is read where it is read: a copy made earlier could miss a store.
  std::unordered_set<const UOp*> written;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::STORE && u->src[0]->op == Ops::INDEX) written.insert(u->src[0]->src[0].get());
  int64_t bytes = 0, buffer_id = 0, next_range = next_range_id(sink);
  Substitution out;
  for (const Panel& p : panels) {
    std::optional<Layout> l = layout(p);
    if (written.count(p.param) || !l || l->rows < 2 || reuse(p, reds) < kMinReuse || sparse(p, *l) || dense(p, *l)) continue;
    int64_t size = l->rows * l->width * int64_t(p.dtype.itemsize());
    if (size < kMinPanelBytes || bytes + size > target.panel_bytes) continue;
    bytes += size;
    pack(p, *l, buffer_id++, next_range, out);
  }
  return out.empty() ? sink : substitute(sink, out);
}

}  // namespace onegrad
