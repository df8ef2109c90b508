// The one-hot scatters (docs/schedule.md, "Scatters"). The kernel of the spec's scatter_add, and
// of its siblings that multiply or take the largest value, is
//
//   for k < K:  out[k] = F(A(k), REDUCE{op}(body(d, idx(d) == k), d))      op in {ADD, MUL, MAX}
//
// with F the same op of A and the reduction, maybe cast (T + the sum, in the sum's dtype), or the
// reduction alone (A = e: a gather's gradient sums into a new buffer); a sum may be scaled by a
// factor c(k) free of d, which then scales each term (c * sum h = sum c * h); and body
// the value combined when its index hits k and op's identity e when it does not (or -0.0 for a
// float sum: see is_seed). Then, for the
// sequential loops
//
//   for k < K:  out[k] = F(A(k), e)
//   for d < D:  if 0 <= idx(d) < K:  out[idx(d)] = F(out[idx(d)] as A, body(d, true))
//
// each out[k] ends as A[k] op the values whose index is k, combined in increasing d: op is
// associative and commutative, so this is the composition's value up to the order of float
// roundings (torch's CPU loop combines in this order too); integer results are the same (F's casts
// wrap modulo 2^bits either way, for + and *), and MAX is exact (its NaN propagates either way).
// The conditions, each checked:
//   - the kernel is one loop k storing out[k], and its value holds one REDUCE{op} over one range d;
//   - body reads k only through one comparison `a == b` with b == k (as exact index math) and a
//     free of k; body with the comparison false folds to e, with it true is free of k;
//   - F is op(A, G) with A not using R, or G alone; G is R, or for ADD R * c with c free of R and
//     d (read at idx(d) in the loop); F may be CAST for ADD and MUL.
// For MAX, an update that provably rises past the seed and every earlier update (rises_past) is
// stored as it is: the loop then never reads out.
// A kernel that stores to an address read from memory runs in order: it takes no opts (codegen/opt.h).
#include "schedule/scatter_rules.h"

#include "schedule/known_values.h"
#include "uop/reduce_identity.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

bool is_range(const UOp& u, AxisType t) { return u.op == Ops::RANGE && u.arg.get<RangeArg>().type == t && u.src[0]->is_const(); }

// The only node of `e` satisfying `pred`, or nullptr when there are none or several.
template <class Pred>
const UOp* only(const UOpRef& e, Pred pred) {
  const UOp* found = nullptr;
  for (const UOp* u : e->toposort())
    if (pred(*u)) {
      if (found) return nullptr;
      found = u;
    }
  return found;
}

// Whether the body's value on a miss may seed the loop: op's identity, or -0.0 for a float sum
// (-0.0 + x is x bit for bit, so out[k] = A(k) + -0.0 keeps a -0.0 in A as torch's loop does;
// the composition's accumulator starts at +0.0, which turns it into +0.0 under FOLD_REDUCE=0).
bool is_seed(const UOpRef& miss, Ops op, DType dt) {
  if (is_reduce_identity(miss, op, dt)) return true;
  return op == Ops::ADD && dt.is_float() && miss->is_const() && miss->dtype == dt &&
         miss->const_value() == ConstValue::from_float(-0.0);
}

// Whether x is the loop's position d itself (exact index math: casts and adds that cannot wrap).
bool is_position(const UOpRef& x, const UOpRef& loop) { return x->dtype.is_int() && exact_index(x) == loop; }

// Whether each update v(d) of a MAX loop is above the seed and above every earlier update, so that
// MAX(out[a(d)], v(d)) is v(d) and the loop need not read out: v = d * C + r (or d, C = 1) with C
// a positive constant, r's range narrower than C (min_max; r may read memory at d), the seed below
// v's least value, and no term wrapping its int dtype. A last write's position (last_hit), and a
// position packed with the value's bits (last_write), are such updates.
bool rises_past(const UOpRef& v, const UOpRef& loop, const UOpRef& seed) {
  if (!v->dtype.is_int() || !seed->dtype.is_int()) return false;
  i128 c = 1, r_lo = 0, r_hi = 0;
  if (!is_position(v, loop)) {
    if (v->op != Ops::ADD) return false;
    bool found = false;
    for (int i = 0; i < 2 && !found; i++) {
      const UOpRef& m = v->src[i];
      if (m->op != Ops::MUL) continue;
      for (int j = 0; j < 2 && !found; j++)
        if (m->src[j]->is_const() && is_position(m->src[1 - j], loop)) {
          c = m->src[j]->const_value().as_int();
          r_lo = v->src[1 - i]->vmin().as_int();
          r_hi = v->src[1 - i]->vmax().as_int();
          found = true;
        }
    }
    if (!found || c <= 0 || r_hi - r_lo >= c) return false;
  }
  i128 d_hi = loop->src[0]->const_value().as_int() - 1;
  i128 lo = r_lo, hi = d_hi * c + r_hi;  // d from 0
  return lo >= v->dtype.int_min() && hi <= v->dtype.int_max() && seed->vmax().as_int() < lo;
}

// The rule for one reduce op (the table below names one per op).
UOpRef onehot_to_scatter(Match& m, Ops op) {
  const UOpRef& sink = m.root();
  const UOpRef& end = sink->src[0];
  if (end->op != Ops::END || end->src.size() != 2 || !is_range(*end->src[1], AxisType::LOOP)) return nullptr;
  const UOpRef& k = end->src[1];
  const UOpRef& store = end->src[0];
  if (store->op != Ops::STORE || store->src.size() != 2 || store->src[0]->op != Ops::INDEX) return nullptr;
  const UOpRef& target = store->src[0];
  if (target->src[0]->op != Ops::PARAM || target->src[1] != k) return nullptr;
  const UOpRef& f = store->src[1];
  // F = op(A, G) or G alone (A = e), or a CAST of either where the cast is a ring map (+ and *
  // wrap alike); G = R or, for ADD, R * c with c free of d (c * sum h = sum c * h, up to float
  // rounding: a gather's gradient scaled by the chain rule)
  bool cast = f->op == Ops::CAST;
  if (cast && op == Ops::MAX) return nullptr;
  const UOpRef& top = cast ? f->src[0] : f;
  const UOp* red = only(f, [](const UOp& u) { return u.op == Ops::REDUCE; });
  if (!red || red->arg.get<ReduceArg>().op != op || red->src.size() != 2 ||
      !is_range(*red->src[1], AxisType::REDUCE))
    return nullptr;
  const UOpRef& d = red->src[1];
  UOpRef c;  // G's factor, or none
  auto is_g = [&](const UOpRef& g) {
    if (g.get() == red) return true;
    if (op != Ops::ADD || g->op != Ops::MUL) return false;
    int i = g->src[0].get() == red ? 0 : g->src[1].get() == red ? 1 : -1;
    if (i < 0 || mentions(g->src[1 - i], red) || mentions(g->src[1 - i], d.get())) return false;
    c = g->src[1 - i];
    return true;
  };
  UOpRef g, a_k;  // a_k: none when F is G alone
  if (is_g(top)) {
    g = top;
  } else {
    if (top->op != op) return nullptr;
    int gi = is_g(top->src[0]) ? 0 : is_g(top->src[1]) ? 1 : -1;
    if (gi < 0) return nullptr;
    g = top->src[gi];
    a_k = top->src[1 - gi];
    if (mentions(a_k, red)) return nullptr;
  }
  const UOpRef& body = red->src[0];
  // body reads k through one comparison a == b(k)
  const UOp* cmp = only(body, [&](const UOp& u) { return u.op == Ops::CMPEQ && mentions(u.ref(), k.get()); });
  if (!cmp) return nullptr;
  int bi = mentions(cmp->src[1], k.get()) ? 1 : 0;
  const UOpRef& a = cmp->src[1 - bi];
  if (mentions(a, k.get()) || mentions(cmp->src[bi], d.get()) || exact_index(cmp->src[bi]) != k) return nullptr;
  UOpRef hit = fold_known(substitute(body, {{cmp, UOp::const_bool(true)}}));
  UOpRef miss = fold_known(substitute(body, {{cmp, UOp::const_bool(false)}}));
  if (mentions(hit, k.get()) || !is_seed(miss, op, red->dtype)) return nullptr;
  const UOpRef& e = miss;

  UOpRef out = target->src[0];
  int64_t bound = k->src[0]->const_value().as_int();
  UOpRef seed = fold_known(substitute(f, {{red, e}}));
  UOpRef copy = UOp::create(Ops::STORE, dtypes::void_, {target, seed});
  UOpRef copied = UOp::create(Ops::END, dtypes::void_, {copy, k});
  UOpRef loop = UOp::range(d->src[0], d->arg.get<RangeArg>().id, AxisType::LOOP);
  UOpRef at = UOp::create(Ops::CAST, dtypes::index, {substitute(a, {{d.get(), loop}})});
  UOpRef inside = UOp::create(Ops::AND, dtypes::bool_, {UOp::create(Ops::CMPLT, dtypes::bool_, {UOp::index(-1), at}),
                                                        UOp::create(Ops::CMPLT, dtypes::bool_, {at, UOp::index(bound)})});
  UOpRef addr = UOp::create(Ops::INDEX, out->dtype, {UOp::create(Ops::AFTER, out->dtype, {out, copied}), at});
  DType dt = f->dtype;
  UOpRef current = UOp::create(Ops::LOAD, dt, {addr, UOp::const_int(dt, 0), inside});  // gated off: unused
  auto as = [&](DType t) { return current->dtype == t ? current : UOp::create(Ops::CAST, t, {current}); };
  UOpRef value = substitute(hit, {{d.get(), loop}});
  if (c) {  // c read at the target, clamped into [0, K) where the store is gated off
    UOpRef safe = UOp::create(Ops::WHERE, dtypes::index, {inside, at, UOp::index(0)});
    value = UOp::create(Ops::MUL, g->dtype, {value, substitute(c, {{k.get(), safe}})});
  }
  UOpRef updated = op == Ops::MAX && rises_past(value, loop, seed) ? value
                   : a_k ? substitute(f, {{g.get(), value}, {a_k.get(), as(a_k->dtype)}})
                         : substitute(f, {{g.get(), UOp::create(op, g->dtype, {as(g->dtype), value})}});
  UOpRef scatter = UOp::create(Ops::STORE, dtypes::void_, {addr, updated, inside});
  return sink->with_src({copied, UOp::create(Ops::END, dtypes::void_, {scatter, loop})});
}

const PatternMatcher& scatter_rules() {
  static const UPat one_store = UPat::op(Ops::SINK).where([](const UOp& u) { return u.src.size() == 1; });
  static const PatternMatcher pm({
      // out[idx[d]] += v[d]
      {"onehot_to_scatter", one_store, [](Match& m) { return onehot_to_scatter(m, Ops::ADD); }},
      // out[idx[d]] *= v[d]
      {"onehot_prod_to_scatter", one_store, [](Match& m) { return onehot_to_scatter(m, Ops::MUL); }},
      // out[idx[d]] = max(out[idx[d]], v[d])
      {"onehot_max_to_scatter", one_store, [](Match& m) { return onehot_to_scatter(m, Ops::MAX); }},
  });
  return pm;
}

}  // namespace

UOpRef scatters_from_onehot(const UOpRef& sink, RewriteTrace* trace) {
  // a rule on the kernel itself: only the root is offered
  RuleHit hit = scatter_rules().rewrite(sink, nullptr);
  if (!hit.result) return sink;
  if (trace) trace->entries.push_back({hit.rule->name, sink, hit.result});
  return hit.result;
}

}  // namespace onegrad
