#include "codegen/kernel_axes.h"

#include <algorithm>

#include "uop/errors.h"

namespace onegrad {

const UOp* indexed_memory(const UOp& index) {
  const UOp* b = index.src[0].get();
  while (b->op == Ops::AFTER) b = b->src[0].get();
  return b;
}

std::vector<UOpRef> kernel_axes(const UOpRef& sink) {
  std::vector<UOpRef> out;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::RANGE) out.push_back(u->ref());
  std::sort(out.begin(), out.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) < axis_id(b); });
  return out;
}

std::string kernel_shape(const UOpRef& sink) {
  std::string out;
  for (const UOpRef& r : kernel_axes(sink)) {
    if (!out.empty()) out += ' ';
    out += axis_type_letter(axis_type(r));
    std::optional<int64_t> b = const_bound(r);
    out += b ? std::to_string(*b) : "n";
  }
  return out;
}

EndChain peel_end_chain(const UOpRef& closed) {
  EndChain c;
  UOpRef u = closed;
  while (u->op == Ops::END) {
    for (size_t i = 1; i < u->src.size(); i++) c.ranges.push_back(u->src[i]);
    u = u->src[0];
  }
  c.body = u;
  std::sort(c.ranges.begin(), c.ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) < axis_id(b); });
  return c;
}

UOpRef close_in_order(UOpRef body, std::vector<UOpRef> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) > axis_id(b); });
  for (const UOpRef& r : ranges) body = UOp::create(Ops::END, dtypes::void_, {body, r});
  return body;
}

UOpRef sort_end_chains(const UOpRef& sink) {
  if (sink->op != Ops::SINK) throw InternalError("sort_end_chains: expects a kernel SINK, got " + sink->brief());
  std::vector<UOpRef> src;
  for (const UOpRef& s : sink->src) {
    EndChain c = peel_end_chain(s);
    src.push_back(close_in_order(c.body, c.ranges));
  }
  return sink->with_src(std::move(src));
}

}  // namespace onegrad
