// The table of layers by name (torch's class name), with each constructor's arguments in torch's
// order and their defaults. It is how a layer written once in C++ reaches other languages: the
// Python package builds each layer through this table and wraps the C++ module it gets (its
// parameters, buffers and children are the C++ module's own tensors), so what a layer computes
// and its state-dict keys are written only here, in src/nn. A new layer is one entry in
// layer_registry.cpp.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "nn/module.h"

namespace onegrad::nn {

// One argument value: None, a flag, an integer, a real, a string, a list of integers, or a tensor (a
// loss's class weights).
using LayerValue = std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>, Tensor>;

// The arguments of one construction, defaults filled in, read by name with the type the
// constructor wants (an int where a real or a list of ints is wanted converts; anything else is an
// ArgumentError naming the layer and the argument).
class LayerArgs {
 public:
  LayerArgs(std::string layer, std::vector<std::pair<std::string, LayerValue>> values)
      : layer_(std::move(layer)), values_(std::move(values)) {}
  bool is_none(const std::string& name) const;
  bool flag(const std::string& name) const;
  int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  std::string text(const std::string& name) const;
  std::vector<int64_t> ints(const std::string& name) const;  // an int is a list of one
  bool is_text(const std::string& name) const;
  std::optional<int64_t> opt_integer(const std::string& name) const;
  std::optional<double> opt_real(const std::string& name) const;
  std::optional<Tensor> opt_tensor(const std::string& name) const;  // None or a tensor

 private:
  const LayerValue& at(const std::string& name) const;
  [[noreturn]] void wrong(const std::string& name, const char* wanted) const;
  std::string layer_;
  std::vector<std::pair<std::string, LayerValue>> values_;
};

struct LayerArg {
  std::string name;
  std::optional<LayerValue> default_value;  // absent: the argument is required
};

using LayerValues = std::vector<std::pair<std::string, LayerValue>>;

struct LayerEntry {
  std::string name;            // torch's class name, also Module::name()
  std::vector<LayerArg> args;  // torch's positional order
  std::function<ModulePtr(const LayerArgs&)> make;
  // The arguments a built layer of this entry was made with, read back from it: for a layer that
  // another layer builds as a child (MultiheadAttention's out_proj, a transformer layer's norm1),
  // whose wrapper never saw them. Empty where no layer builds this one.
  std::function<LayerValues(const Module&)> arguments_of = {};
};

const std::vector<LayerEntry>& layer_table();
// ArgumentError "no layer named 'Foo' in the layer table" for an unknown name.
const LayerEntry& layer_entry(const std::string& name);
// Builds a layer from named arguments (any subset; the rest take their defaults). An unknown or
// missing argument is an ArgumentError naming the layer and the argument, as a TypeError would.
ModulePtr make_layer(const std::string& name, const std::vector<std::pair<std::string, LayerValue>>& given);
// The arguments `m` was built with (its entry's arguments_of); ArgumentError for a layer whose entry
// cannot read them back.
LayerValues layer_arguments(const Module& m);
// make_layer for a layer whose values are about to be replaced (a copy's members are pointed at
// copied tensors): the random generator is left where it was, so copying a module (copy.deepcopy,
// pickle) does not change the values drawn after it.
ModulePtr make_layer_shell(const std::string& name, const std::vector<std::pair<std::string, LayerValue>>& given);

}  // namespace onegrad::nn
