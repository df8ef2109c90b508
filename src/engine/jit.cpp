#include "engine/jit.h"

#include <map>

#include "engine/device_buffers.h"
#include "engine/launch_capture.h"
#include "runtime/buffer_copy.h"
#include "tensor/shape_util.h"
#include "tensor/view_chain.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// The buffer holding t's elements in row-major order: t's own when it holds one whole, else a
// contiguous copy's (realized now).
std::shared_ptr<Buffer> buffer_of(const Tensor& t) {
  Tensor v = whole_buffer(t.uop()) ? t : t.contiguous();
  v.realize();
  const UOp* b = whole_buffer(v.uop());
  if (!b) throw InternalError("jit: a realized tensor of shape " + shape_text(t.shape()) + " holds no whole buffer");
  return device_buffer(b, v.device());
}

Tensor tensor_of(std::shared_ptr<Buffer> buf, const std::vector<int64_t>& shape, const std::string& device) {
  return Tensor(UOp::create(Ops::RESHAPE, {buffer_node(std::move(buf)), UOp::shape_operand(shape)}), device);
}

// Realizes the outputs, all of one device in one schedule (outputs sharing a forward pass compute
// it once, which is what the command buffer then replays).
void realize_outputs(std::vector<Tensor>& outs) {
  std::map<std::string, std::vector<Tensor*>> by_device;
  for (Tensor& t : outs) by_device[t.device()].push_back(&t);
  for (auto& [device, ts] : by_device) Tensor::realize_all(ts);
}

// Writes host bytes into the buffer a ReplayStep's tensor holds.
void write_step_buffer(const Tensor& t, const void* src, size_t nbytes) {
  const UOp* b = whole_buffer(t.uop());
  if (!b) throw InternalError("jit: a replay step writes a tensor that holds no whole buffer");
  device_buffer(b, t.device())->copyin(src, nbytes);
}

}  // namespace

Jit::Jit(Function fn) : fn_(std::move(fn)) {
  if (!fn_) throw ArgumentError("jit: no function given");
}

void Jit::reset() {
  calls_ = 0;
  captured_ = false;
  inputs_.clear();
  outputs_.clear();
  commands_ = CommandBuffer();
  keep_.clear();
  steps_.clear();
}

std::vector<Tensor> Jit::operator()(const std::vector<Tensor>& inputs) {
  std::vector<Tensor> outs;
  if (captured_) {
    outs = replay(inputs);
  } else if (calls_ < kWarmupCalls) {
    outs = fn_(inputs);
    realize_outputs(outs);
  } else {
    outs = capture(inputs);
  }
  calls_++;
  return outs;
}

std::vector<Tensor> Jit::capture(const std::vector<Tensor>& given) {
  // The function sees the inputs in buffers of the JIT's own, which every replay refills.
  std::vector<Input> inputs;
  std::vector<Tensor> args;
  for (const Tensor& t : given) {
    std::shared_ptr<Buffer> src = buffer_of(t);
    auto slot = std::make_shared<Buffer>(src->device(), t.dtype(), size_t(t.numel()));
    copy_buffer(*slot, *src);
    inputs.push_back({t.shape(), t.dtype(), t.device(), slot});
    args.push_back(tensor_of(slot, t.shape(), t.device()));
  }
  std::vector<Output> outputs;
  LaunchCapture launches;
  std::vector<ReplayStep> steps;
  {
    ReplayCapture host_steps;
    std::vector<Tensor> outs = fn_(args);
    realize_outputs(outs);
    for (const Tensor& t : outs) outputs.push_back({t.shape(), t.device(), buffer_of(t)});
    steps = host_steps.take();
  }
  CommandBuffer commands;
  for (CapturedLaunch& l : launches.launches) {
    if (l.program) commands.add(std::move(l.program), std::move(l.bufs), std::move(l.vars));
    else commands.add_copy(l.bufs.at(0), l.bufs.at(1));  // a copy between devices
  }
  keep_ = std::move(launches.buffers);
  for (const Input& in : inputs) keep_.push_back(in.buffer);
  for (const Output& out : outputs) keep_.push_back(out.buffer);
  inputs_ = std::move(inputs);
  outputs_ = std::move(outputs);
  commands_ = std::move(commands);
  steps_ = std::move(steps);
  captured_ = true;
  return output_copies();
}

// Fresh copies of the captured outputs: what a caller keeps, no later call changes.
std::vector<Tensor> Jit::output_copies() const {
  std::vector<Tensor> result;
  for (const Output& out : outputs_) {
    auto copy = std::make_shared<Buffer>(out.buffer->device(), out.buffer->dtype(), out.buffer->count());
    copy_buffer(*copy, *out.buffer);
    result.push_back(tensor_of(std::move(copy), out.shape, out.device));
  }
  return result;
}

void Jit::check_inputs(const std::vector<Tensor>& given) const {
  if (given.size() != inputs_.size())
    throw ArgumentError("jit: the captured call took " + std::to_string(inputs_.size()) + " tensor inputs, this call gives " +
                        std::to_string(given.size()));
  for (size_t i = 0; i < given.size(); i++) {
    const Input& want = inputs_[i];
    const Tensor& t = given[i];
    std::string which = "jit: input " + std::to_string(i) + " ";
    if (t.shape() != want.shape)
      throw ShapeError(which + "has shape " + shape_text(t.shape()) + ", the captured call's had " + shape_text(want.shape) +
                       " (a jitted function replays one shape; reset() to capture again)");
    if (t.dtype() != want.dtype)
      throw DTypeError(which + "has dtype " + t.dtype().name() + ", the captured call's had " + want.dtype.name());
    if (t.device() != want.device)
      throw DeviceError(which + "is on " + t.device() + ", the captured call's was on " + want.device);
  }
}

std::vector<Tensor> Jit::replay(const std::vector<Tensor>& given) {
  check_inputs(given);
  for (size_t i = 0; i < given.size(); i++) copy_buffer(*inputs_[i].buffer, *buffer_of(given[i]));
  for (const ReplayStep& step : steps_) step(write_step_buffer);
  commands_.run();
  return output_copies();
}

}  // namespace onegrad
