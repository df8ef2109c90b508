#include "nn/checkpoint.h"

#include <algorithm>
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

// One metadata value parsed whole by `parse` (std::stoll, std::stod), else a FormatError naming the
// key and `what` it should be.
template <class Parse>
auto parse_whole(const std::string& s, Parse parse, const char* what, const std::string& path, const std::string& key) {
  try {
    size_t used = 0;
    auto v = parse(s, &used);
    if (used == s.size()) return v;
  } catch (const std::logic_error&) {
  }
  throw FormatError(path + ": checkpoint metadata '" + key + "' is not " + what + ": '" + s + "'");
}

int64_t integer_of(const std::string& s, const std::string& path, const std::string& key) {
  return parse_whole(s, [](const std::string& t, size_t* used) { return int64_t(std::stoll(t, used)); }, "an integer",
                     path, key);
}

double number_of(const std::string& s, const std::string& path, const std::string& key) {
  return parse_whole(s, [](const std::string& t, size_t* used) { return std::stod(t, used); }, "a number", path, key);
}

std::vector<int64_t> split_ints(const std::string& s, const std::string& path, const std::string& key) {
  std::vector<int64_t> out;
  for (size_t at = 0; at < s.size();) {
    size_t comma = std::min(s.find(',', at), s.size());
    out.push_back(integer_of(s.substr(at, comma - at), path, key));
    at = comma + 1;
  }
  return out;
}

// The metadata value of `key`; a FormatError when the file lacks it.
const std::string& required(const std::map<std::string, std::string>& meta, const std::string& key,
                            const std::string& path) {
  auto it = meta.find(key);
  if (it == meta.end()) throw FormatError(path + ": checkpoint metadata lacks '" + key + "'");
  return it->second;
}

// "optimizer.state.<i>.<name>" -> (i, name)
std::pair<int64_t, std::string> state_key(const std::string& key, const std::string& path) {
  const std::string prefix = std::string(kOptimizerPrefix) + "state.";
  size_t dot = key.find('.', prefix.size());
  if (key.rfind(prefix, 0) != 0 || dot == std::string::npos)
    throw FormatError(path + ": unexpected optimizer entry '" + key + "'");
  return {integer_of(key.substr(prefix.size(), dot - prefix.size()), path, key), key.substr(dot + 1)};
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
    const std::string& kind = required(meta, "optimizer", path);
    if (kind != optimizer->name())
      throw ArgumentError("load_checkpoint: " + path + " holds the state of " + kind + ", not of " +
                          optimizer->name());
    for (auto& [i, ps] : s.state) {
      std::string key = "optimizer.state." + std::to_string(i) + ".step";
      ps.step = integer_of(required(meta, key, path), path, key);
    }
    int64_t n = integer_of(groups->second, path, "optimizer.groups");
    if (n < 0 || size_t(n) > meta.size())  // each group has at least its params entry
      throw FormatError(path + ": checkpoint metadata 'optimizer.groups' = " + groups->second +
                        " does not match the groups it lists");
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
