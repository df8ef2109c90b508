// Buffers to time a kernel on without the program's data (BEAM search): one per buffer slot,
// zero-filled, each as large as the kernel's PARAM declares. Only kernels whose every address and
// gate follows from their loop indices can run on them safely: a kernel that indexes or gates by
// loaded data (gather, scatter) could go anywhere with made-up contents, and one with symbolic
// sizes has no single size to time; those keep the heuristics' opts.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/buffer.h"
#include "uop/uop.h"

namespace onegrad {

// The most bytes of fresh buffers one kernel may be timed on.
inline constexpr size_t kMaxTimingBytes = size_t(2) << 30;

// Why `ast` (a kernel in kernel form) cannot be timed on fresh buffers, or "" when it can:
// "addresses depend on loaded data", "symbolic sizes", "needs N bytes of buffers (more than 2 GiB)".
std::string untimeable_reason(const UOpRef& ast);

class TimingBuffers {
 public:
  // Allocates and zero-fills the buffers of `ast` on `device` (check untimeable_reason first;
  // throws InternalError for a kernel it names).
  TimingBuffers(const UOpRef& ast, const std::string& device);

  // In slot order, as Program::run takes them.
  std::span<Buffer* const> args() const { return args_; }

 private:
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::vector<Buffer*> args_;
};

}  // namespace onegrad
