#include "schedule/kernel_builder.h"

#include <algorithm>

#include "schedule/fold_reduce.h"
#include "schedule/scan_rules.h"
#include "schedule/symbolic_index.h"
#include "schedule/view_rules.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "uop/range_axis.h"
#include "uop/reduce_identity.h"
#include "uop/variable.h"

namespace onegrad {

namespace {

UOpRef zero_of(DType dt) { return UOp::const_int(dt, 0); }

}  // namespace

size_t KernelBuilder::KeyHash::operator()(const Key& k) const {
  size_t h = std::hash<const void*>{}(k.node) ^ (std::hash<const void*>{}(k.valid) * 31);
  for (const UOp* u : k.idx) h = h * 1000003u ^ std::hash<const void*>{}(u);
  return h;
}

KernelBuilder::KernelBuilder(const std::unordered_map<const UOp*, int>& realized,
                             const std::vector<ScheduleBuffer>& buffers, FusionCost& cost)
    : realized_(realized), buffers_(buffers), cost_(cost) {}

KernelBuilder::Key KernelBuilder::key_of(const Request& r) {
  Key k{r.node, {}, r.valid.get()};
  for (const UOpRef& e : r.idx) k.idx.push_back(e.get());
  return k;
}

UOpRef KernelBuilder::param(int buffer) {
  auto it = params_.find(buffer);
  if (it != params_.end()) return it->second;
  const ScheduleBuffer& b = buffers_[size_t(buffer)];
  DType ptr = b.dtype.ptr(AddrSpace::GLOBAL);
  int64_t slot = int64_t(slots_.size());
  ParamArg arg{slot, ptr, Device(), AddrSpace::GLOBAL, "", std::nullopt, std::nullopt};
  // a buffer of a symbolic size is declared with its size expression: the same kernel for every value
  UOpRef shape = b.symbolic_size ? UOp::shape_operand(Shape{b.symbolic_size}) : UOp::shape_operand(std::vector<int64_t>{b.size});
  UOpRef p = UOp::create(Ops::PARAM, ptr, {shape}, Arg(std::move(arg)));
  slots_.push_back(buffer);
  params_[buffer] = p;
  return p;
}

UOpRef KernelBuilder::new_range(const UOpRef& bound, AxisType type) { return UOp::range(bound, next_range_++, type); }

// A load whose every index the ranges can reach lies inside its (static) buffer needs no gate to
// be safe, and the view that padded it masks the value (plan_view): ungated, a per-channel
// operand of a padded elementwise body (BatchNorm's scale, a bias) is loop-invariant in the inner
// loops, which the C compiler then hoists, and no longer blocks their vectorization.
bool KernelBuilder::in_bounds(int buffer, const UOpRef& flat) const {
  const ScheduleBuffer& b = buffers_[size_t(buffer)];
  if (b.symbolic_size || !flat->dtype.is_int()) return false;
  return flat->vmin().as_int() >= 0 && flat->vmax().as_int() < b.size;
}

UOpRef KernelBuilder::load(int buffer, const Shape& shape, const IndexVec& idx, const UOpRef& valid) {
  DType dt = buffers_[size_t(buffer)].dtype;
  UOpRef gate = simplify(valid);
  // Never read (all padding): no load, and no PARAM slot either, so the kernel's slots are exactly
  // the buffers it touches.
  if (gate->is_const() && !gate->const_value().truthy()) return zero_of(dt);
  UOpRef p = param(buffer);
  UOpRef flat = simplify(flatten_index(idx, shape));
  UOpRef addr = UOp::create(Ops::INDEX, p->dtype, {p, flat});
  if (is_true(gate) || in_bounds(buffer, flat)) return UOp::create(Ops::LOAD, dt, {addr});
  return UOp::create(Ops::LOAD, dt, {addr, zero_of(dt), gate});  // padding reads 0 (spec README: PAD)
}

KernelBuilder::Plan KernelBuilder::plan_reduce(const Request& r) {
  const UOp* u = r.node;
  const ReduceArg& ra = u->arg.get<ReduceArg>();
  Shape in_shape = dims_of(u->src[0].get(), "rangeify");
  auto is_const = [&](int64_t axis, i128 v) {
    const UOpRef& d = in_shape[size_t(axis)];
    return d->is_const() && d->const_value().as_int() == v;
  };
  // Reducing over no elements gives the identity; its source is never evaluated (no loop of
  // bound 0 around it, and nothing read from an empty buffer).
  for (int64_t axis : ra.axes)
    if (is_const(axis, 0)) {
      UOpRef identity = reduce_identity(ra.op, u->dtype);
      return Plan{{}, [identity](const std::vector<UOpRef>&) { return identity; }};
    }
  IndexVec child_idx = r.idx;
  // Its source runs inside the loops the REDUCE is placed in (codegen hoists it out of the loops
  // further in that its index does not read) and its own: a softmax's sum is once per row, not
  // once per element of the row it divides.
  std::vector<UOpRef> scope(r.scope.begin(), r.scope.begin() + std::ptrdiff_t(depth_of(r))), ranges;
  for (int64_t axis : ra.axes) {
    if (is_const(axis, 1)) {
      child_idx[size_t(axis)] = UOp::index(0);
      continue;
    }
    UOpRef rng = new_range(in_shape[size_t(axis)], AxisType::REDUCE);
    child_idx[size_t(axis)] = rng;
    ranges.push_back(rng);
    scope.push_back(rng);
  }
  Ops op = ra.op;
  DType dt = u->dtype;
  // Charged to the cost model only while it stays a loop (lower()): a reduction that fold_reduce
  // removes (an arange, a one-hot gather) costs nothing.
  return Plan{{Request{u->src[0].get(), std::move(child_idx), r.valid, std::move(scope)}},
              [op, dt, ranges](const std::vector<UOpRef>& v) {
                if (ranges.empty()) return v[0];
                std::vector<UOpRef> src{v[0]};
                src.insert(src.end(), ranges.begin(), ranges.end());
                UOpRef reduce = UOp::create(Ops::REDUCE, dt, std::move(src), ReduceArg{op, {}});
                UOpRef folded = fold_reduce_enabled() ? fold_reduce(reduce) : reduce;
                // A prefix window left becomes a scan (scan_rules.h): n work, not n^2. The REDUCEs
                // inside it were offered to the rules when they were made (the walk is bottom-up).
                if (fold_reduce_enabled() && folded->op == Ops::REDUCE) folded = scan_from_window(folded);
                return folded;
              },
              evaluations_of(r),
              [&ranges] {
                std::vector<const UOp*> w;
                for (const UOpRef& rng : ranges) w.push_back(rng.get());
                return w;
              }()};
}

const std::vector<const UOp*>& KernelBuilder::ranges_of(const UOpRef& e) {
  auto it = ranges_of_.find(e.get());
  if (it == ranges_of_.end()) {
    std::vector<const UOp*> ranges;
    for (const UOp* n : e->toposort())
      if (n->op == Ops::RANGE) ranges.push_back(n);
    it = ranges_of_.emplace(e.get(), std::move(ranges)).first;
  }
  return it->second;
}

size_t KernelBuilder::depth_of(const Request& r) {
  size_t depth = 0;
  auto deepen = [&](const UOpRef& e) {
    const std::vector<const UOp*>& ranges = ranges_of(e);
    for (size_t i = depth; i < r.scope.size(); i++)
      if (std::find(ranges.begin(), ranges.end(), r.scope[i].get()) != ranges.end()) depth = i + 1;
  };
  for (const UOpRef& e : r.idx) deepen(e);
  deepen(r.valid);
  return depth;
}

double KernelBuilder::evaluations_of(const Request& r) {
  size_t depth = depth_of(r);
  double evaluations = 1;
  // a loop to a variable counts its largest value: the same fusion for every value
  for (size_t i = 0; i < depth; i++) evaluations *= double(r.scope[i]->src[0]->vmax().as_int());
  return evaluations;
}

KernelBuilder::Plan KernelBuilder::plan_view(const Request& r) {
  ViewWalk walk{r.valid, UOp::const_bool(true), [this](const UOp* n) { return n != root_ && realized_.count(n); }};
  UOpRef e = index_through_views(r.node, r.idx, walk);
  if (e->src[0].get() == r.node) throw InternalError("rangeify: no view rule reads through " + r.node->brief());
  UOpRef padding = walk.padding, valid = walk.valid;
  DType dt = r.node->dtype;
  // Inside the padding the value is 0. A load gated by the same validity already reads 0 there;
  // anything else (a constant, exp(x)...) is masked.
  return Plan{{Request{e->src[0].get(), indices_of(e), valid, r.scope}},
              [padding, valid, dt](const std::vector<UOpRef>& v) {
                if (is_true(padding)) return v[0];
                if (v[0]->op == Ops::LOAD && v[0]->src.size() == 3 && v[0]->src[2] == valid) return v[0];
                return where(padding, v[0], zero_of(dt));
              }};
}

KernelBuilder::Plan KernelBuilder::plan(const Request& r) {
  const UOp* u = r.node;
  if (u != root_) {
    auto it = realized_.find(u);
    if (it != realized_.end()) {
      UOpRef v = load(it->second, dims_of(u, "rangeify"), r.idx, r.valid);
      return Plan{{}, [v](const std::vector<UOpRef>&) { return v; }};
    }
  }
  // A value the cost model realizes is not lowered again: this kernel is built again once it is.
  bool costed = u->op == Ops::REDUCE || is_alu(u->op) || u->op == Ops::CAST || u->op == Ops::BITCAST;
  if (costed && u != root_ && cost_.cut(u, evaluations_of(r))) {
    UOpRef placeholder = zero_of(u->dtype);
    return Plan{{}, [placeholder](const std::vector<UOpRef>&) { return placeholder; }};
  }
  if (is_view(*u)) return plan_view(r);
  switch (u->op) {
    case Ops::CONST: {
      UOpRef c = u->ref();
      return Plan{{}, [c](const std::vector<UOpRef>&) { return c; }};
    }
    case Ops::REDUCE: return plan_reduce(r);
    case Ops::PARAM:
      if (is_variable(u)) {  // a variable (mean's count over a symbolic dim): the kernel's own argument
        UOpRef var = u->ref();
        return Plan{{}, [var](const std::vector<UOpRef>&) { return var; }};
      }
      break;
    default:
      if (is_alu(u->op) || u->op == Ops::CAST || u->op == Ops::BITCAST) {
        Plan p;
        for (const UOpRef& s : u->src) p.children.push_back(Request{s.get(), r.idx, r.valid, r.scope});
        Ops op = u->op;
        DType dt = u->dtype;
        Arg arg = u->arg;
        p.combine = [op, dt, arg](const std::vector<UOpRef>& v) { return UOp::create(op, dt, v, arg); };
        p.evaluations = evaluations_of(r);
        return p;
      }
  }
  throw InternalError("rangeify: no rule lowers " + std::string(op_name(u->op)) + " (" + u->brief() + ")");
}

UOpRef KernelBuilder::lower(Request root) {
  struct Frame {
    Request req;
    Key key;
    Plan plan;
    bool planned = false;
    size_t next = 0;
    size_t pending_from = 0;  // pending_ charges made below this frame start here
  };
  std::vector<Frame> stack;
  std::vector<size_t> open_windows;  // the frames of the windows being lowered, outermost first
  Key root_key = key_of(root);
  stack.push_back(Frame{std::move(root), root_key, {}, false, 0, 0});
  while (!stack.empty()) {
    size_t top = stack.size() - 1;
    if (memo_.count(stack[top].key)) {
      stack.pop_back();
      continue;
    }
    if (!stack[top].planned) {
      stack[top].plan = plan(stack[top].req);
      stack[top].planned = true;
      lowered_++;
      stack[top].pending_from = pending_.size();
      if (!stack[top].plan.window.empty()) open_windows.push_back(top);
      for (const UOpRef& e : stack[top].req.idx) keep_alive_.push_back(e);
      keep_alive_.push_back(stack[top].req.valid);
    }
    Frame& f = stack[top];
    if (f.next < f.plan.children.size()) {
      Request child = f.plan.children[f.next++];
      Key ck = key_of(child);
      if (!memo_.count(ck)) stack.push_back(Frame{std::move(child), std::move(ck), {}, false, 0, 0});
      continue;
    }
    std::vector<UOpRef> values;
    for (const Request& c : f.plan.children) values.push_back(memo_.at(key_of(c)));
    UOpRef value = f.plan.combine(values);
    // A window that became a scan took the windows left inside it along: those that are prefix
    // windows of the same loop are scans now, one accumulator step per iteration like an
    // elementwise op (they cost nothing); the others are evaluated once per iteration of the
    // scan, no longer once per element of the window. Their charges are lowered to that.
    if (!f.plan.window.empty() && value->op == Ops::REDUCE && is_scan(*value) && f.pending_from < pending_.size()) {
      std::vector<const UOp*> kept = value->toposort();
      for (size_t i = f.pending_from; i < pending_.size(); i++) {
        Pending& p = pending_[i];
        double now = p.evaluations;
        if (std::find(kept.begin(), kept.end(), p.value.get()) == kept.end()) now = 0;
        for (const UOp* k : f.plan.window)
          if (std::find(p.outer.begin(), p.outer.end(), k) != p.outer.end()) now /= double(*const_bound(*k));
        cost_.charge(p.node, now - p.evaluations);
        p.evaluations = now;
      }
    }
    // Charged at once, as if the windows around it stay windows: cut() must see every use lowered
    // so far, or a value used twice inside a window is lowered again at each use, and its sources
    // too (2^depth lowerings, fusion_cost.h). A window inside windows is remembered, to be charged
    // less should one of them become a scan.
    if (f.plan.evaluations >= 0 && (f.req.node->op != Ops::REDUCE || value->op == Ops::REDUCE)) {
      cost_.charge(f.req.node, f.plan.evaluations);
      if (value->op == Ops::REDUCE && !is_scan(*value)) {
        std::vector<const UOp*> outer;
        auto reads = [&](const UOp* k) {
          for (const UOpRef& e : f.req.idx)
            if (std::find(ranges_of(e).begin(), ranges_of(e).end(), k) != ranges_of(e).end()) return true;
          return false;
        };
        for (size_t i : open_windows)
          if (i < top)
            for (const UOp* k : stack[i].plan.window)
              if (reads(k)) outer.push_back(k);
        if (!outer.empty()) pending_.push_back(Pending{f.req.node, value, f.plan.evaluations, std::move(outer)});
      }
    }
    if (!open_windows.empty() && open_windows.back() == top) open_windows.pop_back();
    memo_[f.key] = std::move(value);
    stack.pop_back();
  }
  pending_.clear();
  return memo_.at(root_key);
}

ScheduledKernel KernelBuilder::build(const UOp* root, int out) {
  root_ = root;
  Shape shape = dims_of(root, "rangeify");
  UOpRef out_param = param(out);  // slot 0: the buffer the kernel writes
  IndexVec idx;
  std::vector<UOpRef> loops;
  open_loops(shape, idx, loops);
  UOpRef value = lower(Request{root, idx, UOp::const_bool(true), loops});
  UOpRef addr = UOp::create(Ops::INDEX, out_param->dtype, {out_param, simplify(flatten_index(idx, shape))});
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {addr, value});
  // Windows left that are prefix windows of a loop run backwards: the loop reversed, scans (the
  // output's addresses are distinct, so the order of its writes is free).
  if (fold_reduce_enabled()) store = scans_from_reversed_windows(store);
  return kernel_of(store, loops);
}

void KernelBuilder::open_loops(const Shape& shape, IndexVec& idx, std::vector<UOpRef>& loops) {
  for (const UOpRef& d : shape) {
    if (d->is_const() && d->const_value().as_int() == 1) {
      idx.push_back(UOp::index(0));
    } else {
      loops.push_back(new_range(d, AxisType::LOOP));
      idx.push_back(loops.back());
    }
  }
}

ScheduledKernel KernelBuilder::kernel_of(UOpRef store, const std::vector<UOpRef>& loops) {
  for (size_t i = loops.size(); i-- > 0;) store = UOp::create(Ops::END, dtypes::void_, {store, loops[i]});
  return ScheduledKernel{UOp::create(Ops::SINK, dtypes::void_, {store}), slots_, ""};
}

ScheduledKernel KernelBuilder::build_store(const UOp* store) {
  root_ = store;
  const UOp* target = store->src[0].get();
  const UOp* value = store->src[1].get();
  IndexVec idx;
  std::vector<UOpRef> loops;
  open_loops(dims_of(value, "rangeify"), idx, loops);
  // The element of the buffer that element idx of the target view is: the walk a load does.
  ViewWalk walk{UOp::const_bool(true), UOp::const_bool(true), [this](const UOp* n) { return realized_.count(n) > 0; }};
  UOpRef element = index_through_views(target, idx, walk);
  const UOp* base = element->src[0].get();
  if (!realized_.count(base)) throw InternalError("rangeify: STORE target is not a view of a buffer: " + base->brief());
  UOpRef out_param = param(realized_.at(base));  // slot 0: the buffer the kernel writes
  UOpRef v = lower(Request{value, idx, UOp::const_bool(true), loops});
  UOpRef addr = UOp::create(Ops::INDEX, out_param->dtype,
                            {out_param, simplify(flatten_index(indices_of(element), dims_of(base, "rangeify")))});
  UOpRef gate = walk.valid;
  return kernel_of(is_true(gate) ? UOp::create(Ops::STORE, dtypes::void_, {addr, v})
                                 : UOp::create(Ops::STORE, dtypes::void_, {addr, v, gate}),
                   loops);
}

}  // namespace onegrad
