// step_boundary (step_boundary.h).
#include "nn/step_boundary.h"

namespace onegrad::nn {

Tensor step_boundary(const Tensor& t) { return t.contiguous().contiguous_backward(); }

}  // namespace onegrad::nn
