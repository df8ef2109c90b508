// Preparing the operands of an elementwise op (docs/tensor.md, "Broadcasting" and "Promotion"):
// one device, one dtype (explicit CASTs), one shape (explicit RESHAPE + EXPAND). After this the
// ALU node's sources have identical shapes and dtypes, as the tensor graph form requires.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tensor/shape_util.h"
#include "tensor/tensor.h"

namespace onegrad {

// Right-aligned broadcast of shapes; ShapeError "add: cannot broadcast shapes (2, 3) and (4,)".
Dims broadcast_shape(const std::string& op, const std::vector<Dims>& shapes);

// DeviceError "add: tensors on different devices: CPU and CPU:1".
void check_same_device(const std::string& op, const std::vector<Tensor>& ts);

// The dtype a Python-like scalar takes next to a tensor of dtype `t` (weak typing, as tinygrad):
// a float tensor's dtype for any number; an int tensor's dtype for an int; float32 for a float
// with an int or bool tensor; int32 for an int with a bool tensor.
DType scalar_dtype(DType t, const Scalar& s);
// The scalar as a 0-d tensor of that dtype on t's device.
Tensor scalar_like(const Tensor& t, const Scalar& s);
// The 0-d operand a Python-like number becomes next to `t` in the binary op `op` (docs/tensor.md
// "Promotion vs PyTorch"): scalar_like, except that a bool number is a bool tensor (so sub rejects it)
// and true division of an int or bool tensor computes in float32. An int that does not fit t's int
// dtype wraps in the ring ops (add, sub, mul, bitwise and/or/xor, and "radd"...) as in PyTorch, and
// raises ValueRangeError elsewhere; so does a number a select (where, max/min, clamp) cannot store.
Tensor scalar_operand(const std::string& op, const Tensor& t, const Scalar& s, bool is_bool = false);
// A tensor of t's shape, dtype and device filled with v (CONST, RESHAPE, EXPAND).
Tensor full_like(const Tensor& t, const Scalar& v);

// The promoted dtype of all operands (promote_types folded left).
DType promote_all(const std::vector<Tensor>& ts);

// Same device, cast to `dtype` (the promoted dtype when not given), broadcast to one shape.
std::vector<Tensor> elementwise_operands(const std::string& op, std::vector<Tensor> ts,
                                         std::optional<DType> dtype = std::nullopt);

// The ALU node `op` over operands already prepared (same shape, dtype, device).
Tensor make_alu(Ops op, const std::vector<Tensor>& srcs);

}  // namespace onegrad
