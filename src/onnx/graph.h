// Runs an ONNX graph: each node, in the order the file lists them (ONNX requires a topological
// order), built from Tensor ops by the op table; values live in scopes so that a subgraph (If,
// Loop) reads its outer graph's values by name. An error in a node comes out as the same typed
// error with "onnx node '<name>' (<Op>, opset <n>): " in front of its message.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tensor/tensor.h"

namespace onnx {
class GraphProto;
}

namespace onegrad::onnx {

struct Scope {
  std::unordered_map<std::string, Tensor> values;
  std::unordered_set<std::string> constants;  // values the same at every run (onnx/constant_fold.h)
  const Scope* outer = nullptr;
  const Tensor* find(const std::string& name) const;
  bool is_constant(const std::string& name) const;  // as find: the innermost scope holding the name decides
};

class ConstantFolds;

struct GraphContext {
  std::map<std::string, int64_t> opsets;  // by domain ("" is ai.onnx)
  std::string device = "CPU";
  std::string base_dir;  // the model's folder (external data)
  ConstantFolds* folds = nullptr;  // where constant nodes keep their outputs (null: no folding)
};

// Runs the nodes of `g` in `scope` (its inputs and initializers already there) and returns the
// values of the graph's outputs, in order.
std::vector<Tensor> run_graph(const ::onnx::GraphProto& g, Scope& scope, const GraphContext& ctx);

// Runs a subgraph: its inputs bound to `inputs` (in order), its initializers loaded, in a scope
// under `outer`.
std::vector<Tensor> run_subgraph(const ::onnx::GraphProto& g, const std::vector<Tensor>& inputs, const Scope& outer,
                                 const GraphContext& ctx);

// "node 'name'" or, for a node without a name, "node #i".
std::string node_label(const ::onnx::GraphProto& g, int i);

}  // namespace onegrad::onnx
