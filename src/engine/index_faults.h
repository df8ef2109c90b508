// Index faults at realize (DESIGN decision 11; docs/engine.md "Index faults"). The index checks
// the tensor layer attaches (tensor/index_check.h) are taken out of the values before scheduling,
// and each becomes one more output of the same realize: the number of its bad index values, an
// int64 scalar written by the kernels beside the values (the status buffer). After the run, a check
// with a nonzero count fails: the values that depend on it stay unrealized, and IndexError names the
// op, the first bad index (in row-major order) and the size.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tensor/index_check.h"
#include "uop/uop.h"

namespace onegrad {

class IndexChecks {
 public:
  // The checks under `outputs` (values on `device`), and the outputs without them.
  IndexChecks(const std::vector<UOpRef>& outputs, const std::string& device);

  // The values (checks taken out) followed by one bad-index count per check: what to realize.
  const std::vector<UOpRef>& to_realize() const { return to_realize_; }

  // Reads the counts from the realized buffers (`bufs`, in to_realize's order). Returns the error
  // message of the first check that failed (output order, then sources before users), if any.
  std::optional<std::string> read_faults(const std::vector<UOpRef>& bufs);

  // Whether output i depends on a check that failed (valid after read_faults).
  bool faulty(size_t i) const;

 private:
  struct Site {
    UOpRef index;  // the index values, checks taken out
    const IndexCheckRecord* record;
  };
  // The site of (index, record), added if new.
  size_t site_of(const UOpRef& index, const IndexCheckRecord* record);
  // Fills sites_of_: the error path only, as it strips each output on its own.
  void attribute();

  UOpRef resolved_;  // TUPLE of the outputs, FUNCTIONs resolved, checks kept (null without checks)
  std::vector<Site> sites_;
  std::vector<std::vector<size_t>> sites_of_;  // per output, in the order met; empty until a check fails
  std::vector<UOpRef> to_realize_;
  size_t num_outputs_ = 0;
  std::string device_;
  std::vector<bool> failed_;
};

}  // namespace onegrad
