#include "onnx/channel_scale.h"

#include <unordered_set>

#include "onnx/computed_once.h"

namespace onegrad::onnx {
namespace {

// Whether the value is computed from a REDUCE (a mean, a conv): a scale made of constants and
// inputs only is left to the product's own kernel, the epilogue of the conv that makes a.
bool reads_reduce(const UOp* value) {
  std::vector<const UOp*> todo{value};
  std::unordered_set<const UOp*> seen;
  while (!todo.empty()) {
    const UOp* u = todo.back();
    todo.pop_back();
    if (!seen.insert(u).second || u->op == Ops::BUFFER) continue;
    if (u->op == Ops::REDUCE) return true;
    for (const UOpRef& s : u->src) todo.push_back(s.get());
  }
  return false;
}

}  // namespace

std::optional<Tensor> scaled_by_channel(const Tensor& x) {
  const UOp& m = *x.uop();
  auto full = m.static_shape();
  if (m.op != Ops::MUL || !full || full->size() < 3) return std::nullopt;
  for (size_t i = 0; i < 2; i++) {
    const UOpRef& scale = m.src[i];
    const UOpRef& a = m.src[1 - i];
    if (scale->op != Ops::EXPAND || a->static_shape() != full) continue;
    auto small = scale->src[0]->static_shape();
    if (!small || small->size() != full->size() || (*small)[1] != (*full)[1]) continue;
    if ((*small)[0] != 1 && (*small)[0] != (*full)[0]) continue;
    int64_t pixels = 1;
    bool per_channel = true;
    for (size_t j = 2; j < full->size(); j++) {
      per_channel = per_channel && (*small)[j] == 1;
      pixels *= (*full)[j];
    }
    if (!per_channel || !reads_reduce(scale->src[0].get())) continue;
    Tensor s = computed_once(Tensor(scale->src[0], x.device()));
    s = s.reshape({(*small)[0], (*small)[1], 1}).expand({(*full)[0], (*full)[1], pixels}).reshape(*full);
    return computed_once(Tensor(a, x.device())).mul(s);
  }
  return std::nullopt;
}

}  // namespace onegrad::onnx
