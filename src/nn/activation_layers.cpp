// The argument checks of the parameter-free layers (activation_layers.h).
#include "nn/activation_layers.h"

#include "tensor/random.h"

namespace onegrad::nn {

GELU::GELU(std::string approx) : approximate(std::move(approx)) {
  if (approximate != "none" && approximate != "tanh")
    throw ArgumentError("GELU: approximate must be \"none\" or \"tanh\", got \"" + approximate + "\"");
}

Dropout::Dropout(double p_) : p(p_) {
  if (!(p >= 0 && p <= 1))
    throw ArgumentError("Dropout: dropout probability has to be between 0 and 1, but got " + std::to_string(p));
}

int64_t implicit_softmax_dim(int64_t ndim) { return ndim == 0 || ndim == 1 || ndim == 3 ? 0 : 1; }

Tensor Dropout::forward(const Tensor& x) { return dropout(x, p, is_training()); }

}  // namespace onegrad::nn
