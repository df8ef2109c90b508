// fuse_mulacc: one pattern, on the accumulator updates lower_reduces writes (codegen/fuse_mulacc.h).
#include "codegen/fuse_mulacc.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "codegen/vector_lanes.h"

namespace onegrad {

namespace {

bool fusable(DType dt) { return dt == dtypes::float32 || dt == dtypes::float64; }

bool renders_mulacc(const Capabilities& caps, DType dt, int64_t lanes) {
  if (lanes == 1) return caps.renders && caps.renders(Ops::MULACC, dt);
  return caps.vectors.renders && caps.vectors.renders(Ops::MULACC, dt);
}

// Whether an INDEX addresses a register buffer (an accumulator: its BUFFER behind AFTERs).
bool register_slot(const UOp& index) {
  if (index.op != Ops::INDEX || index.src.empty()) return false;
  const UOp* b = index.src[0].get();
  while (b->op == Ops::AFTER) b = b->src[0].get();
  return b->op == Ops::BUFFER && b->arg.get<BufferArg>().addrspace == AddrSpace::REG;
}

// The terms of a sum in the order they are added: the leaves of its left spine of ADDs (Expand
// folds an UNROLL's copies as ADD(ADD(t0, t1), t2)).
void terms(const UOpRef& v, std::vector<UOpRef>& out) {
  if (v->op == Ops::ADD) {
    terms(v->src[0], out);
    out.push_back(v->src[1]);
  } else {
    out.push_back(v);
  }
}

// A product term's factors, as MULACC takes them: MUL(a, b) of the accumulator's lanes, or lane j
// of a vector MUL (vectorize_fold's INDEX(MUL(a, b), j), a sum over a contiguous UNROLL axis) as
// lane j of a and of b, so the update is the one VECTORIZE=0 fuses. nullopt: not a product.
std::optional<std::pair<UOpRef, UOpRef>> factors(const UOpRef& t, int64_t lanes) {
  if (t->op == Ops::MUL && vector_lanes(*t) == lanes) return std::pair{t->src[0], t->src[1]};
  if (lanes != 1 || t->op != Ops::INDEX || t->src.size() != 2 || t->src[1]->op != Ops::CONST) return std::nullopt;
  const UOpRef& v = t->src[0];
  if (v->op != Ops::MUL || vector_lanes(*v) < 2) return std::nullopt;
  auto lane = [&](const UOpRef& x) { return UOp::create(Ops::INDEX, t->dtype, {x, t->src[1]}); };
  return std::pair{lane(v->src[0]), lane(v->src[1])};
}

UOpRef fuse_update(Match& m) {
  const UOpRef& store = m.root();
  if (store->src.size() != 2) return nullptr;
  const UOpRef &slot = store->src[0], &sum = store->src[1];
  if (sum->op != Ops::ADD || !fusable(sum->dtype) || !register_slot(*slot)) return nullptr;
  const UOpRef& acc = sum->src[0];
  if (acc->op != Ops::LOAD || acc->src.empty() || acc->src[0] != slot) return nullptr;
  int64_t lanes = vector_lanes(*sum);
  if (!renders_mulacc(m.ctx<const Capabilities>(), sum->dtype, lanes)) return nullptr;
  std::vector<UOpRef> ts;
  terms(sum->src[1], ts);
  if (std::none_of(ts.begin(), ts.end(), [&](const UOpRef& t) { return factors(t, lanes).has_value(); })) return nullptr;
  UOpRef out = acc;
  for (const UOpRef& t : ts) {
    auto f = factors(t, lanes);
    out = f ? UOp::alu(Ops::MULACC, {f->first, f->second, out}) : UOp::alu(Ops::ADD, {out, t});
  }
  return store->with_src({slot, out});
}

}  // namespace

UOpRef fuse_mulacc(const UOpRef& sink, const Capabilities& caps, RewriteTrace* trace) {
  static const PatternMatcher pm({{"fuse_mulacc", UPat::op(Ops::STORE), fuse_update}});
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.ctx = const_cast<Capabilities*>(&caps);
  opts.trace = trace;
  opts.name = "fuse_mulacc";
  return graph_rewrite(sink, pm, opts);
}

}  // namespace onegrad
