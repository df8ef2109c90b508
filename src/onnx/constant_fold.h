// Constant folding at the ONNX level: a node whose every input is a constant (an initializer, a
// Constant's output, a folded value) and that draws no random numbers and holds no subgraph gives
// the same outputs at every run, so they are realized once per model and device and reused
// (BatchNorm's per-channel factors, weights reshaped or transposed, Shape arithmetic on constants).
// A folded value or initializer of one element becomes a CONST, so kernels see the number itself
// (an activation's 3 and 6, Pow's exponent) and the simplifier folds around it, instead of loading
// it from a buffer at every element.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace onnx {
class NodeProto;
}

namespace onegrad::onnx {

class ConstantFolds {
 public:
  // The outputs a node folded to on `device` (null when not yet).
  const std::vector<Tensor>* find(const ::onnx::NodeProto* node, const std::string& device) const;
  // Realizes the node's outputs and keeps them; returns them, one-element ones as CONSTs.
  const std::vector<Tensor>& keep(const ::onnx::NodeProto* node, const std::string& device, std::vector<Tensor> outs);
  // A value an op derived from the node's constant inputs (Node::folded), by slot.
  const Tensor* find_derived(const ::onnx::NodeProto* node, const std::string& device, int slot) const;
  Tensor keep_derived(const ::onnx::NodeProto* node, const std::string& device, int slot, Tensor t);

 private:
  std::map<std::pair<const ::onnx::NodeProto*, std::string>, std::vector<Tensor>> folded_;
  std::map<std::tuple<const ::onnx::NodeProto*, std::string, int>, Tensor> derived_;
};

// True when the node may be folded once its inputs are constants: no random draws, no subgraphs.
bool foldable_op(const ::onnx::NodeProto& node);

// A realized tensor of one element as a CONST of its shape and dtype; any other tensor unchanged.
Tensor const_if_scalar(const Tensor& t);

}  // namespace onegrad::onnx
