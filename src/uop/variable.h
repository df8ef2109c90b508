// Symbolic variables as shape dims (spec: shapes are tuples of index UOps; a named PARAM with
// bounds is a variable). A *bound* variable (tinygrad's Variable.bind) is the same PARAM with the
// value it stands for in one tensor graph: the front end sizes buffers and checks shapes with the
// value, while Callify strips the value so that kernels loop to the variable and take its value
// at launch (one kernel for every value).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "uop/uop.h"

namespace onegrad {

// A variable: a named PARAM with bounds and no value.
bool is_variable(const UOp* u);
// A variable with a value bound to it.
bool is_bound_variable(const UOp* u);
// `var` with `value` bound; ArgumentError naming the variable and its bounds when value is out of them.
UOpRef bind_variable(const UOpRef& var, int64_t value);
// The variable of a bound variable (its value dropped); any other node unchanged.
UOpRef unbind_variable(const UOpRef& u);

// The values of the variables of a graph, by the (unbound) variable node.
using VarVals = std::map<const UOp*, int64_t>;

// The value of an index expression (a shape dim) over constants and variables: a bound variable
// gives its value, an unbound one its value in `vals`. nullopt when a variable has no value or the
// expression uses an op a dim does not.
std::optional<int64_t> eval_dim(const UOp* d, const VarVals& vals = {});

// True when some dim of the shape is not a CONST.
bool has_symbolic_dim(const Shape& s);

}  // namespace onegrad
