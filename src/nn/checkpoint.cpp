#include "nn/checkpoint.h"

#include <cstdio>

#include "nn/safetensors.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

constexpr std::string_view kOptimizerPrefix = "optimizer.";

std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

std::vector<int64_t> split_ints(const std::string& s, const std::string& path, const std::string& key) {
  std::vector<int64_t> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t comma = s.find(',', at);
    std::string part = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    try {
      size_t used = 0;
      out.push_back(std::stoll(part, &used));
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::logic_error&) {
      throw FormatError(path + ": checkpoint metadata '" + key + "' is not a list of integers: '" + s + "'");
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

double number_of(const std::string& s, const std::string& path, const std::string& key) {
  try {
    size_t used = 0;
    double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (const std::logic_error&) {
  }
  throw FormatError(path + ": checkpoint metadata '" + key + "' is not a number: '" + s + "'");
}

// "optimizer.state.<i>.<name>" -> (i, name)
std::pair<int64_t, std::string> state_key(const std::string& key, const std::string& path) {
  const std::string prefix = std::string(kOptimizerPrefix) + "state.";
  size_t dot = key.find('.', prefix.size());
  if (key.rfind(prefix, 0) != 0 || dot == std::string::npos)
    throw FormatError(path + ": unexpected optimizer entry '" + key + "'");
  return {split_ints(key.substr(prefix.size(), dot - prefix.size()), path, key).at(0), key.substr(dot + 1)};
}

}  // namespace

void save_checkpoint(const std::string& path, const StateDict& model_state, const Optimizer* optimizer) {
  NamedTensors tensors;
  std::map<std::string, std::string> meta{{"format", kCheckpointFormat}};
  for (const auto& [name, t] : model_state) {
    if (name.rfind(kOptimizerPrefix, 0) == 0)
      throw ArgumentError("save_checkpoint: the model's entry '" + name + "' clashes with the optimizer's names");
    tensors.emplace_back(name, t);
  }
  if (optimizer != nullptr) {
    OptimizerState s = optimizer->state_dict();
    meta["optimizer"] = optimizer->name();
    for (const auto& [i, ps] : s.state) {
      std::string base = "optimizer.state." + std::to_string(i);
      meta[base + ".step"] = std::to_string(ps.step);
      for (const auto& [name, t] : ps.tensors) tensors.emplace_back(base + "." + name, t);
    }
    meta["optimizer.groups"] = std::to_string(s.group_options.size());
    for (size_t g = 0; g < s.group_options.size(); g++) {
      std::string base = "optimizer.group." + std::to_string(g);
      meta[base + ".params"] = join(s.group_params[g]);
      for (const auto& [k, v] : s.group_options[g]) meta[base + "." + k] = number_text(v);
    }
  }
  save_safetensors(path, tensors, meta);
}

StateDict read_checkpoint(const std::string& path, Optimizer* optimizer) {
  SafetensorsContents c = load_safetensors_with_metadata(path);
  StateDict weights;
  OptimizerState s;
  for (auto& [name, t] : c.tensors) {
    if (name.rfind(kOptimizerPrefix, 0) != 0) {
      weights.set(name, t);
      continue;
    }
    auto [i, state_name] = state_key(name, path);
    s.state[i].tensors.emplace_back(state_name, t);
  }
  const auto& meta = c.metadata;
  if (optimizer != nullptr) {
    auto groups = meta.find("optimizer.groups");
    if (groups == meta.end())
      throw FormatError(path + ": the checkpoint holds no optimizer state (it was saved without an optimizer)");
    if (meta.at("optimizer") != optimizer->name())
      throw ArgumentError("load_checkpoint: " + path + " holds the state of " + meta.at("optimizer") +
                          ", not of " + optimizer->name());
    for (auto& [i, ps] : s.state) {
      std::string key = "optimizer.state." + std::to_string(i) + ".step";
      auto it = meta.find(key);
      if (it == meta.end()) throw FormatError(path + ": checkpoint metadata lacks '" + key + "'");
      ps.step = int64_t(number_of(it->second, path, key));
    }
    int64_t n = int64_t(number_of(groups->second, path, "optimizer.groups"));
    for (int64_t g = 0; g < n; g++) {
      std::string base = "optimizer.group." + std::to_string(g) + ".";
      std::map<std::string, double> options;
      std::vector<int64_t> params;
      for (const auto& [k, v] : meta) {
        if (k.rfind(base, 0) != 0) continue;
        std::string option = k.substr(base.size());
        if (option == "params") params = split_ints(v, path, k);
        else options[option] = number_of(v, path, k);
      }
      s.group_options.push_back(std::move(options));
      s.group_params.push_back(std::move(params));
    }
  }
  if (optimizer != nullptr) optimizer->load_state_dict(s);
  return weights;
}

void load_checkpoint(const std::string& path, Module& model, Optimizer* optimizer) {
  model.load_state_dict(read_checkpoint(path, optimizer));
}

}  // namespace onegrad::nn
