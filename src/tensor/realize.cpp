// The Tensor methods that run things: the graphs go to the engine through realize_hook.h, and the
// realized buffers come back as the tensors' values (autograd keeps their graphs, autograd.cpp).
#include <algorithm>
#include <optional>

#include "tensor/realize_hook.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "tensor/view_chain.h"
#include "uop/errors.h"
#include "uop/index_error.h"

namespace onegrad {

namespace {

const RealizeHooks& engine(const char* op) {
  const RealizeHooks& hooks = realize_hooks();
  if (!hooks.realize || !hooks.read)
    throw InternalError(std::string(op) + ": running a graph needs the engine (link onegrad_engine)");
  return hooks;
}

}  // namespace

RealizeHooks& realize_hooks() {
  static RealizeHooks hooks;
  return hooks;
}

void Tensor::realize_all(std::vector<Tensor*> ts) {
  // One realize per device, in the order the devices first appear (a backward's gradients may live
  // on several devices when the graph crossed them with to()).
  std::vector<std::string> devices;
  for (Tensor* t : ts)
    if (!whole_buffer(t->uop_) && std::find(devices.begin(), devices.end(), t->device()) == devices.end())
      devices.push_back(t->device());
  std::optional<std::string> fault;
  for (const std::string& device : devices) {
    std::vector<Tensor*> todo;
    std::vector<UOpRef> outs;
    for (Tensor* t : ts) {
      if (whole_buffer(t->uop_) || t->device() != device) continue;
      todo.push_back(t);
      outs.push_back(t->uop_);
    }
    // A tensor that depends on an index check that failed stays lazy (a later realize of it raises
    // again), the others are realized (docs/engine.md "Index faults").
    RealizedGraphs got = engine("realize").realize(outs, device);
    std::vector<std::pair<Tensor*, UOpRef>> realized;
    for (size_t i = 0; i < todo.size(); i++) {
      if (got.fault && got.faulty[i]) continue;
      // the tensor's own dims: a symbolic dim stays symbolic (bound) on the realized buffer
      realized.emplace_back(todo[i], UOp::create(Ops::RESHAPE, {got.buffers[i], UOp::shape_operand(todo[i]->uop()->shape())}));
    }
    note_realized(realized);  // autograd: copies follow, a leaf keeps its old graph as an alias
    if (got.fault && !fault) fault = got.fault;
  }
  if (fault) throw IndexError(*fault);
}

Tensor& Tensor::realize() {
  realize_all({this});
  return *this;
}

void Tensor::copy_out(void* dst, size_t nbytes) const {
  size_t want = size_t(numel()) * size_t(dtype().itemsize());
  if (nbytes != want)
    throw DeviceError("copy_out: " + std::to_string(nbytes) + " bytes given for a tensor of shape " +
                      shape_str(uop_->shape()) + " and dtype " + dtype().name() + " (" + std::to_string(want) +
                      " bytes)");
  // A part of a buffer (t[1:3]) is copied out through a contiguous copy: realized itself, it would
  // get a buffer of its own and stop being a view of t (in-place writes to t would miss it).
  if (!whole_buffer(uop_) && viewed_buffer(uop_.get())) return contiguous().copy_out(dst, nbytes);
  realize_all({const_cast<Tensor*>(this)});  // only uop_ (mutable) changes
  engine("copy_out").read(whole_buffer(uop_), dst, nbytes);
}

std::vector<std::byte> Tensor::to_bytes() const {
  std::vector<std::byte> out(size_t(numel()) * size_t(dtype().itemsize()));
  copy_out(out.data(), out.size());
  return out;
}

}  // namespace onegrad
