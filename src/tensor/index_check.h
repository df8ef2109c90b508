// Index checks (DESIGN decision 11, docs/engine.md "Index faults"): an op that reads or writes at
// positions given by data (gather, scatter, index_select, x[idx], loss targets, one_hot, embedding)
// marks its result with a check that the index values lie in range. The graph cannot look at data,
// so the check is part of the lazy value and runs when the value is realized: the engine computes
// the count of bad indices beside the value and raises IndexError naming the op, the first bad
// index and the size. The mark does not change how the value itself is computed.
//
// A check is AFTER(value, index) tagged with the number of its record (the message and the valid
// range): AFTER is the spec's "value once these ran", and a tag tells it from setitem's untagged
// AFTER(buffer, STORE). Records are interned, so the table grows with the distinct (op, axis, size)
// a program uses, not with the number of calls.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "tensor/tensor.h"
#include "uop/settings.h"

namespace onegrad {

// What a check accepts and what its message says: index values v with lo <= v < hi (other than
// `ignore`, a loss's ignore_index) are in range; a bad v reads "<before><v><after>".
struct IndexCheckRecord {
  std::string before, after;
  int64_t lo = 0, hi = 0;
  std::optional<int64_t> ignore;
  bool operator==(const IndexCheckRecord&) const = default;

  bool bad(int64_t v) const { return (!ignore || v != *ignore) && (v < lo || v >= hi); }
  std::string message(int64_t v) const { return before + std::to_string(v) + after; }
};

// The record for the common message "<op>: <noun> <v> is out of bounds for dimension <dim> with
// size <size>", valid range [0, size), or [-size, size) where negative values count from the end.
IndexCheckRecord index_bounds(const std::string& op, int64_t dim, int64_t size, bool negative_wraps = false,
                              const std::string& noun = "index");

// Whether ops attach checks: the setting CHECK_INDEX (default 1; 0 turns them off for speed, in
// the environment or with ScopedSetting("CHECK_INDEX", 0)), and not inside an op that checks its
// indices itself (NestedIndexOp).
bool index_checks_enabled();

// `value` with a check that every element of `index` (an integer tensor) fits `record`; `value`
// itself when checks are off or the index has no elements.
Tensor with_index_check(const Tensor& value, const Tensor& index, const IndexCheckRecord& record);

// While alive, ops on this thread attach no checks: an op built from other checked ops (index_select
// from gather, embedding from index_select) checks its own index once, under its own name.
class NestedIndexOp {
 public:
  NestedIndexOp();
  ~NestedIndexOp();
  NestedIndexOp(const NestedIndexOp&) = delete;
  NestedIndexOp& operator=(const NestedIndexOp&) = delete;
};

// ---- for the engine

// The record of a check node (an AFTER with a tag), or nullptr for any other node.
const IndexCheckRecord* index_check_record(const UOp& u);

// Whether the graph under root holds a check node.
bool has_index_check(const UOpRef& root);

}  // namespace onegrad
