// An operand of a contraction (MatMul, Gemm, Conv, an RNN's input projection) is read once per
// output column or channel: when elementwise ops computed it (a BatchNormalization, an activation),
// they are computed once into a buffer instead of again at every read inside the reduce (the
// recognition model's classifier recomputed a swish 6625 times per element; Silero VAD's LSTM its
// encoder's bias and ReLU for each block of gate columns). Views of buffers and constants stay views,
// and a value already computed once (contiguous()) stays that value.
#pragma once
#include "tensor/tensor.h"

namespace onegrad::onnx {

inline Tensor computed_once(const Tensor& t) {
  const UOp* u = t.uop().get();
  while (!u->src.empty() && (u->op == Ops::RESHAPE || u->op == Ops::PERMUTE || u->op == Ops::EXPAND ||
                             u->op == Ops::SHRINK || u->op == Ops::FLIP))
    u = u->src[0].get();
  bool done = u->op == Ops::BUFFER || u->op == Ops::CONST || u->op == Ops::LOAD || u->op == Ops::CONTIGUOUS;
  return done ? t : t.contiguous();
}

}  // namespace onegrad::onnx
