// Control flow run on the host: If realizes its condition and runs one branch's subgraph; Loop
// runs its body subgraph once per trip (the trip count and condition realized each time), so
// the model is unrolled into one tensor graph. Loop's scan outputs are stacked along a new axis 0.
// Scan runs its body once per slice of its scan inputs in the same way.
#include <algorithm>

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

// Scan: N state values, then M scan inputs sliced along their scan axis (reversed when the direction
// says so); the body runs once per slice, its scan outputs stacked along their axis. Before opset 9
// every value has a batch axis 0 (and sequence_lens comes first): each batch entry is scanned alone.
Outs scan_steps(const Node& n, const ::onnx::GraphProto& body, std::vector<Tensor> state, const std::vector<Tensor>& scanned,
                const std::vector<int64_t>& in_axes, const std::vector<int64_t>& in_dirs, const std::vector<int64_t>& out_axes,
                const std::vector<int64_t>& out_dirs) {
  size_t nstate = state.size();
  std::vector<std::vector<Tensor>> slices;
  int64_t steps = -1;
  for (size_t i = 0; i < scanned.size(); ++i) {
    const Tensor& x = scanned[i];
    auto parts = x.unbind(n.axis(in_axes.at(i), x.ndim()));
    if (in_dirs.at(i)) std::reverse(parts.begin(), parts.end());
    if (steps >= 0 && int64_t(parts.size()) != steps) throw ShapeError("Scan: scan inputs of different lengths");
    steps = int64_t(parts.size());
    slices.push_back(parts);
  }
  size_t nout = size_t(body.output_size()) - nstate;
  std::vector<std::vector<Tensor>> outs(nout);
  for (int64_t t = 0; t < steps; ++t) {
    std::vector<Tensor> args = state;
    for (auto& s : slices) args.push_back(s[size_t(t)]);
    auto r = n.run_subgraph(body, args);
    for (size_t k = 0; k < nstate; ++k) state[k] = r.at(k);
    for (size_t k = 0; k < nout; ++k) outs[k].push_back(r.at(nstate + k));
  }
  Outs result = state;
  for (size_t k = 0; k < nout; ++k) {
    if (outs[k].empty()) n.unsupported("scan outputs of a Scan over no steps");
    if (out_dirs.at(k)) std::reverse(outs[k].begin(), outs[k].end());
    result.push_back(Tensor::stack(outs[k], n.axis(out_axes.at(k), outs[k][0].ndim() + 1)));
  }
  return result;
}

Outs scan(const Node& n) {
  const auto* body = n.attr_graph("body");
  if (!body) throw ArgumentError("Scan: the body attribute is missing");
  size_t m = size_t(n.attr_int("num_scan_inputs", 0));
  size_t first = n.opset() < 9 ? 1 : 0;  // opset 8: sequence_lens, then the values
  if (m == 0 || m + first > n.num_inputs()) throw ArgumentError("Scan: num_scan_inputs must be in [1, inputs]");
  size_t nstate = n.num_inputs() - first - m;
  size_t nout = size_t(body->output_size()) - nstate;
  std::vector<Tensor> state, scanned;
  for (size_t i = 0; i < nstate; ++i) state.push_back(n.in(first + i));
  for (size_t i = 0; i < m; ++i) scanned.push_back(n.in(first + nstate + i));
  if (n.opset() >= 9)
    return scan_steps(n, *body, state, scanned, n.attr_ints("scan_input_axes", std::vector<int64_t>(m, 0)),
                      n.attr_ints("scan_input_directions", std::vector<int64_t>(m, 0)),
                      n.attr_ints("scan_output_axes", std::vector<int64_t>(nout, 0)),
                      n.attr_ints("scan_output_directions", std::vector<int64_t>(nout, 0)));
  if (n.has(0)) n.unsupported("Scan-8's sequence_lens");
  int64_t batch = (scanned.empty() ? state : scanned).at(0).shape().at(0);
  auto dirs = n.attr_ints("directions", std::vector<int64_t>(m, 0));
  std::vector<std::vector<Tensor>> per_batch;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Tensor> st, sc;
    for (auto& s : state) st.push_back(s.getitem({IndexItem(b)}));
    for (auto& s : scanned) sc.push_back(s.getitem({IndexItem(b)}));
    per_batch.push_back(scan_steps(n, *body, st, sc, std::vector<int64_t>(m, 0), dirs, std::vector<int64_t>(nout, 0),
                                   std::vector<int64_t>(nout, 0)));
  }
  Outs result;
  for (size_t k = 0; k < nstate + nout; ++k) {
    std::vector<Tensor> parts;
    for (auto& r : per_batch) parts.push_back(r.at(k));
    result.push_back(Tensor::stack(parts, 0));
  }
  return result;
}

}  // namespace

void add_control_ops(OpTable& t) {
  t["If"] = if_op;
  t["Loop"] = loop;
  t["Scan"] = scan;
}

}  // namespace onegrad::onnx
