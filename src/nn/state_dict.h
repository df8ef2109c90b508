// StateDict: an ordered name -> Tensor list, what Module::state_dict gives and load_state_dict
// takes (docs/nn.md "Modules"), and the error a load raises.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad::nn {

// What load_state_dict rejects: missing keys, unexpected keys (strict) and shape mismatches
// (always). The message lists every problem as torch's does; the lists are kept for callers.
struct StateDictError : Error {
  StateDictError(const std::string& msg, std::vector<std::string> missing, std::vector<std::string> unexpected)
      : Error(msg), missing_keys(std::move(missing)), unexpected_keys(std::move(unexpected)) {}
  std::vector<std::string> missing_keys, unexpected_keys;
};

// An ordered name -> Tensor list (torch's OrderedDict): insertion order is the module's order.
class StateDict {
 public:
  void set(const std::string& key, const Tensor& value);  // replaces an existing key in place
  const Tensor* find(const std::string& key) const;       // null when absent
  const Tensor& at(const std::string& key) const;         // ArgumentError naming the key when absent
  bool contains(const std::string& key) const { return find(key) != nullptr; }
  size_t size() const { return items_.size(); }
  std::vector<std::string> keys() const;
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<std::pair<std::string, Tensor>> items_;
};

}  // namespace onegrad::nn
