#include "render/kernel_name.h"

#include <algorithm>
#include <cctype>

#include "uop/errors.h"
#include "uop/text/expr_text.h"

namespace onegrad {

namespace {

std::string bound_text(const UOpRef& bound) {
  if (bound->is_const()) return i128_to_string(bound->const_value().as_int());
  std::string text;
  try {
    text = print_expr(bound);
  } catch (const Error&) {
    text = "n";
  }
  std::string out;  // letters and digits; anything else becomes one '_'
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += c;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "n" : out;
}

}  // namespace

std::string kernel_name(const UOpRef& sink) {
  std::vector<const UOp*> ranges;
  bool reduces = false;
  for (const UOp* u : sink->toposort()) {
    if (u->op == Ops::REDUCE) reduces = true;
    if (u->op != Ops::RANGE) continue;
    ranges.push_back(u);
    AxisType t = u->arg.get<RangeArg>().type;
    reduces |= t == AxisType::REDUCE || t == AxisType::GROUP_REDUCE;
  }
  std::sort(ranges.begin(), ranges.end(),
            [](const UOp* a, const UOp* b) { return a->arg.get<RangeArg>().id < b->arg.get<RangeArg>().id; });
  std::string name = reduces ? "r" : "E";
  for (const UOp* r : ranges) name += "_" + bound_text(r->src[0]);
  return name;
}

}  // namespace onegrad
