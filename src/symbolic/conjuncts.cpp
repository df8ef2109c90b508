#include "symbolic/conjuncts.h"

namespace onegrad {

void conjuncts(const UOpRef& e, std::vector<UOpRef>& out) {
  std::vector<UOpRef> stack{e};
  while (!stack.empty()) {
    UOpRef u = stack.back();
    stack.pop_back();
    if (u->op == Ops::AND && u->dtype.is_bool()) {
      stack.push_back(u->src[1]);
      stack.push_back(u->src[0]);
    } else {
      out.push_back(u);
    }
  }
}

}  // namespace onegrad
