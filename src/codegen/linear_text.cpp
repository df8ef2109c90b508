// print_linear: the LINEAR listing for golden tests and DEBUG output.
#include <unordered_map>

#include "codegen/linearize.h"
#include "uop/text/text.h"

namespace onegrad {

std::string print_linear(const UOpRef& linear) {
  std::unordered_map<const UOp*, size_t> pos;
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < linear->src.size(); i++) {
    const UOp* u = linear->src[i].get();
    if (u->op == Ops::END || u->op == Ops::ENDIF) depth--;
    out.append(size_t(std::max(depth, 0)) * 2, ' ');
    out += "%" + std::to_string(i) + " = " + std::string(op_name(u->op)) + " " + u->dtype.name();
    if (u->op == Ops::PARAM) {
      if (u->has_shape() && !u->shape().empty()) out += " " + shape_str(u->shape());
    } else if (!u->src.empty()) {
      out += " (";
      for (size_t s = 0; s < u->src.size(); s++) {
        auto it = pos.find(u->src[s].get());
        out += (s ? ", " : "") + (it == pos.end() ? std::string("?") : "%" + std::to_string(it->second));
      }
      out += ")";
    }
    if (!u->arg.is_none()) out += " " + print_arg(u->arg, u->dtype);
    out += "\n";
    if (u->op == Ops::RANGE || u->op == Ops::IF) depth++;
    pos.emplace(u, i);  // a repeated node (never a value) keeps its first position
  }
  return out;
}

}  // namespace onegrad
