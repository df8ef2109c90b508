// Reverse-mode differentiation of the tensor graph (docs/autograd.md). tinygrad's design: no tape;
// the UOp graph a lazy Tensor holds is the record of how it was computed, and each primitive op has
// one gradient rule (gradient_rules.cpp) that maps the gradient of a node to the gradients of its
// sources, written with Tensor ops so that gradients are lazy graphs themselves (higher orders work).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// The tag of relu's MAX(x, 0): the same node for every later stage (Rangeify lowers it as any MAX),
// and for autograd PyTorch's one-sided gradient (g where x > 0 or x is NaN, 0 at x = 0), where an
// untagged MAX splits a tie evenly (PyTorch's maximum).
inline constexpr int64_t kReluMaxTag = 0x72656c75;  // "relu"

// The tag of a scan's window REDUCE (cumsum: ADD, cumprod: MUL; tensor/scan.cpp). The per-primitive
// rules would send its gradient back through the window view, whose adjoint sums n tiled copies
// (n^2 work, and index math no scan rule matches); a tagged one sends the gradient straight to the
// scanned values as a reversed scan (scan_gradient.cpp), which runs in linear time.
inline constexpr int64_t kScanTag = 0x7363616e;  // "scan"

// The gradients of a node's sources given the node's own gradient (same shape and dtype as the
// node); nullopt where none flows (integer operands, conditions, shape operands).
struct GradInput {
  const UOpRef& node;
  const Tensor& grad;
  const std::string& device;
  Tensor src(size_t i) const { return Tensor(node->src.at(i), device); }
  Tensor self() const { return Tensor(node, device); }
};
using GradRule = std::function<std::vector<std::optional<Tensor>>(const GradInput&)>;

// The tag of a one-hot scatter's result contiguous(op(T, REDUCE{op}(WHERE(idx == k, val, e)))) (op
// ADD, MUL or MAX; tensor/scatter_compositions.cpp). The per-primitive rules would count MAX ties and
// MUL zeros over the whole (K, D) one-hot, whose places no index hits hold a value (a tie with e,
// e's zero count) no scatter rule collapses: K * D work. A tagged one gets torch's gradient as
// gathers at the targets and scatters of the forward result (scatter_gradient.cpp): linear. The
// tag also marks scatter_reduce's start without include_self, whose self PyTorch counts among ties.
inline constexpr int64_t kScatterTag = 0x73636174;  // "scat"

// One share of a gradient that skips the nodes between a tagged node and the values it was built
// from: `to` gets `grad`, and the nodes in between none from this consumer.
struct Shortcut {
  UOpRef to;
  Tensor grad;
};
// The shares of a tagged composition: a kScanTag REDUCE (scan_gradient.cpp) or a kScatterTag
// combine (scatter_gradient.cpp); nullopt for any other node, or when the graph under the tag is
// not the one its composition builds (then the ordinary rules apply: the same values, slower).
std::optional<std::vector<Shortcut>> shortcut_gradient(const GradInput& in);
std::optional<std::vector<Shortcut>> scan_shortcut(const GradInput& in);
std::optional<std::vector<Shortcut>> scatter_shortcut(const GradInput& in);

// The rule for an op; null for ops no gradient flows through (comparisons, bitwise ops, TRUNC,
// DETACH, leaves) and for ops gradients cannot pass (see gradient.cpp).
const GradRule* gradient_rule(Ops op);

// d(root)/d(t) for each target node t, given d(root) = root_grad (root's shape and dtype). Only
// nodes on a path from root to a target are differentiated; DETACH ends a path. Contributions to a
// node from several consumers are summed. Targets root does not reach are absent from the map.
std::unordered_map<const UOp*, Tensor> compute_gradient(const Tensor& root, const Tensor& root_grad,
                                                        const std::vector<UOpRef>& targets);

}  // namespace onegrad
