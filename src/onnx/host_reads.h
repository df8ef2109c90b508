// Which graph inputs' *values* a run reads on the host while it builds the graph (a Reshape whose
// shape comes from an input, If's condition on an input, Unique of an input). The JIT
// (onnx/model_jit.h) replays kernels only, so such a read would be frozen at the captured call:
// a model whose run reads small inputs keys its captures by their values, one reading a large
// input runs without the JIT. Reads of initializers, constants and shapes are the same every call
// and are not recorded.
#pragma once
#include <set>
#include <string>
#include <unordered_map>

#include "tensor/tensor.h"

namespace onegrad::onnx {

// Records, on this thread while it lives, the inputs whose values ints_of/floats_of read: a read
// tensor depends on an input when its graph reaches one of the BUFFER nodes the input's graph holds.
class HostReadLog {
 public:
  explicit HostReadLog(const std::unordered_map<std::string, Tensor>& inputs);
  ~HostReadLog();
  HostReadLog(const HostReadLog&) = delete;
  HostReadLog& operator=(const HostReadLog&) = delete;

  const std::set<std::string>& inputs_read() const { return read_; }
  void note(const Tensor& t);

 private:
  std::unordered_map<const UOp*, std::string> buffers_;  // an input's BUFFER nodes -> its name
  std::set<std::string> read_;
  HostReadLog* outer_;
};

// Called by ints_of/floats_of before a read: tells the log open on this thread, if any.
void note_host_read(const Tensor& t);

}  // namespace onegrad::onnx
