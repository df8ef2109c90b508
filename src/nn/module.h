// Modules (docs/nn.md "Modules"): torch.nn.Module's model in C++. A module owns named parameters
// (leaf tensors with requires_grad), named buffers (state that is saved but not trained, such as
// BatchNorm's running statistics) and named children; names nest with dots as in torch
// ("0.weight", "bn.running_mean"), so a state dict made here has torch's keys for the same
// architecture. load_state_dict writes values in place (Tensor::assign), so optimizers and every
// other handle on a parameter keep seeing the module's tensors.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nn/state_dict.h"

namespace onegrad::nn {

class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  // Parameters are registered by address: a copied module would point at the original's tensors.
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The layer's computation on one input; modules with other signatures (losses, attention)
  // add their own overloads and say so here.
  virtual Tensor forward(const Tensor& x);
  Tensor operator()(const Tensor& x) { return forward(x); }
  // Every input as a list, for callers that do not know the layer's signature (the Python
  // bindings, layer_registry.h): one input goes to forward(x); layers whose forward takes several
  // tensors (losses, Bilinear) override it. A wrong count is an ArgumentError naming the layer.
  virtual Tensor forward_inputs(const std::vector<Tensor>& inputs);
  // Every output: forward_inputs' one tensor, or a layer's several (a max pool with
  // return_indices gives values and indices).
  virtual std::vector<Tensor> forward_outputs(const std::vector<Tensor>& inputs) { return {forward_inputs(inputs)}; }
  // torch's class name ("Linear"), used in messages.
  virtual std::string name() const = 0;

  // Recursive, in registration order, own entries before the children's (torch's order); a
  // tensor reachable under two names is listed once, under the first.
  std::vector<std::pair<std::string, Tensor*>> named_parameters();
  std::vector<Tensor> parameters();  // handles on the same tensors (optimizers take these)
  std::vector<std::pair<std::string, Tensor*>> named_buffers();
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const { return children_; }
  // This module's own members, not its children's, in registration order (the Python wrapper
  // walks children itself, so that a child is a Python Module too).
  const std::vector<std::pair<std::string, Tensor*>>& own_parameters() const { return params_; }
  const std::vector<std::pair<std::string, Tensor*>>& own_buffers() const { return buffers_; }
  // Points the member parameter or buffer `name` at `t` (a handle: they share buffer, .grad and
  // requires_grad), as assigning a Parameter to a torch module's attribute does. ArgumentError
  // for a name this module does not own, ShapeError when the shape differs.
  void set_member(const std::string& name, const Tensor& t);

  // Training mode for this module and every child: BatchNorm and Dropout read it.
  void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return training_; }

  // Parameters then buffers, module by module (torch's keys and order). The values are the
  // module's own tensors (detached handles: later in-place updates show through them).
  StateDict state_dict();
  // Every key checked first (missing, unexpected when strict, shapes always), then every value
  // written in place, cast to the tensor's dtype: on an error nothing is written.
  void load_state_dict(const StateDict& dict, bool strict = true);
  void zero_grad(bool set_to_none = false);

 protected:
  // forward_inputs' count check: ArgumentError "Bilinear: forward takes 2 input tensors, got 1".
  void expect_inputs(const std::vector<Tensor>& inputs, size_t n) const;
  // Registers a member tensor; `t` must live as long as the module (a member). Parameters become
  // realized leaves with requires_grad; buffers are realized.
  void register_parameter(const std::string& name, Tensor* t);
  void register_buffer(const std::string& name, Tensor* t);
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> m) {
    add_child(name, m);
    return m;
  }
  void add_child(const std::string& name, std::shared_ptr<Module> m);

 private:
  void check_new_name(const std::string& name) const;
  void collect(const std::string& prefix, bool buffers, std::vector<std::pair<std::string, Tensor*>>& out);

  std::vector<std::pair<std::string, Tensor*>> params_, buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
};

using ModulePtr = std::shared_ptr<Module>;

}  // namespace onegrad::nn
