// one_hot() with the class count inferred from the data (PyTorch's num_classes = -1): max + 1 of
// the indices, which needs their values, so it runs a kernel. The one-hot itself is one_hot(n)
// (loss.cpp).
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

Tensor Tensor::one_hot() const {
  if (!dtype().is_int())
    throw DTypeError("one_hot: expects a tensor of class indices (an integer dtype), got " + dtype().name());
  if (numel() == 0) throw ShapeError("one_hot: cannot infer the number of classes from an empty tensor");
  // min and max in one schedule; realized copies keep this tensor's graph as it is
  Tensor lo = min().cast(dtypes::int64), hi = max().cast(dtypes::int64);
  realize_all({&lo, &hi});
  int64_t low = lo.to_vector<int64_t>()[0], high = hi.to_vector<int64_t>()[0];
  if (low < 0) throw ArgumentError("one_hot: class values must be non-negative, got " + std::to_string(low));
  return one_hot(high + 1);
}

}  // namespace onegrad
