// Internal to the verifier: the rule groups, one file each. Each returns the first rule the node
// breaks, as the full message ("OP: rule: details"), or nothing.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "uop/uop.h"

namespace onegrad::verify_rules {

using Finding = std::optional<std::string>;

// "OP: rule: details"
std::string fail(const UOp* u, std::string_view rule, const std::string& details);
// "source 1 (RESHAPE)" for messages
std::string src_name(const UOp* u, size_t i);

// verify_structure.cpp: the tensor stage's op set, arity per op, arg kind per op.
// Why `op` is not in the tensor stage's op set (nothing when it is).
std::optional<std::string> tensor_op_excluded(Ops op);
Finding tensor_op_set(const UOp* u);
Finding tensor_arity(const UOp* u);
Finding tensor_arg(const UOp* u);
// verify_dtype.cpp: the node's dtype follows the spec's table; operand dtypes per op.
Finding tensor_dtypes(const UOp* u);
// verify_shape.cpp: shape operands, broadcast, movement op bounds, REDUCE/INDEX/STACK/STORE.
Finding tensor_shapes(const UOp* u);
// verify_call.cpp: FUNCTION/CALL/TUPLE/GETTUPLE and PARAM slots.
Finding tensor_calls(const UOp* u);

}  // namespace onegrad::verify_rules
