#include "onnx/graph.h"

#include <unordered_map>
#include <unordered_set>

#include "onnx.pb.h"
#include "onnx/computed_once.h"
#include "onnx/constant_fold.h"
#include "onnx/op_table.h"
#include "onnx/tensor_proto.h"
#include "uop/unsupported_error.h"
#include "uop/index_error.h"

namespace onegrad::onnx {
namespace {

// The same error class with `prefix` before its message, so that callers catching ShapeError still
// catch it. Non-onegrad exceptions from an op are bugs: InternalError with the node named.
[[noreturn]] void rethrow_in(const std::string& prefix) {
  try {
    throw;
  } catch (const ShapeError& e) {
    throw ShapeError(prefix + e.what());
  } catch (const DTypeError& e) {
    throw DTypeError(prefix + e.what());
  } catch (const ArgumentError& e) {
    throw ArgumentError(prefix + e.what());
  } catch (const UnsupportedError& e) {
    throw UnsupportedError(prefix + e.what());
  } catch (const FormatError& e) {
    throw FormatError(prefix + e.what());
  } catch (const FileError& e) {
    throw FileError(prefix + e.what());
  } catch (const IndexError& e) {
    throw;  // carries the index value; its message already names the op
  } catch (const Error& e) {
    throw;
  } catch (const std::exception& e) {
    throw InternalError(prefix + e.what());
  }
}

bool is_onnx_domain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

void set_outputs(const ::onnx::NodeProto& n, const std::vector<Tensor>& outs, Scope& scope, bool constant) {
  for (int o = 0; o < n.output_size(); ++o) {
    if (n.output(o).empty()) continue;
    scope.values.insert_or_assign(n.output(o), outs[size_t(o)]);
    if (constant) scope.constants.insert(n.output(o));
    else scope.constants.erase(n.output(o));
  }
}

}  // namespace

const Tensor* Scope::find(const std::string& name) const {
  for (const Scope* s = this; s; s = s->outer) {
    auto it = s->values.find(name);
    if (it != s->values.end()) return &it->second;
  }
  return nullptr;
}

bool Scope::is_constant(const std::string& name) const {
  for (const Scope* s = this; s; s = s->outer)
    if (s->values.count(name)) return s->constants.count(name) > 0;
  return false;
}

std::string node_label(const ::onnx::GraphProto& g, int i) {
  const auto& n = g.node(i);
  return n.name().empty() ? "node #" + std::to_string(i) : "node '" + n.name() + "'";
}

// The values a GlobalAveragePool or GlobalMaxPool reads that another node reads too (a
// squeeze-excite block's x, which the block then scales: x * s). Each is computed once into a
// buffer where it is made, and every reader reads that buffer: the pool sums it and the scaled
// product (a pointwise Conv's input, onnx/channel_scale.h) loads it, where otherwise the ops that
// made it (a BatchNorm and hardswish over a conv) ran again in the pool's kernel and in the
// kernel that realized the product.
std::unordered_set<std::string> pooled_and_shared(const ::onnx::GraphProto& g) {
  std::unordered_map<std::string, int> readers;
  std::unordered_set<std::string> pooled, out;
  for (const auto& n : g.node()) {
    for (const auto& name : n.input()) readers[name]++;
    if ((n.op_type() == "GlobalAveragePool" || n.op_type() == "GlobalMaxPool") && n.input_size() > 0) pooled.insert(n.input(0));
  }
  for (const auto& o : g.output()) readers[o.name()]++;
  for (const auto& name : pooled)
    if (readers[name] > 1) out.insert(name);
  return out;
}

// computed_once, in the shape the value's ops compute it in when it is a reshape of them (a
// pointwise conv's flat pixels, tensor/conv.cpp): realized through the reshape, its kernel would
// run over the reshaped axes (det's 18 -> 96 channel conv on 40x40 as 40 x 40 pixels, not 1600).
Tensor computed_where_made(const Tensor& t) {
  const UOp& u = *t.uop();
  if (u.op != Ops::RESHAPE || !u.src[0]->static_shape() || !t.uop()->static_shape()) return computed_once(t);
  return computed_once(Tensor(u.src[0], t.device())).reshape(t.shape());
}

std::vector<Tensor> run_graph(const ::onnx::GraphProto& g, Scope& scope, const GraphContext& ctx) {
  const OpTable& table = op_table();
  std::unordered_set<std::string> shared = pooled_and_shared(g);
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    auto dom = ctx.opsets.find(is_onnx_domain(n.domain()) ? "" : n.domain());
    int64_t opset = dom == ctx.opsets.end() ? 1 : dom->second;
    std::string where = "onnx " + node_label(g, i) + " (" + n.op_type() + ", opset " + std::to_string(opset) + "): ";
    bool onnx_domain = is_onnx_domain(n.domain());
    auto fn = table.find(onnx_domain ? n.op_type() : n.domain() + "/" + n.op_type());
    if (fn == table.end() && !onnx_domain)
      throw UnsupportedError(where + "op " + n.op_type() + " of domain '" + n.domain() + "' is not supported");
    if (fn == table.end()) throw UnsupportedError(where + "op " + n.op_type() + " is not supported");
    bool fold = ctx.folds && foldable_op(n);
    for (const auto& name : n.input()) fold = fold && (name.empty() || scope.is_constant(name));
    if (const std::vector<Tensor>* done = fold ? ctx.folds->find(&n, ctx.device) : nullptr) {
      set_outputs(n, *done, scope, true);
      continue;
    }
    std::vector<std::optional<Tensor>> inputs;
    for (const auto& name : n.input()) {
      if (name.empty()) {
        inputs.emplace_back();
        continue;
      }
      const Tensor* t = scope.find(name);
      if (!t) throw FormatError(where + "reads '" + name + "', which no earlier node, input or initializer defines");
      inputs.emplace_back(*t);
    }
    Node node(n, opset, std::move(inputs), ctx.device, ctx.base_dir);
    node.run_subgraph = [&](const ::onnx::GraphProto& sub, const std::vector<Tensor>& args) {
      return onnx::run_subgraph(sub, args, scope, ctx);
    };
    if (ctx.folds) {
      std::vector<bool> constant;
      for (const auto& name : n.input()) constant.push_back(!name.empty() && scope.is_constant(name));
      node.set_constants(std::move(constant), [&](int slot, const std::function<Tensor()>& make) {
        if (const Tensor* t = ctx.folds->find_derived(&n, ctx.device, slot)) return *t;
        return ctx.folds->keep_derived(&n, ctx.device, slot, make());
      });
    }
    std::vector<Tensor> outs;
    try {
      outs = fn->second(node);
    } catch (...) {
      rethrow_in(where);
    }
    for (int o = 0; o < n.output_size(); ++o)
      if (!n.output(o).empty() && size_t(o) >= outs.size())
        throw UnsupportedError(where + "output " + std::to_string(o) + " ('" + n.output(o) + "') is not supported");
    if (fold) {
      try {
        set_outputs(n, ctx.folds->keep(&n, ctx.device, std::move(outs)), scope, true);
      } catch (...) {
        rethrow_in(where);
      }
    } else {
      for (int o = 0; o < n.output_size() && size_t(o) < outs.size(); ++o)
        if (shared.count(n.output(o))) outs[size_t(o)] = computed_where_made(outs[size_t(o)]);
      set_outputs(n, outs, scope, false);
    }
    for (const auto& [slot, t] : node.realized_inputs())
      if (!scope.is_constant(n.input(int(slot)))) scope.values.insert_or_assign(n.input(int(slot)), t);
  }
  std::vector<Tensor> results;
  for (const auto& out : g.output()) {
    const Tensor* t = scope.find(out.name());
    if (!t) throw FormatError("onnx: graph output '" + out.name() + "' is not defined by any node, input or initializer");
    results.push_back(*t);
  }
  return results;
}

std::vector<Tensor> run_subgraph(const ::onnx::GraphProto& g, const std::vector<Tensor>& inputs, const Scope& outer,
                                 const GraphContext& ctx) {
  Scope scope;
  scope.outer = &outer;
  for (const auto& init : g.initializer()) {
    scope.values.insert_or_assign(init.name(), tensor_from_proto(init, ctx.base_dir, ctx.device));
    scope.constants.insert(init.name());
  }
  if (size_t(g.input_size()) < inputs.size())
    throw FormatError("onnx: subgraph '" + g.name() + "' takes " + std::to_string(g.input_size()) + " inputs, given " +
                      std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) scope.values.insert_or_assign(g.input(int(i)).name(), inputs[i]);
  return run_graph(g, scope, ctx);
}

}  // namespace onegrad::onnx
