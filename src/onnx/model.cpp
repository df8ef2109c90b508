#include "onnx/model.h"

#include <filesystem>
#include <limits>
#include <set>

#include "nn/file_bytes.h"
#include "onnx.pb.h"
#include "onnx/constant_fold.h"
#include "onnx/graph.h"
#include "onnx/model_jit.h"
#include "onnx/tensor_proto.h"
#include "tensor/shape_util.h"
#include "uop/unsupported_error.h"
#include "uop/variable.h"

namespace onegrad::onnx {
namespace {

// Graph inputs and outputs must be tensors: sequences, maps, optionals and sparse tensors are not
// values onegrad has.
ValueInfo value_info(const ::onnx::ValueInfoProto& v, const char* role) {
  ValueInfo info;
  info.name = v.name();
  const auto& ty = v.type();
  const char* kind = ty.has_sequence_type() ? "a sequence" : ty.has_optional_type() ? "an optional"
                     : ty.has_map_type()    ? "a map"      : ty.has_sparse_tensor_type() ? "a sparse tensor" : nullptr;
  if (kind)
    throw UnsupportedError(std::string("onnx model: ") + role + " '" + v.name() + "' is " + kind + " (only tensors are supported)");
  if (!ty.has_tensor_type()) return info;
  const auto& tt = v.type().tensor_type();
  info.elem_type = tt.elem_type();
  if (!tt.has_shape()) return info;
  std::vector<Dim> dims;
  for (const auto& d : tt.shape().dim()) {
    Dim dim;
    // paddle2onnx writes a dim it does not know as dim_value -1 or dim_param "?": both are unknown
    // dims (a "?" in two places is not one shared size)
    if (d.has_dim_value() && d.dim_value() >= 0) dim.value = d.dim_value();
    else if (d.has_dim_param() && d.dim_param() != "?") dim.param = d.dim_param();
    dims.push_back(dim);
  }
  info.shape = dims;
  return info;
}

void collect_ops(const ::onnx::GraphProto& g, std::vector<std::string>& ops, std::set<std::string>& seen) {
  for (const auto& n : g.node()) {
    if (seen.insert(n.op_type()).second) ops.push_back(n.op_type());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_ops(a.g(), ops, seen);
      for (const auto& sub : a.graphs()) collect_ops(sub, ops, seen);
    }
  }
}

}  // namespace

std::string ValueInfo::type_str() const {
  std::string s = elem_type ? elem_type_name(elem_type) : "?";
  if (!shape) return s + "[?]";
  s += "[";
  for (size_t i = 0; i < shape->size(); ++i) {
    const Dim& d = (*shape)[i];
    s += (i ? ", " : "") + (d.value ? std::to_string(*d.value) : d.param.empty() ? "?" : d.param);
  }
  return s + "]";
}

Model Model::load(const std::string& path) {
  auto bytes = nn::read_file_bytes(path, "onnx model");
  auto dir = std::filesystem::path(path).parent_path().string();
  return parse(bytes.data(), bytes.size(), dir.empty() ? "." : dir, path);
}

Model Model::parse(const void* data, size_t nbytes, const std::string& base_dir, const std::string& what) {
  auto proto = std::make_shared<::onnx::ModelProto>();
  if (nbytes > size_t(std::numeric_limits<int>::max()) || !proto->ParseFromArray(data, int(nbytes)))
    nn::throw_format_error("onnx model", what, "not an ONNX ModelProto (protobuf parse failed: truncated or corrupted?)");
  if (!proto->has_graph())
    nn::throw_format_error("onnx model", what, "the ModelProto has no graph");
  Model m;
  m.base_dir_ = base_dir;
  for (const auto& os : proto->opset_import()) m.opsets_[os.domain() == "ai.onnx" ? "" : os.domain()] = os.version();
  if (!m.opsets_.count("")) m.opsets_[""] = 1;  // IR version 2 files may omit it
  const auto& g = proto->graph();
  m.initializers_ = std::make_shared<std::map<std::string, std::map<std::string, Tensor>>>();
  std::set<std::string> initialized;
  for (const auto& init : g.initializer()) initialized.insert(init.name());
  if (g.sparse_initializer_size() > 0) throw UnsupportedError("onnx model " + what + ": sparse initializers are not supported");
  for (const auto& in : g.input())
    if (!initialized.count(in.name())) m.inputs_.push_back(value_info(in, "input"));
  for (const auto& out : g.output()) m.outputs_.push_back(value_info(out, "output"));
  m.proto_ = proto;
  m.jit_ = std::make_shared<ModelJit>();
  m.folds_ = std::make_shared<ConstantFolds>();
  m.initializers_on("CPU");  // read every initializer (and external data file) now: errors show at load
  return m;
}

int64_t Model::ir_version() const { return proto_->ir_version(); }
std::string Model::producer() const { return proto_->producer_name() + " " + proto_->producer_version(); }

std::vector<std::string> Model::op_types() const {
  std::vector<std::string> ops;
  std::set<std::string> seen;
  collect_ops(proto_->graph(), ops, seen);
  return ops;
}

const std::map<std::string, Tensor>& Model::initializers_on(const std::string& device) const {
  auto it = initializers_->find(device);
  if (it != initializers_->end()) return it->second;
  std::map<std::string, Tensor> inits;
  for (const auto& init : proto_->graph().initializer())
    inits.insert_or_assign(init.name(), const_if_scalar(tensor_from_proto(init, base_dir_, device)));
  return initializers_->emplace(device, std::move(inits)).first->second;
}

void Model::check_input(const ValueInfo& info, const Tensor& t, std::map<std::string, int64_t>& bound) const {
  std::string where = "onnx model input '" + info.name + "'";
  if (info.elem_type) {
    DType want = dtype_of(info.elem_type, where);
    if (t.dtype() != want)
      throw DTypeError(where + ": expected " + elem_type_name(info.elem_type) + " (" + want.name() + "), got " + t.dtype().name());
  }
  if (!info.shape) return;
  auto shape = t.shape();
  if (shape.size() != info.shape->size())
    throw ShapeError(where + ": expected " + info.type_str() + " (rank " + std::to_string(info.shape->size()) +
                     "), got shape " + shape_text(shape));
  for (size_t i = 0; i < shape.size(); ++i) {
    const Dim& d = (*info.shape)[i];
    if (d.value && *d.value != shape[i])
      throw ShapeError(where + ": expected " + info.type_str() + ", got shape " + shape_text(shape) + " (axis " +
                       std::to_string(i) + ")");
    if (!d.param.empty()) {
      auto [it, fresh] = bound.emplace(d.param, shape[i]);
      if (!fresh && it->second != shape[i])
        throw ShapeError(where + ": dim '" + d.param + "' is " + std::to_string(shape[i]) + " here but " +
                         std::to_string(it->second) + " in an earlier input (got shape " + shape_text(shape) + ")");
    }
  }
}

// The input with each dim the file names (dim_param) as that name's Variable bound to the size.
Tensor Model::with_symbolic_dims(const ValueInfo& info, const Tensor& t) const {
  if (!symbolic_dims() || !info.shape) return t;
  auto shape = t.shape();
  Shape dims;
  bool any = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    const Dim& d = (*info.shape)[i];
    bool named = !d.param.empty() && shape[i] >= 1 && shape[i] <= kSymbolicDimMax;
    dims.push_back(named ? bind_variable(UOp::variable(d.param, 1, kSymbolicDimMax), shape[i]) : UOp::index(shape[i]));
    any |= named;
  }
  return any ? t.reshape_symbolic(dims) : t;
}

std::map<std::string, Tensor> Model::run(const std::map<std::string, Tensor>& inputs, const std::string& device) const {
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const auto& in : proto_->graph().input()) known |= in.name() == name;
    if (!known) {
      std::string names;
      for (const auto& i : inputs_) names += (names.empty() ? "" : ", ") + i.name;
      throw ArgumentError("onnx model: no input named '" + name + "' (inputs: " + names + ")");
    }
  }
  Scope scope;
  for (const auto& [name, t] : initializers_on(device)) {
    scope.values.insert_or_assign(name, t);
    if (!inputs.count(name)) scope.constants.insert(name);
  }
  std::map<std::string, int64_t> bound;
  for (const auto& info : inputs_) {
    auto it = inputs.find(info.name);
    if (it == inputs.end()) throw ArgumentError("onnx model: input '" + info.name + "' (" + info.type_str() + ") is missing");
    check_input(info, it->second, bound);
    scope.values.insert_or_assign(info.name, with_symbolic_dims(info, it->second.to(device)));
  }
  for (const auto& [name, t] : inputs)  // an initializer given as an input overrides its default
    if (!scope.values.count(name) || initializers_on(device).count(name)) scope.values.insert_or_assign(name, t.to(device));
  GraphContext ctx{opsets_, device, base_dir_, folds_.get()};
  auto outs = run_graph(proto_->graph(), scope, ctx);
  std::map<std::string, Tensor> result;
  for (size_t i = 0; i < outs.size(); ++i) result.insert_or_assign(outputs_[i].name, outs[i]);
  return result;
}

std::map<std::string, Tensor> Model::by_position(const std::vector<Tensor>& inputs) const {
  if (inputs.size() != inputs_.size())
    throw ArgumentError("onnx model: takes " + std::to_string(inputs_.size()) + " inputs, given " + std::to_string(inputs.size()));
  std::map<std::string, Tensor> named;
  for (size_t i = 0; i < inputs.size(); ++i) named.insert_or_assign(inputs_[i].name, inputs[i]);
  return named;
}

std::vector<Tensor> Model::in_output_order(const std::map<std::string, Tensor>& outs) const {
  std::vector<Tensor> result;
  for (const auto& o : outputs_) result.push_back(outs.at(o.name));
  return result;
}

std::vector<Tensor> Model::run(const std::vector<Tensor>& inputs, const std::string& device) const {
  return in_output_order(run(by_position(inputs), device));
}

std::map<std::string, Tensor> Model::operator()(const std::map<std::string, Tensor>& inputs, const std::string& device) const {
  return jit_->call(*this, inputs, device);
}

std::vector<Tensor> Model::operator()(const std::vector<Tensor>& inputs, const std::string& device) const {
  return in_output_order((*this)(by_position(inputs), device));
}

JitStats Model::jit_stats() const { return jit_->stats(); }
void Model::set_jit(bool on) { jit_->enabled = on; }
void Model::set_symbolic_dims(bool on) { jit_->symbolic = on; }
bool Model::symbolic_dims() const { return jit_->symbolic; }

}  // namespace onegrad::onnx
