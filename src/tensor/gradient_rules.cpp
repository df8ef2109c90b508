// One gradient rule per primitive of the tensor graph (docs/autograd.md, "Rules"). With x the node,
// g its gradient and a, b, c its sources, each row returns (da, db, dc). Rules use Tensor ops, so a
// gradient is a lazy graph of the forward values: differentiating it again gives higher orders.
#include <numbers>

#include "tensor/axis_order.h"
#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/gradient.h"
#include "tensor/shape_util.h"
#include "tensor/symbolic_dims.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

using Grads = std::vector<std::optional<Tensor>>;

// The dims of a shape operand (a STACK of index dims, or one dim).
Shape operand_dims(const UOpRef& operand) { return operand->op == Ops::STACK ? operand->src : Shape{operand}; }

// t expanded or reshaped to the shape of `like`, keeping its symbolic dims (symbolic_dims.h): the
// gradient graph is then the same for every value of the variables.
Tensor expand_like(const Tensor& t, const Tensor& like) {
  const Shape& dims = like.uop()->shape();
  return has_symbolic_dim(dims) ? t.expand_symbolic(dims) : t.expand(like.shape());
}
Tensor reshape_like(const Tensor& t, const Tensor& like) {
  const Shape& dims = like.uop()->shape();
  return has_symbolic_dim(dims) ? t.reshape_symbolic(dims) : t.reshape(like.shape());
}

// x where the mask holds, else 0 (a mask of bools).
Tensor masked(const Tensor& mask, const Tensor& x) { return mask.where(x, float_const(x, 0.0)); }

// Binary MAX: ties split the gradient evenly (tinygrad, and PyTorch's maximum). relu's MAX(x, 0)
// (kReluMaxTag) is one-sided, as PyTorch's relu: g where x > 0 or x is NaN, else 0.
Grads max_rule(const GradInput& in) {
  Tensor a = in.src(0), b = in.src(1);
  if (in.node->tag == kReluMaxTag) return {masked(a.gt(b).logical_or(a.isnan()), in.grad), std::nullopt};
  Tensor share = a.gt(b).cast(in.grad.dtype()).add(a.eq(b).cast(in.grad.dtype()).mul(float_const(in.grad, 0.5)));
  return {in.grad.mul(share), in.grad.mul(float_const(in.grad, 1.0).sub(share))};
}

// REDUCE keeps the reduced axes as size 1, so g expands straight back to the source's shape.
Grads reduce_rule(const GradInput& in) {
  const auto& arg = in.node->arg.get<ReduceArg>();
  Tensor a = in.src(0);
  Tensor g = expand_like(in.grad, a);
  switch (arg.op) {
    case Ops::ADD: return {g};
    case Ops::MAX: {  // every maximum of a window gets an equal share
      Tensor hit = a.eq(expand_like(in.self(), a)).cast(g.dtype());
      Tensor count = Tensor(UOp::create(Ops::REDUCE, {hit.uop()}, ReduceArg{Ops::ADD, arg.axes}), in.device);
      return {g.mul(hit).div(expand_like(count, a))};
    }
    case Ops::MUL: {  // x / a, with the product of the others where a is 0 (only one zero: else 0)
      Tensor zero = a.eq(float_const(a, 0.0));
      Tensor nonzero = zero.where(float_const(a, 1.0), a);
      auto reduce = [&](const Tensor& t, Ops op) {
        return expand_like(Tensor(UOp::create(Ops::REDUCE, {t.uop()}, ReduceArg{op, arg.axes}), in.device), a);
      };
      Tensor zeros = reduce(zero.cast(a.dtype()), Ops::ADD), others = reduce(nonzero, Ops::MUL);
      Tensor at_zero = zeros.eq(float_const(zeros, 1.0)).where(others, float_const(a, 0.0));
      return {g.mul(zero.where(at_zero, expand_like(in.self(), a).div(nonzero)))};
    }
    default: throw InternalError("backward: REDUCE " + std::string(op_name(arg.op)));
  }
}

// POW(a, b) with a >= 0 (pow.cpp takes |a| and fixes signs around it): d/da = b * a^(b-1),
// d/db = x * log(a), 0 at a = 0 (PyTorch's convention for 0^b).
Grads pow_rule(const GradInput& in) {
  Tensor a = in.src(0), b = in.src(1), g = in.grad;
  Tensor da = g.mul(b).mul(make_alu(Ops::POW, {a, b.sub(float_const(b, 1.0))}));
  Tensor db = masked(a.ne(float_const(a, 0.0)), g.mul(in.self()).mul(a.log()));
  return {da, db};
}

Grads pad_rule(const GradInput& in) {
  Shape offsets = operand_dims(in.node->src[1]), in_shape = in.node->src[0]->shape();
  std::vector<std::pair<UOpRef, UOpRef>> bounds;
  for (size_t i = 0; i < offsets.size(); i++) bounds.emplace_back(offsets[i], dim_sum(offsets[i], in_shape[i]));
  return {in.grad.shrink_symbolic(bounds), std::nullopt, std::nullopt};
}

Grads shrink_rule(const GradInput& in) {
  Shape offsets = operand_dims(in.node->src[1]), in_shape = in.node->src[0]->shape(), out = in.node->shape();
  std::vector<std::pair<UOpRef, UOpRef>> padding;
  for (size_t i = 0; i < offsets.size(); i++)
    padding.emplace_back(offsets[i], dim_difference(dim_difference(in_shape[i], offsets[i]), out[i]));
  return {in.grad.pad_symbolic(padding), std::nullopt, std::nullopt};
}

// EXPAND keeps the rank (new leading axes come from a RESHAPE): sum over the axes that grew.
Grads expand_rule(const GradInput& in) {
  // the axes that grew: 1 before, not 1 after (a symbolic dim grew, whatever its value)
  const Shape &from = in.node->src[0]->shape(), &to = in.node->shape();
  std::vector<int64_t> axes;
  for (size_t i = 0; i < from.size(); i++)
    if (from[i]->is_const_value(1) && !to[i]->is_const_value(1)) axes.push_back(int64_t(i));
  if (axes.empty()) return {in.grad, std::nullopt};
  Tensor summed(UOp::create(Ops::REDUCE, {in.grad.uop()}, ReduceArg{Ops::ADD, axes}), in.device);
  return {summed, std::nullopt};
}

Grads permute_rule(const GradInput& in) {
  return {in.grad.permute(inverse_permutation(in.node->arg.get<Arg::Ints>()))};
}

Grads flip_rule(const GradInput& in) {
  const auto& flags = in.node->arg.get<Arg::Bools>();
  std::vector<int64_t> axes;
  for (size_t i = 0; i < flags.size(); i++)
    if (flags[i]) axes.push_back(int64_t(i));
  return {in.grad.flip(axes)};
}

// float -> float casts carry the gradient back in the source's dtype; nothing flows to ints.
Grads cast_rule(const GradInput& in) {
  DType from = in.node->src[0]->dtype;
  if (!from.is_float()) return {std::nullopt};
  return {in.grad.cast(from)};
}

const std::vector<std::pair<Ops, GradRule>>& rule_table() {
  static const std::vector<std::pair<Ops, GradRule>> table = {
      // arithmetic
      {Ops::ADD, [](const GradInput& in) -> Grads { return {in.grad, in.grad}; }},
      {Ops::SUB, [](const GradInput& in) -> Grads { return {in.grad, in.grad.neg()}; }},
      {Ops::NEG, [](const GradInput& in) -> Grads { return {in.grad.neg()}; }},
      {Ops::MUL, [](const GradInput& in) -> Grads { return {in.grad.mul(in.src(1)), in.grad.mul(in.src(0))}; }},
      {Ops::DIV, [](const GradInput& in) -> Grads {  // a/b: g/b, -g*x/b
         Tensor b = in.src(1);
         return {in.grad.div(b), in.grad.mul(in.self()).div(b).neg()};
       }},
      {Ops::RECIP, [](const GradInput& in) -> Grads {  // -g * x^2
         Tensor x = in.self();
         return {in.grad.mul(x).mul(x).neg()};
       }},
      {Ops::MULACC, [](const GradInput& in) -> Grads {  // a*b + c
         return {in.grad.mul(in.src(1)), in.grad.mul(in.src(0)), in.grad};
       }},
      {Ops::MAX, max_rule},
      {Ops::WHERE, [](const GradInput& in) -> Grads {  // nothing for the condition
         Tensor cond = in.src(0);
         return {std::nullopt, masked(cond, in.grad), masked(cond.logical_not(), in.grad)};
       }},
      // transcendentals: x = 2^a, log2(a), sin(a), sqrt(a), a^b
      {Ops::EXP2, [](const GradInput& in) -> Grads {
         return {in.grad.mul(in.self()).mul(float_const(in.grad, std::numbers::ln2))};
       }},
      {Ops::LOG2, [](const GradInput& in) -> Grads {
         return {in.grad.div(in.src(0).mul(float_const(in.grad, std::numbers::ln2)))};
       }},
      {Ops::SIN, [](const GradInput& in) -> Grads { return {in.grad.mul(in.src(0).cos())}; }},
      {Ops::SQRT, [](const GradInput& in) -> Grads { return {in.grad.div(in.self().mul(float_const(in.grad, 2.0)))}; }},
      {Ops::POW, pow_rule},
      {Ops::CAST, cast_rule},
      {Ops::REDUCE, reduce_rule},
      // movement ops map to their inverses
      {Ops::RESHAPE, [](const GradInput& in) -> Grads {
         return {reshape_like(in.grad, in.src(0)), std::nullopt};
       }},
      {Ops::PERMUTE, permute_rule},
      {Ops::EXPAND, expand_rule},
      {Ops::PAD, pad_rule},
      {Ops::SHRINK, shrink_rule},
      {Ops::FLIP, flip_rule},
      // markers and copies pass the gradient through
      // a LOAD onto another device (to()) sends the gradient back to its source's device
      {Ops::LOAD, [](const GradInput& in) -> Grads {
         std::string from = Tensor(in.node->src[0]).device();
         return {from == in.grad.device() ? in.grad : in.grad.to(from)};
       }},
      {Ops::CONTIGUOUS, [](const GradInput& in) -> Grads { return {in.grad}; }},
      // AFTER(value, index): an index check (tensor/index_check.h); the value is the data
      {Ops::AFTER, [](const GradInput& in) -> Grads { return {in.grad, std::nullopt}; }},
      {Ops::CONTIGUOUSBACKWARD, [](const GradInput& in) -> Grads { return {in.grad.contiguous()}; }},
  };
  return table;
}

}  // namespace

const GradRule* gradient_rule(Ops op) {
  static const auto by_op = [] {
    std::vector<const GradRule*> v(kNumOps, nullptr);
    for (const auto& [o, rule] : rule_table()) v[size_t(o)] = &rule;
    return v;
  }();
  return by_op[size_t(op)];
}

}  // namespace onegrad
