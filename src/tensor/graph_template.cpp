#include "tensor/graph_template.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "uop/settings.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The builder, its integer parameters, then per input: dtype, rank and dims; and the device.
using Key = std::tuple<std::string, std::vector<int64_t>, std::string>;

struct Template {
  UOpRef root;
  std::vector<UOpRef> placeholders;  // one per input, in order
  std::vector<const UOp*> order;     // root's toposort, walked by every substitution
};

// A leaf no user graph holds: a PARAM named for this purpose, with the input's shape, dtype and
// device, so that shape, dtype and device inference above it are those of the real input.
UOpRef placeholder(size_t slot, const Tensor& input, const std::vector<int64_t>& dims) {
  const UOpRef& u = input.uop();
  ParamArg p{int64_t(slot), u->dtype, u->device(), std::nullopt, "(graph template input)", std::nullopt, std::nullopt};
  return UOp::create(Ops::PARAM, u->dtype, {UOp::shape_operand(dims)}, Arg(std::move(p)));
}

// Bounded like arange's cache: a program that calls these ops on endless distinct shapes must not
// grow it without limit, so it is emptied when full.
constexpr size_t kMaxKept = 256;
std::mutex mu;
std::map<Key, std::shared_ptr<const Template>>& kept() {
  static std::map<Key, std::shared_ptr<const Template>> m;
  return m;
}

}  // namespace

Tensor from_graph_template(const char* op, const std::vector<int64_t>& params, const std::vector<Tensor>& inputs,
                           const std::function<Tensor(const std::vector<Tensor>&)>& build) {
  if (inputs.empty() || !setting("GRAPH_TEMPLATES", 1)) return build(inputs);
  const std::string& device = inputs[0].device();
  std::vector<std::vector<int64_t>> dims;
  Key key{op, params, device};
  for (const Tensor& t : inputs) {
    std::optional<std::vector<int64_t>> s = t.uop()->static_shape();
    if (!s || t.device() != device) return build(inputs);  // symbolic dims, or the builder's own device error
    std::get<1>(key).push_back(int64_t(t.dtype().hash()));
    std::get<1>(key).push_back(int64_t(s->size()));
    std::get<1>(key).insert(std::get<1>(key).end(), s->begin(), s->end());
    dims.push_back(std::move(*s));
  }
  std::shared_ptr<const Template> tpl;
  {
    std::lock_guard lock(mu);
    if (auto it = kept().find(key); it != kept().end()) tpl = it->second;
  }
  if (!tpl) {
    auto made = std::make_shared<Template>();
    std::vector<Tensor> stand_ins;
    for (size_t i = 0; i < inputs.size(); i++) {
      made->placeholders.push_back(placeholder(i, inputs[i], dims[i]));
      stand_ins.emplace_back(made->placeholders.back(), device);
    }
    made->root = build(stand_ins).uop();
    made->order = made->root->toposort();
    tpl = made;
    std::lock_guard lock(mu);
    if (kept().size() >= kMaxKept) kept().clear();
    kept().try_emplace(key, tpl);
  }
  Substitution subst;
  for (size_t i = 0; i < inputs.size(); i++) subst.emplace(tpl->placeholders[i].get(), inputs[i].uop());
  return Tensor(substitute(tpl->root, subst, tpl->order), device);
}

size_t graph_templates_kept() {
  std::lock_guard lock(mu);
  return kept().size();
}

}  // namespace onegrad
