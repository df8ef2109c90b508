// Symbolic dims in the tensor front end (uop/variable.h). A tensor's dims are index UOps; a bound
// variable dim (n=5) reads as its value through Tensor::shape(), so shape checks and arithmetic
// work on numbers, while the graph keeps the variable wherever a dim passes through unchanged:
//   - reshape: a new dim that starts at the same element stride as a symbolic dim and has its
//     value *is* that dim; dims merged with a symbolic one become their product (n*16);
//   - expand: dims that are not 1 keep their node; broadcasting picks the symbolic dim;
// so the kernels of the graph loop to the variable and serve every value. An op that would split
// a symbolic dim raises ShapeError naming it.
#pragma once
#include <optional>

#include "tensor/tensor.h"
#include "uop/dims.h"
#include "uop/variable.h"

namespace onegrad {

// The dims of reshape(t, new_shape) when t has a symbolic dim (nullopt when it has none).
std::optional<Shape> symbolic_reshape_dims(const std::string& op, const Shape& old_dims, const Dims& new_shape);
// The dims of expand(t, target) when t has a symbolic dim: t's own dims where they are not 1.
std::optional<Shape> symbolic_expand_dims(const std::string& op, const Shape& padded_dims, const Dims& target);
// Broadcast of symbolic shapes (right-aligned; a symbolic dim wins over a CONST of its value).
Shape broadcast_dims(const std::string& op, const std::vector<Shape>& shapes);
// The value of a dim (a bound variable gives its value); ShapeError when a variable is not bound.
int64_t dim_value(const UOpRef& d);
// a + b and a - b over dims, constants folded and expressions simplified (so n + 2 - 2 is n).
UOpRef dim_sum(const UOpRef& a, const UOpRef& b);
UOpRef dim_difference(const UOpRef& a, const UOpRef& b);
UOpRef dim_product(const UOpRef& a, const UOpRef& b);
UOpRef dim_quotient(const UOpRef& a, const UOpRef& b);  // floor division; ShapeError for a divisor <= 0
// The variables of a dim with their bounds: "n in [1, 64], m in [1, 8]" ("a constant" for none).
std::string variables_text(const UOpRef& d);
// t with its dims as the numbers they are bound to, for ops built from numbers only (sort): their
// graph, and kernels, are then per value.
Tensor with_static_dims(const Tensor& t);
// t's graph with every bound variable replaced by its value: the same values, computed by a graph
// (and kernels) with no symbolic dim at all, where with_static_dims only reshapes the result (its
// kernels still index the symbolic buffers, by division and modulo). For forward-only graphs: a
// leaf that requires grad is a new node in the copy.
Tensor with_values_substituted(const Tensor& t);
// "n=5", "16", "n*4=20" (an expression: its polynomial and value)
std::string dim_text(const UOpRef& d);
// "(n=5, 16)"
std::string dims_text(const Shape& s);

}  // namespace onegrad
