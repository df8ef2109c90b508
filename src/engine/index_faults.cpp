#include "engine/index_faults.h"

#include <algorithm>

#include "engine/device_buffers.h"
#include "rewrite/graph_rewrite.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/resolve_function.h"

namespace onegrad {

namespace {

struct StripContext {
  std::vector<std::pair<UOpRef, const IndexCheckRecord*>>* found;
};

// Bottom-up, so the check's index has had its own checks taken out (and met first) already.
const PatternMatcher& strip_checks() {
  static const PatternMatcher pm({
      {"index check -> value",
       UPat::op(Ops::AFTER).where([](const UOp& u) { return index_check_record(u) != nullptr; }),
       [](Match& m) -> UOpRef {
         m.ctx<StripContext>().found->emplace_back(m.root()->src[1], index_check_record(*m.root()));
         return m.root()->src[0];
       }},
  });
  return pm;
}

// `root` with its checks taken out; `found` gets each check's (index, record), sources before users.
UOpRef strip(const UOpRef& root, std::vector<std::pair<UOpRef, const IndexCheckRecord*>>& found) {
  StripContext ctx{&found};
  RewriteOptions opts;
  opts.ctx = &ctx;
  opts.name = "strip index checks";
  return graph_rewrite(root, strip_checks(), opts);
}

// How many elements of `index` the record rejects: an int64 scalar.
Tensor bad_count(const UOpRef& index, const IndexCheckRecord& r, const std::string& device) {
  Tensor i = Tensor(index, device).cast(dtypes::int64);
  auto scalar = [&](int64_t v) { return Tensor::scalar(ConstValue::from_int(v), dtypes::int64, device); };
  Tensor bad = i.lt(scalar(r.lo)).logical_or(i.ge(scalar(r.hi)));
  if (r.ignore) bad = bad.logical_and(i.ne(scalar(*r.ignore)));
  return bad.cast(dtypes::int32).sum();
}

}  // namespace

IndexChecks::IndexChecks(const std::vector<UOpRef>& outputs, const std::string& device)
    : to_realize_(outputs), num_outputs_(outputs.size()), device_(device) {
  // All outputs in one TUPLE, walked and stripped once: they share most of their graph (a
  // backward's gradients share the forward), so one walk each would cost a multiple of it.
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outputs);
  if (!tuple->holds_tagged_after()) return;  // O(1): no check anywhere below
  // A FUNCTION's body checks its PARAMs: resolved first, the checks read the call's arguments
  // (callify would resolve it the same way).
  resolved_ = resolve_functions(tuple);
  std::vector<std::pair<UOpRef, const IndexCheckRecord*>> found;
  UOpRef stripped = strip(resolved_, found);
  if (found.empty()) {  // tagged AFTERs, none of them a check: the outputs go as given
    resolved_ = nullptr;
    return;
  }
  for (size_t i = 0; i < num_outputs_; i++) to_realize_[i] = stripped->src[i];
  for (const auto& [index, record] : found) site_of(index, record);
  for (const Site& s : sites_) to_realize_.push_back(bad_count(s.index, *s.record, device_).uop());
}

size_t IndexChecks::site_of(const UOpRef& index, const IndexCheckRecord* record) {
  size_t k = 0;
  while (k < sites_.size() && !(sites_[k].index == index && sites_[k].record == record)) k++;
  if (k == sites_.size()) sites_.push_back({index, record});
  return k;
}

void IndexChecks::attribute() {
  sites_of_.assign(num_outputs_, {});
  for (size_t i = 0; i < num_outputs_; i++) {
    std::vector<std::pair<UOpRef, const IndexCheckRecord*>> found;
    strip(resolved_->src[i], found);
    std::vector<size_t>& mine = sites_of_[i];
    for (const auto& [index, record] : found) {
      size_t k = site_of(index, record);
      if (std::find(mine.begin(), mine.end(), k) == mine.end()) mine.push_back(k);
    }
  }
}

std::optional<std::string> IndexChecks::read_faults(const std::vector<UOpRef>& bufs) {
  failed_.assign(sites_.size(), false);
  bool any = false;
  for (size_t k = 0; k < sites_.size(); k++) {
    int64_t count = 0;
    read_buffer(bufs.at(num_outputs_ + k).get(), &count, sizeof(count));
    failed_[k] = count != 0;
    any = any || failed_[k];
  }
  if (!any) return std::nullopt;
  // The error path only: which output depends on which check, then the first bad value.
  attribute();
  for (const std::vector<size_t>& mine : sites_of_)
    for (size_t k : mine) {
      if (k >= failed_.size() || !failed_[k]) continue;
      const Site& s = sites_[k];
      Tensor flat = Tensor(s.index, device_).cast(dtypes::int64);
      for (int64_t v : flat.to_vector<int64_t>())
        if (s.record->bad(v)) return s.record->message(v);
      throw InternalError("index check: " + std::to_string(k) + " counted bad indices the host does not find");
    }
  return std::nullopt;
}

bool IndexChecks::faulty(size_t i) const {
  if (sites_of_.empty()) return false;  // no check failed
  for (size_t k : sites_of_.at(i))
    if (k < failed_.size() && failed_[k]) return true;
  return false;
}

}  // namespace onegrad
