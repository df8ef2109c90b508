#include "nn/prelu.h"

#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::nn {

Tensor prelu(const Tensor& x, const Tensor& weight) {
  if (weight.ndim() > 1) throw ShapeError("prelu: weight must be 0-D or 1-D, got shape " + shape_text(weight.shape()));
  Tensor w = weight;
  int64_t n = weight.numel();
  if (n != 1) {
    int64_t axis = x.ndim() >= 2 ? 1 : 0;
    if (x.ndim() == 0 || n != x.shape()[size_t(axis)])
      throw ShapeError("prelu: weight has " + std::to_string(n) + " slopes, but the input (shape " +
                       shape_text(x.shape()) + ") has " +
                       (x.ndim() ? std::to_string(x.shape()[size_t(axis)]) : std::string("no")) + " channels");
    Dims per_channel(size_t(x.ndim() - axis), 1);
    per_channel[0] = n;
    w = weight.reshape(per_channel);
  } else if (x.ndim() == 0) {
    w = weight.reshape({});
  }
  return x.gt(Tensor::zeros({}, x.dtype(), x.device())).where(x, w.mul(x));
}

PReLU::PReLU(int64_t num_parameters, double init) {
  if (num_parameters < 1)
    throw ArgumentError("PReLU: num_parameters must be positive, got " + std::to_string(num_parameters));
  weight = Tensor::full({num_parameters}, ConstValue::from_float(init), dtypes::float32);
  register_parameter("weight", &weight);
}

}  // namespace onegrad::nn
