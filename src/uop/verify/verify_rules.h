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

// verify_kernel.cpp: the kernel and linear stages' op sets, the structure of their ops (RANGE,
// END, REDUCE, INDEX, LOAD, STORE, SINK, IF, ENDIF, ALU arity), and the roots: a kernel's SINK,
// and a LINEAR whose instructions follow their sources with loops and IFs nested.
std::optional<std::string> kernel_op_excluded(Ops op);
std::optional<std::string> linear_op_excluded(Ops op);
Finding kernel_op_set(const UOp* u);
Finding linear_op_set(const UOp* u);
Finding kernel_structure(const UOp* u);
Finding kernel_root(const UOp* root);
Finding linear_order(const UOp* root);

}  // namespace onegrad::verify_rules
