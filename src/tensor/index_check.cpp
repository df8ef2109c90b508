#include "tensor/index_check.h"

#include <deque>
#include <mutex>

#include "tensor/index_data.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// Interned records; a tag is a position in this table. A deque: records never move, so a pointer
// handed out stays valid while new records are added.
struct RecordTable {
  std::mutex mu;
  std::deque<IndexCheckRecord> records;

  int64_t intern(const IndexCheckRecord& r) {
    std::lock_guard lock(mu);
    for (size_t i = 0; i < records.size(); i++)
      if (records[i] == r) return int64_t(i);
    records.push_back(r);
    return int64_t(records.size()) - 1;
  }
  const IndexCheckRecord* at(int64_t i) {
    std::lock_guard lock(mu);
    return i >= 0 && size_t(i) < records.size() ? &records[size_t(i)] : nullptr;
  }
};

RecordTable& table() {
  static RecordTable t;
  return t;
}

thread_local int nested_depth = 0;

}  // namespace

IndexCheckRecord index_bounds(const std::string& op, int64_t dim, int64_t size, bool negative_wraps,
                              const std::string& noun) {
  IndexCheckRecord r;
  r.before = op + ": " + noun + " ";
  r.after = " is out of bounds for dimension " + std::to_string(dim) + " with size " + std::to_string(size);
  r.lo = negative_wraps ? -size : 0;
  r.hi = size;
  return r;
}

bool index_checks_enabled() { return nested_depth == 0 && setting("CHECK_INDEX", 1) != 0; }

Tensor with_index_check(const Tensor& value, const Tensor& index, const IndexCheckRecord& record) {
  if (!index.dtype().is_int()) throw InternalError("index check: the index of " + record.before + "is not an integer tensor");
  if (!index_checks_enabled() || index.numel() == 0) return value;
  // Buffer data whose values all fit needs no check: its values are the ones the kernels will read
  // (a later write to that buffer makes a new graph). Out of range, the check stays, so the error
  // is raised when the value is realized, as for a computed index.
  if (std::optional<IndexDataRange> r = index_data_range(index, record.lo, record.hi); r && r->in_range) return value;
  int64_t tag = table().intern(record);
  return Tensor(UOp::create(Ops::AFTER, value.dtype(), {value.uop(), index.uop()}, {}, tag), value.device());
}

NestedIndexOp::NestedIndexOp() { nested_depth++; }
NestedIndexOp::~NestedIndexOp() { nested_depth--; }

const IndexCheckRecord* index_check_record(const UOp& u) {
  if (u.op != Ops::AFTER || !u.tag) return nullptr;
  return table().at(*u.tag);
}

bool has_index_check(const UOpRef& root) {
  if (!root->holds_tagged_after()) return false;  // O(1) for graphs without checks
  for (const UOp* u : root->toposort())
    if (index_check_record(*u)) return true;
  return false;
}

}  // namespace onegrad
