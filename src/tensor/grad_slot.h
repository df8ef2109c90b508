// GradSlot: the autograd state a Tensor and its copies share (tensor.h "autograd"). Defined here
// for the two files that read it: autograd.cpp (leaves, .grad, realize's history) and
// write_history.cpp (what an in-place write does to the history).
#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// The value of a realized node in terms of the graphs it came from: `node` (a view of a BUFFER,
// RESHAPE(BUFFER, shape)) is `graph` for differentiation. realize() records the lazy graph it
// replaced; each in-place write through a view of the node makes `graph` a WHERE of the written
// value and the old graph. Shared by the tensors that must keep it alive (the realized tensor,
// a view written through), so that a write through any of them updates it for all.
struct History {
  UOpRef node;
  UOpRef graph;
};

struct GradSlot {
  bool requires_grad = false;
  std::optional<Tensor> grad;
  // Graphs this leaf had before realize() replaced them by a buffer: graphs built from the lazy
  // value still lead to it. Cleared by an in-place write (assign/setitem): then the old graphs are
  // an old value, not this leaf.
  std::vector<UOpRef> aliases;
  // A computed tensor (not a leaf) that realize() replaced by a buffer keeps the graph it came
  // from: backward() through the buffer follows it (while a tensor holding it lives). A view
  // written through, and a lazy value moved onto a snapshot by a write, hold the histories of the
  // nodes they read.
  std::vector<std::shared_ptr<History>> histories;
  // Set when realize() gave this tensor the buffer of another one whose graph was equal (equal
  // graphs are one node) but which is not a copy of it: the node they then share. A write through
  // one of them gives the others a copy first (write_target.cpp).
  UOpRef shared_value;
  ~GradSlot();
};

}  // namespace onegrad
