#include "engine/two_stage_sum.h"

#include "render/device_target.h"
#include "rewrite/graph_rewrite.h"
#include "runtime/device.h"
#include "tensor/reduce_util.h"

namespace onegrad {

namespace {

// The elements of a REDUCE ADD of float32 over every axis of its static-shaped source; 0 otherwise.
int64_t whole_sum_elements(const UOp& u) {
  if (!u.arg.is<ReduceArg>()) return 0;
  const ReduceArg& r = u.arg.get<ReduceArg>();
  std::optional<std::vector<int64_t>> shape = u.src[0]->static_shape();
  if (r.op != Ops::ADD || !shape || r.axes.size() != shape->size()) return 0;
  int64_t n = 1;
  for (int64_t d : *shape) n *= d;
  return n;
}

bool splits(const UOp& u) {
  int64_t n = whole_sum_elements(u);
  return n >= kTwoStageMinElements && n % kTwoStageParts == 0;
}

// sum(x) -> sum(contiguous(sum(reshape(x, (parts, n / parts)), 1)), 0), reshaped as the sum was.
// The partial sums reduce fewer than kTwoStageMinElements each only when n < parts * min; either
// way no REDUCE this rule makes is a whole sum it splits again (the last one has `parts` elements).
UOpRef split_whole_sum(Match& m) {
  const UOpRef& sum = m.root();
  int64_t n = whole_sum_elements(*sum);
  Tensor x(sum->src[0], m.ctx<const std::string>());
  Tensor parts = reduce_raw(x.reshape({kTwoStageParts, n / kTwoStageParts}), Ops::ADD, {1}, true).contiguous();
  return reduce_raw(parts, Ops::ADD, {0}, true).reshape(*sum->static_shape()).uop();
}

const PatternMatcher& two_stage_rules() {
  static const PatternMatcher pm({
      {"whole sum -> two stages", UPat::op(Ops::REDUCE).with_dtypes({dtypes::float32}).where(splits), split_whole_sum},
  });
  return pm;
}

// Only a device whose work items run in turn on one core, with cores to spare, gains from the split.
bool wants_two_stage_sums(const std::string& device) {
  const Capabilities caps = device_target(get_device(device)).capabilities;
  return caps.serial_work_items && caps.threads >= 2;
}

}  // namespace

std::vector<UOpRef> split_whole_sums(const std::vector<UOpRef>& outputs, const std::string& device) {
  if (!wants_two_stage_sums(device)) return outputs;
  // All outputs in one TUPLE: a graph they share is walked once.
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outputs);
  std::string ctx = device;
  RewriteOptions opts;
  opts.ctx = &ctx;
  opts.name = "two-stage sums";
  UOpRef split = graph_rewrite(tuple, two_stage_rules(), opts);
  if (split == tuple) return outputs;
  return {split->src.begin(), split->src.end()};
}

}  // namespace onegrad
