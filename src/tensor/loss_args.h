// The arguments the losses share (loss.cpp's Tensor methods and src/nn/loss_functions.h): the
// `reduction` ("none", "mean", "sum"), checked and applied in one place; the input/target pair of an
// elementwise loss; the text of a number in their messages.
#pragma once
#include <string>
#include <utility>

#include "tensor/tensor.h"

namespace onegrad {

enum class Reduction { None, Mean, Sum };

// ArgumentError "<op>: 'avg' is not a valid value for reduction (none, mean, sum)".
Reduction parse_reduction(const std::string& op, const std::string& reduction);
Tensor reduce_loss(const Tensor& loss, Reduction r);
// Input and target of an elementwise loss: one float dtype (promoted; ints give float32).
std::pair<Tensor, Tensor> float_pair(const Tensor& a, const Tensor& b);
// 1.5 as "1.5", -1.0 as "-1" (std::to_string gives "1.500000").
std::string number_text(double v);

}  // namespace onegrad
