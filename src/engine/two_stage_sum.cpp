#include "engine/two_stage_sum.h"

#include <algorithm>

#include "render/device_target.h"
#include "runtime/device.h"
#include "tensor/reduce_util.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The elements of a REDUCE ADD of float32 over every axis of its static-shaped source; 0 otherwise.
int64_t whole_sum_elements(const UOp& u) {
  if (u.op != Ops::REDUCE || u.dtype != dtypes::float32 || !u.arg.is<ReduceArg>()) return 0;
  const ReduceArg& r = u.arg.get<ReduceArg>();
  std::optional<std::vector<int64_t>> shape = u.src[0]->static_shape();
  if (r.op != Ops::ADD || !shape || r.axes.size() != shape->size()) return 0;
  int64_t n = 1;
  for (int64_t d : *shape) n *= d;
  return n;
}

}  // namespace

std::vector<UOpRef> split_whole_sums(const std::vector<UOpRef>& outputs, const std::string& device) {
  std::vector<const UOp*> sums;
  for (const UOpRef& g : outputs)
    for (const UOp* u : g->toposort()) {
      int64_t n = whole_sum_elements(*u);
      if (n >= kTwoStageMinElements && n % kTwoStageParts == 0 && std::find(sums.begin(), sums.end(), u) == sums.end()) sums.push_back(u);
    }
  if (sums.empty()) return outputs;  // (the device is asked only when there is something to split)
  const Capabilities caps = device_target(get_device(device)).capabilities;
  if (!caps.serial_work_items || caps.threads < 2) return outputs;
  Substitution done;
  for (const UOp* u : sums) {
    int64_t n = whole_sum_elements(*u);
    Tensor x(u->src[0], device);
    Tensor parts = reduce_raw(x.reshape({kTwoStageParts, n / kTwoStageParts}), Ops::ADD, {1}, true).contiguous();
    done[u] = reduce_raw(parts, Ops::ADD, {0}, true).reshape(*u->static_shape()).uop();
  }
  std::vector<UOpRef> result;
  for (const UOpRef& g : outputs) result.push_back(substitute(g, done));
  return result;
}

}  // namespace onegrad
