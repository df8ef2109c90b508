// Control flow run on the host: If realizes its condition and runs one branch's subgraph; Loop
// runs its body subgraph once per trip (the trip count and condition realized each time), so
// the model is unrolled into one tensor graph. Loop's scan outputs are stacked along a new axis 0.
#include "onnx.pb.h"
#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

bool truth(const Tensor& t) {
  auto v = ints_of(t.cast(dtypes::int64));
  if (v.size() != 1) throw ShapeError("the condition must hold one value, got " + std::to_string(v.size()));
  return v[0] != 0;
}

Outs if_op(const Node& n) {
  const auto* g = n.attr_graph(truth(n.in(0)) ? "then_branch" : "else_branch");
  if (!g) throw ArgumentError("If: the then_branch/else_branch attribute is missing");
  return n.run_subgraph(*g, {});
}

Outs loop(const Node& n) {
  const auto* body = n.attr_graph("body");
  if (!body) throw ArgumentError("Loop: the body attribute is missing");
  std::optional<int64_t> trips;
  if (n.has(0)) trips = n.ints(0).at(0);
  bool cond = n.has(1) ? truth(n.in(1)) : true;
  std::vector<Tensor> carried;
  for (size_t i = 2; i < n.num_inputs(); ++i) carried.push_back(n.in(i));
  size_t num_scan = size_t(body->output_size()) - 1 - carried.size();
  std::vector<std::vector<Tensor>> scans(num_scan);
  const int64_t kMaxUnrolled = 1 << 16;  // a host loop this long is a model this importer should not unroll
  for (int64_t i = 0; (!trips || i < *trips) && cond; ++i) {
    if (i >= kMaxUnrolled) n.unsupported("a Loop of more than 65536 trips");
    std::vector<Tensor> args{Tensor::from_vector(std::vector<int64_t>{i}, {}, dtypes::int64).to(n.device()),
                             Tensor::from_vector(std::vector<uint8_t>{1}, {}, dtypes::bool_).to(n.device())};
    args.insert(args.end(), carried.begin(), carried.end());
    auto outs = n.run_subgraph(*body, args);
    cond = truth(outs.at(0));
    for (size_t k = 0; k < carried.size(); ++k) carried[k] = outs.at(1 + k);
    for (size_t k = 0; k < num_scan; ++k) scans[k].push_back(outs.at(1 + carried.size() + k));
  }
  Outs result = carried;
  for (auto& s : scans) {
    if (s.empty()) n.unsupported("scan outputs of a Loop that runs no trip");
    result.push_back(Tensor::stack(s, 0));
  }
  return result;
}

}  // namespace

void add_control_ops(OpTable& t) {
  t["If"] = if_op;
  t["Loop"] = loop;
}

}  // namespace onegrad::onnx
