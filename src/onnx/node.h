// One ONNX node as an op implementation sees it: its inputs as Tensors (absent optional inputs are
// nullopt), its attributes with ONNX's defaults, the opset of its domain, and the device the model
// runs on. Ops that need an input's values while the graph is built (a Reshape's shape, a Slice's
// starts) read them with ints()/floats(), which realize the input.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace onnx {
class NodeProto;
class AttributeProto;
class GraphProto;
}  // namespace onnx

namespace onegrad::onnx {

class Node {
 public:
  Node(const ::onnx::NodeProto& proto, int64_t opset, std::vector<std::optional<Tensor>> inputs, std::string device,
       std::string base_dir);

  const ::onnx::NodeProto& proto() const { return proto_; }
  const std::string& op() const;
  int64_t opset() const { return opset_; }
  const std::string& device() const { return device_; }
  const std::string& base_dir() const { return base_dir_; }
  size_t num_outputs() const;  // as the node lists them (absent optional outputs included)
  bool wants_output(size_t i) const;  // the node names output i

  // ---- inputs
  size_t num_inputs() const { return inputs_.size(); }
  bool has(size_t i) const { return i < inputs_.size() && inputs_[i].has_value(); }
  const Tensor& in(size_t i) const;  // ArgumentError naming the op when absent
  std::optional<Tensor> opt(size_t i) const { return has(i) ? inputs_[i] : std::nullopt; }
  const std::vector<std::optional<Tensor>>& inputs() const { return inputs_; }
  // The op realized input i as `t` (a contraction's operand computed once into a buffer): the graph
  // hands `t` to the nodes that read the input after this one, which then load the buffer instead
  // of computing the value again (a residual block's input, a BatchNorm of a conv's raw sums, is
  // both the 1x1 conv's operand and the residual add's).
  void realized_input(size_t i, Tensor t) const { realized_.emplace_back(i, std::move(t)); }
  const std::vector<std::pair<size_t, Tensor>>& realized_inputs() const { return realized_; }
  // An input's values (realized; ints cast to int64, floats to float64).
  std::vector<int64_t> ints(size_t i) const;
  std::vector<double> floats(size_t i) const;

  // ---- attributes
  bool has_attr(const std::string& name) const;
  int64_t attr_int(const std::string& name, int64_t dflt) const;
  double attr_float(const std::string& name, double dflt) const;
  std::string attr_string(const std::string& name, const std::string& dflt) const;
  std::vector<int64_t> attr_ints(const std::string& name, std::vector<int64_t> dflt = {}) const;
  std::vector<double> attr_floats(const std::string& name, std::vector<double> dflt = {}) const;
  std::vector<std::string> attr_strings(const std::string& name, std::vector<std::string> dflt = {}) const;
  std::optional<Tensor> attr_tensor(const std::string& name) const;
  const ::onnx::GraphProto* attr_graph(const std::string& name) const;

  // An axis attribute or value in [-rank, rank) made non-negative; ShapeError naming the op otherwise.
  int64_t axis(int64_t a, int64_t rank) const;
  // UnsupportedError "<Op> ...: <what> is not supported".
  [[noreturn]] void unsupported(const std::string& what) const;

  // Runs a subgraph (If's branches, Loop's body) with these values for its inputs, in the scope of
  // the graph that holds this node (a subgraph may read the outer graph's values by name).
  using SubgraphRunner = std::function<std::vector<Tensor>(const ::onnx::GraphProto&, const std::vector<Tensor>&)>;
  SubgraphRunner run_subgraph;

  // ---- constants (onnx/constant_fold.h)
  // Input i is the same at every run: an initializer, a Constant's output, a folded value.
  bool constant(size_t i) const { return i < constant_.size() && constant_[i]; }
  // make(), a tensor computed from constant inputs only (a weight in another layout), realized once
  // per model and device and kept under (this node, slot); make() itself where nothing keeps it.
  using Folder = std::function<Tensor(int slot, const std::function<Tensor()>& make)>;
  Tensor folded(int slot, const std::function<Tensor()>& make) const { return folder_ ? folder_(slot, make) : make(); }
  void set_constants(std::vector<bool> constant, Folder folder) {
    constant_ = std::move(constant);
    folder_ = std::move(folder);
  }

 private:
  const ::onnx::AttributeProto* find_attr(const std::string& name) const;
  const ::onnx::NodeProto& proto_;
  int64_t opset_;
  std::vector<std::optional<Tensor>> inputs_;
  mutable std::vector<std::pair<size_t, Tensor>> realized_;
  std::string device_, base_dir_;
  std::vector<bool> constant_;
  Folder folder_;
};

// Values read from a tensor (realized).
std::vector<int64_t> ints_of(const Tensor& t);
std::vector<double> floats_of(const Tensor& t);

}  // namespace onegrad::onnx
