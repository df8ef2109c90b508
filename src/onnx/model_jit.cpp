#include "onnx/model_jit.h"

#include <cstdio>
#include <optional>

#include "engine/jit.h"
#include "onnx/host_reads.h"
#include "onnx/model.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::onnx {

namespace {

// The outputs of one run (lazy), in the order of the model's outputs.
std::vector<Tensor> ordered_outputs(const Model& m, const std::map<std::string, Tensor>& named, const std::string& device) {
  auto outs = m.run(named, device);
  std::vector<Tensor> r;
  for (const auto& o : m.outputs()) r.push_back(outs.at(o.name));
  return r;
}

std::map<std::string, Tensor> by_name(const Model& m, std::vector<Tensor> outs) {
  std::map<std::string, Tensor> r;
  for (size_t i = 0; i < outs.size(); ++i) r.insert_or_assign(m.outputs()[i].name, std::move(outs[i]));
  return r;
}

std::string hex_bytes(const Tensor& t) {
  std::string s;
  char b[3];
  for (std::byte x : t.to_bytes()) {
    std::snprintf(b, sizeof b, "%02x", unsigned(x));
    s += b;
  }
  return s;
}

}  // namespace

// The state of the call in progress, for the captured function (which outlives no call: a
// replay does not run it).
struct ModelJit::Call {
  const Model* model;
  std::vector<std::string> names;
  std::string device;
  std::optional<std::set<std::string>> read;  // set when the function ran
};

ModelJit::ModelJit() = default;
ModelJit::~ModelJit() = default;

std::string ModelJit::signature(const std::map<std::string, Tensor>& inputs, const std::string& device) const {
  std::string key = device;
  for (const auto& [name, t] : inputs) {
    key += "|" + name + ":" + t.dtype().name() + shape_text(t.shape()) + "@" + t.device();
    if (value_inputs_.count(name)) key += "=" + hex_bytes(t);
  }
  return key;
}

std::map<std::string, Tensor> ModelJit::plain(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device) {
  auto outs = ordered_outputs(m, inputs, device);
  std::vector<Tensor*> ptrs;
  for (Tensor& t : outs) ptrs.push_back(&t);
  Tensor::realize_all(ptrs);
  plain_calls_++;
  return by_name(m, std::move(outs));
}

std::map<std::string, Tensor> ModelJit::jitted(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device) {
  std::string key = signature(inputs, device);
  auto it = captures_.find(key);
  if (it == captures_.end()) {
    auto fn = [this](const std::vector<Tensor>& ts) {
      std::map<std::string, Tensor> named;
      for (size_t i = 0; i < ts.size(); ++i) named.insert_or_assign(call_->names[i], ts[i]);
      HostReadLog log({named.begin(), named.end()});
      auto outs = ordered_outputs(*call_->model, named, call_->device);
      call_->read = log.inputs_read();
      return outs;
    };
    it = captures_.emplace(key, std::make_unique<Jit>(fn)).first;
  }
  Call call{&m, {}, device, std::nullopt};
  std::vector<Tensor> given;
  for (const auto& [name, t] : inputs) {
    call.names.push_back(name);
    given.push_back(t);
  }
  call_ = &call;
  Jit& jit = *it->second;
  bool was_captured = jit.captured();
  std::vector<Tensor> outs;
  try {
    outs = jit(given);
  } catch (...) {
    call_ = nullptr;
    captures_.erase(key);  // a failed warm-up or capture leaves nothing half made
    throw;
  }
  call_ = nullptr;
  if (was_captured) replays_++;
  else if (jit.captured()) captures_done_++;
  else plain_calls_++;
  if (call.read) learn_reads(inputs, *call.read, key);
  return by_name(m, std::move(outs));
}

// Inputs read on the host that the signature did not hold: small ones join it (this capture,
// keyed without their values, is dropped), a large one stops the JIT.
void ModelJit::learn_reads(const std::map<std::string, Tensor>& inputs, const std::set<std::string>& read, const std::string& key) {
  for (const std::string& name : read) {
    if (value_inputs_.count(name)) continue;
    const Tensor& t = inputs.at(name);
    if (t.numel() > kMaxKeyElements) {
      not_jitted_ = "the graph reads the values of input '" + name + "' (shape " + shape_text(t.shape()) +
                    ") on the host while it is built, so a capture would freeze them";
      captures_.clear();
      return;
    }
    value_inputs_.insert(name);
    captures_.erase(key);
  }
}

std::map<std::string, Tensor> ModelJit::call(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device) {
  auto once = [&] { return enabled && not_jitted_.empty() ? jitted(m, inputs, device) : plain(m, inputs, device); };
  if (!symbolic) return once();
  try {
    return once();
  } catch (const Error& e) {
    // A named dim as a Variable meets an op that cannot take it: the same call with static dims
    // decides. If it fails too, its error is the model's; if it works, dims stay static.
    std::string why = e.what();
    symbolic = false;
    try {
      auto outs = once();
      not_symbolic_ = why;
      return outs;
    } catch (...) {
      symbolic = true;
      throw;
    }
  }
}

JitStats ModelJit::stats() const {
  JitStats s;
  s.signatures = captures_.size();
  for (const auto& [key, jit] : captures_) s.kernels += jit->kernels();
  s.plain_calls = plain_calls_;
  s.captures = captures_done_;
  s.replays = replays_;
  s.value_inputs.assign(value_inputs_.begin(), value_inputs_.end());
  s.not_jitted = not_jitted_;
  s.not_symbolic = not_symbolic_;
  return s;
}

}  // namespace onegrad::onnx
