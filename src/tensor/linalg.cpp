// matmul with numpy/torch's shape rules, dot and outer: all the spec's gemm composition,
// `(A.reshape(..., M, K, 1) * B.reshape(..., 1, K, N)).sum(-2)`, or its degenerate forms.
#include "tensor/broadcast.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

// numpy's rules: a 1-D left operand is a row (1, K) and a 1-D right operand a column (K, 1), and
// that axis is dropped from the result; the dims before the last two are batch dims and broadcast.
// 2-D @ 2-D is spec::gemm itself (the same nodes); batched operands run the same composition with
// the batch dims in front.
Tensor Tensor::matmul(const Tensor& o) const {
  Dims a = shape(), b = o.shape();
  if (a.empty() || b.empty())
    throw ShapeError("matmul: both operands need at least 1 dimension, got shapes " + shape_text(a) + " and " +
                     shape_text(b));
  Dims a2 = a.size() == 1 ? Dims{1, a[0]} : a;
  Dims b2 = b.size() == 1 ? Dims{b[0], 1} : b;
  int64_t M = a2[a2.size() - 2], K = a2.back(), K2 = b2[b2.size() - 2], N = b2.back();
  if (K != K2)
    throw ShapeError("matmul: cannot multiply " + shape_text(a) + " by " + shape_text(b) + ": inner dims " +
                     std::to_string(K) + " and " + std::to_string(K2) + " differ");
  Dims abatch(a2.begin(), a2.end() - 2), bbatch(b2.begin(), b2.end() - 2);
  Dims out;
  Tensor r;
  if (abatch.empty() && bbatch.empty()) {
    r = spec::gemm(reshape(a2), o.reshape(b2));
  } else {
    Dims batch;
    try {
      batch = broadcast_shape("matmul", {abatch, bbatch});
    } catch (const ShapeError&) {
      throw ShapeError("matmul: batch dims " + shape_text(abatch) + " and " + shape_text(bbatch) + " of shapes " +
                       shape_text(a) + " and " + shape_text(b) + " do not broadcast");
    }
    check_same_device("matmul", {*this, o});
    DType dt = promote_types(dtype(), o.dtype());
    auto with = [](Dims d, std::initializer_list<int64_t> tail) {
      d.insert(d.end(), tail);
      return d;
    };
    Tensor A = cast(dt).reshape(with(abatch, {M, K, 1}));
    Tensor B = o.cast(dt).reshape(with(bbatch, {1, K, N}));
    r = A.mul(B).sum({-2}).cast(dt);  // (..., M, N)
    out = batch;
  }
  if (a.size() > 1) out.push_back(M);
  if (b.size() > 1) out.push_back(N);
  return r.reshape(out);
}

// torch.dot: two 1-D tensors of one length; the sum of the products (the 1-D @ 1-D of matmul).
Tensor Tensor::dot(const Tensor& o) const {
  Dims a = shape(), b = o.shape();
  if (a.size() != 1 || b.size() != 1)
    throw ShapeError("dot: expects 1-D tensors, got shapes " + shape_text(a) + " and " + shape_text(b));
  if (a[0] != b[0])
    throw ShapeError("dot: tensors of shapes " + shape_text(a) + " and " + shape_text(b) +
                     " must have the same number of elements");
  return matmul(o);
}

// torch.outer: a.reshape(n, 1) * b.reshape(1, m) (gemm with K = 1, without the sum).
Tensor Tensor::outer(const Tensor& o) const {
  Dims a = shape(), b = o.shape();
  if (a.size() != 1 || b.size() != 1)
    throw ShapeError("outer: expects 1-D tensors, got shapes " + shape_text(a) + " and " + shape_text(b));
  return reshape({a[0], 1}).mul(o.reshape({1, b[0]}));
}

}  // namespace onegrad
