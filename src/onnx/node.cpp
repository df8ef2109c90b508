#include "onnx/node.h"

#include "engine/launch_capture.h"
#include "onnx.pb.h"
#include "onnx/host_reads.h"
#include "onnx/tensor_proto.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {

Node::Node(const ::onnx::NodeProto& proto, int64_t opset, std::vector<std::optional<Tensor>> inputs, std::string device,
           std::string base_dir)
    : proto_(proto), opset_(opset), inputs_(std::move(inputs)), device_(std::move(device)), base_dir_(std::move(base_dir)) {}

const std::string& Node::op() const { return proto_.op_type(); }
size_t Node::num_outputs() const { return size_t(proto_.output_size()); }
bool Node::wants_output(size_t i) const { return i < num_outputs() && !proto_.output(int(i)).empty(); }

const Tensor& Node::in(size_t i) const {
  if (!has(i)) throw ArgumentError(op() + ": input " + std::to_string(i) + " is required but missing");
  return *inputs_[i];
}

// A host read's kernels are not part of a JIT capture: the values are frozen into the graph.
std::vector<int64_t> ints_of(const Tensor& t) {
  note_host_read(t);
  LaunchCapturePause pause;
  if (t.numel() == 0) return {};
  return t.cast(dtypes::int64).to_vector<int64_t>();
}

std::vector<double> floats_of(const Tensor& t) {
  note_host_read(t);
  LaunchCapturePause pause;
  if (t.numel() == 0) return {};
  return t.cast(dtypes::float64).to_vector<double>();
}

std::vector<int64_t> Node::ints(size_t i) const { return ints_of(in(i)); }
std::vector<double> Node::floats(size_t i) const { return floats_of(in(i)); }

const ::onnx::AttributeProto* Node::find_attr(const std::string& name) const {
  for (const auto& a : proto_.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

bool Node::has_attr(const std::string& name) const { return find_attr(name) != nullptr; }

int64_t Node::attr_int(const std::string& name, int64_t dflt) const {
  auto* a = find_attr(name);
  return a ? a->i() : dflt;
}
double Node::attr_float(const std::string& name, double dflt) const {
  auto* a = find_attr(name);
  return a ? double(a->f()) : dflt;
}
std::string Node::attr_string(const std::string& name, const std::string& dflt) const {
  auto* a = find_attr(name);
  return a ? a->s() : dflt;
}
std::vector<int64_t> Node::attr_ints(const std::string& name, std::vector<int64_t> dflt) const {
  auto* a = find_attr(name);
  return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : dflt;
}
std::vector<double> Node::attr_floats(const std::string& name, std::vector<double> dflt) const {
  auto* a = find_attr(name);
  return a ? std::vector<double>(a->floats().begin(), a->floats().end()) : dflt;
}
std::vector<std::string> Node::attr_strings(const std::string& name, std::vector<std::string> dflt) const {
  auto* a = find_attr(name);
  return a ? std::vector<std::string>(a->strings().begin(), a->strings().end()) : dflt;
}
std::optional<Tensor> Node::attr_tensor(const std::string& name) const {
  auto* a = find_attr(name);
  if (!a) return std::nullopt;
  return tensor_from_proto(a->t(), base_dir_, device_);
}
const ::onnx::GraphProto* Node::attr_graph(const std::string& name) const {
  auto* a = find_attr(name);
  return a && a->has_g() ? &a->g() : nullptr;
}

int64_t Node::axis(int64_t a, int64_t rank) const {
  int64_t r = rank == 0 ? 1 : rank;
  if (a < -r || a >= r)
    throw ShapeError(op() + ": axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
  return a < 0 ? a + r : a;
}

void Node::unsupported(const std::string& what) const { throw UnsupportedError(op() + ": " + what + " is not supported"); }

}  // namespace onegrad::onnx
