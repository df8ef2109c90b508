// Checkpoints (docs/nn.md "Checkpoints"): a model's state dict and, optionally, its optimizer's
// state in one safetensors file. The model's tensors keep their state-dict names ("0.weight"), so
// the file loads as a plain state dict anywhere (torch included); the optimizer's tensors are named
// "optimizer.state.<param>.<name>" and its step counts and group options go in the metadata.
// python/onegrad/nn/checkpoint.py writes and reads the same layout.
#pragma once
#include <string>

#include "nn/module.h"
#include "nn/optimizer.h"

namespace onegrad::nn {

inline constexpr const char* kCheckpointFormat = "onegrad.checkpoint.v1";

// model_state: a state dict (Module::state_dict(), or a Python module's entries).
void save_checkpoint(const std::string& path, const StateDict& model_state, const Optimizer* optimizer = nullptr);
inline void save_checkpoint(const std::string& path, Module& model, const Optimizer* optimizer = nullptr) {
  save_checkpoint(path, model.state_dict(), optimizer);
}

// The model's entries of the file; when `optimizer` is given, its state is loaded from the file (a
// FormatError when the file has none, an ArgumentError when it is another optimizer's).
StateDict read_checkpoint(const std::string& path, Optimizer* optimizer = nullptr);
// read_checkpoint, then the model's load_state_dict (strict). Each part is checked in full before
// it is written.
void load_checkpoint(const std::string& path, Module& model, Optimizer* optimizer = nullptr);

}  // namespace onegrad::nn
