// A JIT for a function of tensors (docs/jit.md), as tinygrad's TinyJit: the first call runs the
// function as usual (it may create state: an optimizer's moments); the second runs it again while
// recording every kernel launch its realizes make (program, buffers, variable values), and every
// copy between devices, into a command buffer; every later call copies the new inputs into the
// captured input buffers (on the inputs' devices), repeats the host steps that feed kernels
// (tensor/replay_steps.h: random counters, optimizer scalars) and runs the command buffer. A replay builds no graph, schedules, lowers and compiles nothing, and
// looks up no cache.
//
// Rules:
// - inputs: the tensors given; each replay's must have the captured call's shapes, dtypes and
//   devices, else ShapeError / DTypeError / DeviceError naming the input, expected and got (no new
//   capture: reset() starts over). A lazy input is realized first (that realize is not replayed).
// - outputs: the function's returned tensors, realized; every call returns fresh copies, so what
//   a caller keeps is never changed by a later call.
// - state: tensors the function reads but was not given (weights) are captured by buffer; state
//   kept across calls must be written in place (assign, +=, Optimizer::step), since a tensor
//   rebound to a new value is not followed by a replay.
// - host values: a number the function computes on the host and puts into the graph is frozen at
//   the captured call, except what registers a ReplayStep; host reads inside the function (item(),
//   numpy()) happen only at the first two calls.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "runtime/buffer.h"
#include "runtime/command_buffer.h"
#include "tensor/replay_steps.h"
#include "tensor/tensor.h"

namespace onegrad {

class Jit {
 public:
  using Function = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
  // The calls before the capture (tinygrad's is 1: the second call captures).
  static constexpr int kWarmupCalls = 1;

  explicit Jit(Function fn);
  Jit(const Jit&) = delete;
  Jit& operator=(const Jit&) = delete;

  std::vector<Tensor> operator()(const std::vector<Tensor>& inputs);

  int calls() const { return calls_; }           // calls that completed
  bool captured() const { return captured_; }    // later calls replay
  size_t kernels() const { return commands_.size() - commands_.copies(); }  // launches in the captured command buffer
  size_t copies() const { return commands_.copies(); }  // copies between devices in it
  // Drops the capture: the next call is a warm-up call again.
  void reset();

 private:
  struct Input {
    std::vector<int64_t> shape;
    DType dtype;
    std::string device;
    std::shared_ptr<Buffer> buffer;  // what the captured kernels read
  };
  struct Output {
    std::vector<int64_t> shape;
    std::string device;
    std::shared_ptr<Buffer> buffer;  // what the captured kernels write
  };
  std::vector<Tensor> capture(const std::vector<Tensor>& inputs);
  std::vector<Tensor> replay(const std::vector<Tensor>& inputs);
  void check_inputs(const std::vector<Tensor>& inputs) const;
  std::vector<Tensor> output_copies() const;

  Function fn_;
  int calls_ = 0;
  bool captured_ = false;
  std::vector<Input> inputs_;
  std::vector<Output> outputs_;
  CommandBuffer commands_;
  std::vector<std::shared_ptr<Buffer>> keep_;  // every buffer the command buffer names
  std::vector<ReplayStep> steps_;
};

}  // namespace onegrad
