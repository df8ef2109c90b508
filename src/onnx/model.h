// onegrad::onnx::Model: an ONNX model file loaded for running (docs/onnx.md). load() parses the
// ModelProto (protobuf) and reads every initializer into a buffer once; run() checks the inputs
// against the graph's declared types and shapes, builds the graph's nodes from Tensor ops and
// returns the outputs by name, lazy: realizing them compiles and runs the kernels. operator() runs
// the model under the JIT (onnx/model_jit.h): realized outputs, one capture per input signature.
// Dims the file names (dim_param: "batch", "sequence") become bound Variables, so kernels are
// compiled once for every value of the dim where the ops allow it (docs/onnx.md).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onnx {
class ModelProto;
}

namespace onegrad::onnx {

// A graph input or output as the file declares it: element type and dims, each a size, a symbolic
// name (dim_param, e.g. "batch") or unknown.
struct Dim {
  std::optional<int64_t> value;
  std::string param;  // dim_param, when named
};
struct ValueInfo {
  std::string name;
  int elem_type = 0;                       // TensorProto.DataType (0: not declared)
  std::optional<std::vector<Dim>> shape;   // nullopt: rank not declared
  std::string type_str() const;            // "FLOAT[batch, 3]"
};

class ModelJit;
struct JitStats;
class ConstantFolds;

class Model {
 public:
  // A named dim's Variable has the bounds [1, kSymbolicDimMax]; a size outside runs with static dims.
  static constexpr int64_t kSymbolicDimMax = 16384;

  // FileError when the file cannot be read; FormatError when it is not a ModelProto (truncated,
  // corrupted) or its initializers do not hold their data; the external data files are read here.
  static Model load(const std::string& path);
  // The same from bytes in memory; external data paths are relative to base_dir.
  static Model parse(const void* data, size_t nbytes, const std::string& base_dir, const std::string& what = "(memory)");

  const std::vector<ValueInfo>& inputs() const { return inputs_; }    // those not given by initializers
  const std::vector<ValueInfo>& outputs() const { return outputs_; }
  const std::map<std::string, int64_t>& opsets() const { return opsets_; }  // by domain ("" = ai.onnx)
  int64_t ir_version() const;
  std::string producer() const;
  std::vector<std::string> op_types() const;  // distinct, in first-use order (subgraphs included)

  // Outputs by name. Inputs by name; a missing one is ArgumentError; a dtype other than the declared
  // one is DTypeError and a shape that breaks the declared dims (a fixed size, or one symbolic name
  // bound to two sizes) a ShapeError, each naming the input. Inputs are moved to `device`.
  std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs, const std::string& device = "CPU") const;
  // Positional: inputs in the order of inputs(); outputs in the order of outputs().
  std::vector<Tensor> run(const std::vector<Tensor>& inputs, const std::string& device = "CPU") const;

  // The same, realized, under the JIT: per input signature (device, each input's name, shape and
  // dtype; the values of small inputs the graph reads on the host) the first call runs plain, the
  // second captures its kernels, later calls replay them. A model whose graph reads the values of a
  // large input on the host (NonMaxSuppression, Unique of an input) runs plain every call. Copies of
  // a Model share their captures.
  std::map<std::string, Tensor> operator()(const std::map<std::string, Tensor>& inputs, const std::string& device = "CPU") const;
  std::vector<Tensor> operator()(const std::vector<Tensor>& inputs, const std::string& device = "CPU") const;
  JitStats jit_stats() const;
  void set_jit(bool on);              // off: operator() runs plain (run + realize) every call
  // Named dims as Variables (default on). operator() turns them off for good, and says why in
  // jit_stats().not_symbolic, when a call fails with them and succeeds with static dims.
  void set_symbolic_dims(bool on);
  bool symbolic_dims() const;

 private:
  std::shared_ptr<const ::onnx::ModelProto> proto_;
  std::string base_dir_;
  std::vector<ValueInfo> inputs_, outputs_;
  std::map<std::string, int64_t> opsets_;
  std::shared_ptr<std::map<std::string, std::map<std::string, Tensor>>> initializers_;  // by device, by name
  const std::map<std::string, Tensor>& initializers_on(const std::string& device) const;
  std::shared_ptr<ModelJit> jit_;
  std::shared_ptr<ConstantFolds> folds_;  // constant nodes' outputs, realized once (onnx/constant_fold.h)
  void check_input(const ValueInfo& info, const Tensor& t, std::map<std::string, int64_t>& bound) const;
  Tensor with_symbolic_dims(const ValueInfo& info, const Tensor& t) const;
  std::map<std::string, Tensor> by_position(const std::vector<Tensor>& inputs) const;
  std::vector<Tensor> in_output_order(const std::map<std::string, Tensor>& outs) const;
};

}  // namespace onegrad::onnx
