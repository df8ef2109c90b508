// The gradient of scatter::combine's result (gradient.h, kScatterTag): PyTorch's scatter_reduce
// backward, written as gathers at the flat targets t and scatters into the K places, which the
// schedule runs as indexed loads and loops (docs/schedule.md, "Scatters"): linear. With T the
// start, v the values, O = T op (the v's that hit k) the result and g its gradient:
//   ADD:  dT = g,  dv = g[t]
//   MAX:  N = [B == O] + sum over the hits of [v == O], the ties of each result;
//         dT = [B == O] * g / N,  dv = [v == O[t]] * (g / N)[t]      (every tie an equal share)
//   MUL:  with Z the zeros among the v's that hit k and P the product of their nonzero ones,
//         dT = g * (Z == 0 ? P : 0)                                  (the product of the others)
//         dv = v is the only zero at its place ? (g * T * P)[t] : (g * O)[t] / (v == 0 ? 1 : v)
// B is T, but scatter_reduce without include_self starts from WHERE(hit, e, self) (e MAX's
// identity; the WHERE tagged kScatterTag too), and PyTorch still counts self among the ties there,
// though it gives self no share: then B is self. Products use [.] and divisions as PyTorch's do, so NaN results spread alike.
#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/gradient.h"
#include "tensor/index_check.h"
#include "tensor/scatter_compositions.h"
#include "tensor/shape_util.h"

namespace onegrad {

namespace {

// u under its RESHAPEs and EXPANDs.
const UOpRef& under_views(const UOpRef& u) {
  const UOpRef* at = &u;
  while ((*at)->op == Ops::RESHAPE || (*at)->op == Ops::EXPAND) at = &(*at)->src[0];
  return *at;
}

// u under its EXPANDs: a row or column before it was broadcast over the one-hot.
const UOpRef& unexpanded(const UOpRef& u) {
  const UOpRef* at = &u;
  while ((*at)->op == Ops::EXPAND) at = &(*at)->src[0];
  return *at;
}

// The operands of combine's contiguous(op(T, RESHAPE(REDUCE{op}(WHERE(pos == idx, val, e), 1)))) (K,),
// with pos a (K, 1) column and idx and val (1, D) rows broadcast over the (K, D) one-hot.
struct Combined {
  UOpRef start, values, targets;  // T (K,) and the (1, D) rows of the values and of idx
};

std::optional<Combined> combined_operands(const GradInput& in) {
  if (in.node->op != Ops::LOAD || in.node->src.size() != 1) return std::nullopt;
  const UOp& node = *in.node->src[0];
  auto shape = [&](const UOpRef& u) { return Tensor(u, in.device).shape(); };
  if (node.src.size() != 2 || in.grad.shape().size() != 1) return std::nullopt;
  for (int r = 0; r < 2; r++) {
    const UOpRef& red = under_views(node.src[r]);
    if (red->op != Ops::REDUCE || red->arg.get<ReduceArg>().op != node.op) continue;
    const UOpRef& picked = red->src[0];
    if (picked->op != Ops::WHERE || picked->src[0]->op != Ops::CMPEQ) continue;
    Dims kd = shape(picked);
    if (kd.size() != 2) continue;
    const UOpRef& idx = unexpanded(picked->src[0]->src[1]);
    const UOpRef& val = unexpanded(picked->src[1]);
    Dims row{1, kd[1]};
    if (shape(idx) != row || shape(val) != row || val->dtype != node.dtype || !idx->dtype.is_int()) continue;
    const UOpRef& start = node.src[1 - r];
    if (shape(start) != in.grad.shape()) continue;
    return Combined{start, val, idx};
  }
  return std::nullopt;
}

// x[t], 0 where t is -1 (an index outside the scatter's range): the forward's own check covers t.
Tensor at_targets(const Tensor& x, const Tensor& t) {
  NestedIndexOp nested;
  return x.index_select(0, t);
}

Tensor int_scalar(int64_t v, DType dt, const std::string& device) {
  return Tensor::scalar(ConstValue::from_int(v), dt, device);
}

// The values PyTorch counts the start's ties against (the header's B): self under the tagged
// WHERE(hit, e, self) of scatter_reduce without include_self, else the start itself.
Tensor tie_base(const Tensor& start) {
  const UOpRef& u = start.uop();
  if (u->op == Ops::WHERE && u->tag == kScatterTag) return Tensor(u->src[2], start.device());
  return start;
}

}  // namespace

std::optional<std::vector<Shortcut>> scatter_shortcut(const GradInput& in) {
  std::optional<Combined> c = combined_operands(in);
  if (!c) return std::nullopt;
  const std::string& dev = in.device;
  Tensor T(c->start, dev), O = in.self(), g = in.grad;
  Tensor t = Tensor(c->targets, dev).reshape({-1}), v = Tensor(c->values, dev).reshape({-1});
  int64_t K = O.numel(), D = t.numel();
  auto shares = [&](const Tensor& dT, const Tensor& dv) {
    return std::vector{Shortcut{c->start, dT}, Shortcut{c->values, dv.reshape({1, D})}};
  };
  switch (in.node->src[0]->op) {
    case Ops::ADD: return shares(g, at_targets(g, t));
    case Ops::MAX: {
      Tensor B = tie_base(T);
      Tensor self_tie = B.eq(O).cast(g.dtype()), value_tie = v.eq(at_targets(O, t)).cast(g.dtype());
      Tensor share = g.div(scatter::combine(self_tie, t, value_tie, Ops::ADD));
      return shares(self_tie.mul(share), value_tie.mul(at_targets(share, t)));
    }
    case Ops::MUL: {
      Tensor zero = v.eq(float_const(v, 0.0));
      Tensor nonzero = zero.where(float_const(v, 1.0), v);
      Tensor product = scatter::combine(float_const(O, 1.0), t, nonzero, Ops::MUL);
      Tensor zeros = scatter::combine(Tensor::zeros({K}, dtypes::int32, dev), t, zero.cast(dtypes::int32), Ops::ADD);
      Tensor others = zeros.eq(int_scalar(0, dtypes::int32, dev)).where(product, float_const(O, 0.0));
      Tensor single = zero.logical_and(at_targets(zeros, t).eq(int_scalar(1, dtypes::int32, dev)));
      Tensor dv = single.where(at_targets(g.mul(T).mul(product), t), at_targets(g.mul(O), t).div(nonzero));
      return shares(g.mul(others), dv);
    }
    default: return std::nullopt;
  }
}

}  // namespace onegrad
