// The Tensor core: wrapping nodes, creation (host data, empty buffers, constants), what a tensor
// is (shape, dtype, device), casts and contiguous(). docs/tensor.md has the graph each one builds.
#include "tensor/tensor.h"

#include "tensor/device_name.h"
#include "tensor/grad_slot.h"
#include "tensor/literal_check.h"
#include "tensor/realize_hook.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

std::string device_of(const UOpRef& u) {
  const Device& d = u->device();
  if (d.is_null()) return default_device();  // a constant graph: constants broadcast onto any device
  return d.is_tuple ? d.str() : canonical_device(d.names[0]);
}

// A fresh BUFFER of numel(shape) elements viewed as `shape`: always a RESHAPE, also for 1-D and
// 0-d, so the scheduler finds host data in one form.
Tensor buffer_view(const std::string& op, const Dims& shape, DType dtype, const std::string& device,
                   const void* data, size_t nbytes) {
  check_dims(op, shape);
  check_tensor_dtype(op, dtype);
  std::string dev = canonical_device(device, op);
  int64_t n = dims_numel(shape);
  if (data && nbytes != size_t(n) * size_t(dtype.itemsize()))
    throw ShapeError(op + ": " + std::to_string(nbytes) + " bytes given for shape " + shape_text(shape) + " of " +
                     dtype.name() + " (" + std::to_string(n * dtype.itemsize()) + " bytes)");
  BufferArg arg{next_buffer_id(), n, dtype, Device(dev)};
  auto write = realize_hooks().write;  // with an engine: one copy, straight to the device
  if (data && nbytes && !write) {
    const auto* bytes = static_cast<const std::byte*>(data);
    std::lock_guard lock(arg.storage->mu);
    arg.storage->host.assign(bytes, bytes + nbytes);
  }
  UOpRef buf = UOp::create(Ops::BUFFER, dtype, {}, Arg(std::move(arg)));
  if (data && nbytes && write) write(buf.get(), data, nbytes);
  return Tensor(UOp::create(Ops::RESHAPE, {buf, UOp::shape_operand(shape)}), dev);
}

}  // namespace

// Every tensor built from a node has a slot of its own, shared only with its copies: an in-place
// write tells a copy (which sees it) from an equal value built apart (which does not) by it.
Tensor::Tensor(UOpRef u) : uop_(std::move(u)), slot_(std::make_shared<GradSlot>()) {
  if (!uop_) throw InternalError("Tensor: null node");
  device_ = device_of(uop_);
  enroll();  // indexing: the live registry (live_tensors.cpp)
  detach_if_no_grad();
}

Tensor::Tensor(UOpRef u, std::string device)
    : uop_(std::move(u)), device_(canonical_device(device)), slot_(std::make_shared<GradSlot>()) {
  if (!uop_) throw InternalError("Tensor: null node");
  enroll();  // indexing: the live registry (live_tensors.cpp)
  detach_if_no_grad();
}

// ---- creation

Tensor Tensor::from_data(const void* data, size_t nbytes, std::vector<int64_t> shape, DType dtype,
                         const std::string& device) {
  if (!data && nbytes != 0) throw InternalError("from_data: null data");
  static const std::byte none{};
  return buffer_view("from_data", shape, dtype, device, data ? data : &none, nbytes);
}

Tensor Tensor::empty(std::vector<int64_t> shape, DType dtype, const std::string& device) {
  return buffer_view("empty", shape, dtype, device, nullptr, 0);
}

Tensor Tensor::scalar(Scalar v, DType dtype, const std::string& device) {
  check_tensor_dtype("scalar", dtype);
  return literal_scalar("scalar", v, dtype, canonical_device(device, "scalar"));
}

namespace {

// CONST, then RESHAPE to (1, ..., 1) and EXPAND to the shape: one scalar, broadcast by a view.
// `op` names the user's call (full, zeros, ones) in error messages.
Tensor broadcast_constant(const char* op, const Dims& shape, Scalar value, DType dtype, const std::string& device) {
  check_dims(op, shape);
  check_tensor_dtype(op, dtype);
  Tensor c(UOp::const_(dtype, value), canonical_device(device, op));
  return c.reshape(Dims(shape.size(), 1)).expand(shape);
}

}  // namespace

Tensor Tensor::full(std::vector<int64_t> shape, Scalar value, DType dtype, const std::string& device) {
  check_literal("full", value, dtype);
  return broadcast_constant("full", shape, value, dtype, device);
}

Tensor Tensor::zeros(std::vector<int64_t> shape, DType dtype, const std::string& device) {
  return broadcast_constant("zeros", shape, ConstValue::from_int(0), dtype, device);
}

Tensor Tensor::ones(std::vector<int64_t> shape, DType dtype, const std::string& device) {
  return broadcast_constant("ones", shape, ConstValue::from_int(1), dtype, device);
}

// ---- what it is

std::vector<int64_t> Tensor::shape() const {
  if (!uop_) throw InternalError("shape: the Tensor is empty (default-constructed)");
  auto s = uop_->static_shape();
  if (!s) throw ShapeError("shape: symbolic shape " + shape_str(uop_->shape()) + " has no static dims");
  return std::move(*s);  // moved out: a copy cost one more allocation on every shape() of every op
}

int64_t Tensor::ndim() const { return int64_t(shape().size()); }
int64_t Tensor::numel() const { return dims_numel(shape()); }
DType Tensor::dtype() const {
  if (!uop_) throw InternalError("dtype: the Tensor is empty (default-constructed)");
  return uop_->dtype;
}
std::string Tensor::device() const { return device_; }

// ---- casts

Tensor Tensor::cast(DType dt) const {
  check_tensor_dtype("cast", dt);
  if (dt == dtype()) return *this;
  return Tensor(onegrad::cast(uop_, dt), device_);
}

Tensor Tensor::bitcast(DType dt) const {
  check_tensor_dtype("bitcast", dt);
  if (dt == dtype()) return *this;
  if (dt.itemsize() != dtype().itemsize())
    throw DTypeError("bitcast: cannot bitcast " + dtype().name() + " (" + std::to_string(dtype().itemsize()) +
                     " bytes) to " + dt.name() + " (" + std::to_string(dt.itemsize()) + " bytes): itemsizes differ");
  return Tensor(UOp::create(Ops::BITCAST, dt, {uop_}, dt), device_);
}

// spec README decision 7: contiguous() is a LOAD into GLOBAL memory on the same device.
Tensor Tensor::contiguous() const {
  return Tensor(UOp::create(Ops::LOAD, dtype(), {uop_}, LoadArg{Device(device_), AddrSpace::GLOBAL}), device_);
}

}  // namespace onegrad
