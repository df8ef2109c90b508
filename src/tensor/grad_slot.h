// GradSlot: the autograd state a Tensor and its copies share (tensor.h "autograd"). Defined here
// for the files that read it: autograd.cpp (leaves, .grad), tensor.cpp and the engine's
// write_target.cpp (which tensors an in-place write reaches).
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

struct GradSlot {
  bool requires_grad = false;
  std::optional<Tensor> grad;
  // Graphs this leaf had before realize() replaced them by a buffer: graphs built from the lazy
  // value still lead to it. Cleared by an in-place write (assign/setitem): then the old graphs are
  // an old value, not this leaf.
  std::vector<UOpRef> aliases;
  // Set when realize() gave this tensor the buffer of another one whose graph was equal (equal
  // graphs are one node) but which is not a copy of it: the node they then share. A write through
  // one of them gives the others a copy first (write_target.cpp).
  UOpRef shared_value;
  ~GradSlot();
};

}  // namespace onegrad
