// Model::operator(): an ONNX model run under the JIT (engine/jit.h), one capture per call signature.
// The signature is the device and each given input's name, shape and dtype, plus the values of the
// inputs whose values the graph reads on the host (onnx/host_reads.h: If on a sample rate, a Reshape
// from an input): those reads are frozen in a capture, so each value gets its own. A signature's
// first call runs plain, its second captures, later ones replay. A model whose run reads the values
// of an input larger than kMaxKeyElements runs plain every call (jit_stats().not_jitted says why).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {
class Jit;
}

namespace onegrad::onnx {

class Model;

struct JitStats {
  size_t signatures = 0;        // captures held (or being warmed up), one per signature
  uint64_t plain_calls = 0;     // calls that built the graph: warm-ups, and every call when not jitted
  uint64_t captures = 0;
  uint64_t replays = 0;
  size_t kernels = 0;           // launches in the captures held, all signatures
  std::vector<std::string> value_inputs;  // inputs whose values key the captures
  std::string not_jitted;       // why calls run plain ("" when they do not)
  std::string not_symbolic;     // why named dims are static ("" when they are Variables)
};

class ModelJit {
 public:
  // An input read on the host with more elements than this makes the model run plain.
  static constexpr int64_t kMaxKeyElements = 64;

  ModelJit();
  ~ModelJit();
  std::map<std::string, Tensor> call(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device);
  JitStats stats() const;

  bool enabled = true;
  bool symbolic = true;

 private:
  std::string signature(const std::map<std::string, Tensor>& inputs, const std::string& device) const;
  std::map<std::string, Tensor> plain(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device);
  std::map<std::string, Tensor> jitted(const Model& m, const std::map<std::string, Tensor>& inputs, const std::string& device);
  void learn_reads(const std::map<std::string, Tensor>& inputs, const std::set<std::string>& read, const std::string& key);

  struct Call;
  Call* call_ = nullptr;  // the call in progress, for the captured function
  std::map<std::string, std::unique_ptr<Jit>> captures_;  // by signature
  std::set<std::string> value_inputs_;
  std::string not_jitted_, not_symbolic_;
  uint64_t plain_calls_ = 0, captures_done_ = 0, replays_ = 0;
};

}  // namespace onegrad::onnx
