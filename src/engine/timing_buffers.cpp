#include "engine/timing_buffers.h"

#include <cstring>
#include <map>
#include <unordered_set>

#include "uop/errors.h"

namespace onegrad {

namespace {

struct Slot {
  DType element;
  size_t count;
};

// The buffer slots of `ast` with their element type and count; nullopt when a size or a variable
// is symbolic.
std::optional<std::map<int64_t, Slot>> buffer_slots(const UOpRef& ast) {
  std::map<int64_t, Slot> slots;
  for (const UOp* u : ast->toposort()) {
    if (u->op != Ops::PARAM) continue;
    if (!u->dtype.is_ptr) return std::nullopt;  // a symbolic variable: sizes and bounds vary with it
    std::optional<std::vector<int64_t>> shape = u->static_shape();
    if (!shape) return std::nullopt;
    size_t n = 1;
    for (int64_t d : *shape) n *= size_t(d);
    slots[u->arg.get<ParamArg>().slot] = {DType(u->dtype.scalar), std::max<size_t>(n, 1)};
  }
  return slots;
}

}  // namespace

std::string untimeable_reason(const UOpRef& ast) {
  // The nodes whose value depends on loaded data; sources come first in toposort order.
  std::unordered_set<const UOp*> from_data;
  for (const UOp* u : ast->toposort()) {
    bool data = u->op == Ops::LOAD;
    for (const UOpRef& s : u->src) data = data || from_data.count(s.get()) != 0;
    if (data) from_data.insert(u);
    // INDEX(buf, i): the address; a LOAD's or STORE's gate (src 2) decides whether it is touched.
    bool data_address = u->op == Ops::INDEX && u->src.size() > 1 && from_data.count(u->src[1].get()) != 0;
    bool data_gate = (u->op == Ops::LOAD || u->op == Ops::STORE) && u->src.size() > 2 && from_data.count(u->src[2].get()) != 0;
    if (data_address || data_gate) return "addresses depend on loaded data";
  }
  std::optional<std::map<int64_t, Slot>> slots = buffer_slots(ast);
  if (!slots) return "symbolic sizes";
  size_t bytes = 0;
  for (auto& [slot, s] : *slots) bytes += s.count * size_t(s.element.itemsize());
  if (bytes > kMaxTimingBytes) return "needs " + std::to_string(bytes) + " bytes of buffers (more than 2 GiB)";
  return "";
}

TimingBuffers::TimingBuffers(const UOpRef& ast, const std::string& device) {
  std::optional<std::map<int64_t, Slot>> slots = buffer_slots(ast);
  if (!slots) throw InternalError("TimingBuffers: kernel with symbolic sizes");
  int64_t count = slots->empty() ? 0 : slots->rbegin()->first + 1;
  for (int64_t i = 0; i < count; i++) {
    auto it = slots->find(i);
    // A slot no node names any more still has to be passed: one element does.
    Slot s = it != slots->end() ? it->second : Slot{dtypes::uint8, 1};
    auto buf = std::make_unique<Buffer>(device, s.element, s.count);
    buf->zero();
    args_.push_back(buf.get());
    buffers_.push_back(std::move(buf));
  }
}

}  // namespace onegrad
