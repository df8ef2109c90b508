#include "schedule/callify_memo.h"

#include <memory>
#include <mutex>
#include <unordered_map>

#include "uop/pointer_map.h"
#include "uop/settings.h"

namespace onegrad {

namespace {

inline uint64_t mix(uint64_t h, uint64_t v) { return h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2)); }

// One node of the graph that made an entry, at its place in the graph's toposort (equal graphs
// have equal toposorts: the walk follows the sources in order).
struct Step {
  enum class Kind : uint8_t { kSame, kBuffer, kNode } kind;
  UOpRef same;  // kSame: the node itself (no buffer under it; interned, so the same node every call)
  // kBuffer: what its PARAM is made of (its slot is its rank among the buffers, in toposort order)
  int64_t size = 0;
  DType dtype;
  Device device;
  AddrSpace addrspace = AddrSpace::GLOBAL;
  // kNode (and dtype above): a node over a buffer, with the toposort places of its sources
  Ops op{};
  Arg arg;
  std::optional<int64_t> tag;
  std::vector<uint32_t> src;
};

struct Entry {
  std::vector<Step> steps;
  UOpRef body;  // the FUNCTION's TUPLE
};

// A graph's toposort with what the memo compares: each node's kind, a fingerprint of the whole
// (the key) and the buffers in slot order.
struct Walk {
  std::vector<const UOp*> order;
  std::vector<Step::Kind> kinds;
  PointerMap place;
  std::vector<UOpRef> buffers;
  uint64_t key = 0;
  bool memoizable = true;
};

Walk walk(const UOpRef& tuple) {
  Walk w{tuple->toposort(), {}, PointerMap(64), {}, 0, true};
  w.place = PointerMap(w.order.size());
  w.kinds.resize(w.order.size());
  std::vector<uint64_t> fp(w.order.size());
  for (uint32_t i = 0; i < w.order.size(); i++) {
    const UOp* u = w.order[i];
    w.place.set(u, i);
    // variables (bound or not) and traced placeholders are PARAMs: callify has rules for them
    if (u->op == Ops::PARAM || u->op == Ops::FUNCTION) {
      w.memoizable = false;
      return w;
    }
    if (u->op == Ops::BUFFER) {
      const BufferArg& b = u->arg.get<BufferArg>();
      w.kinds[i] = Step::Kind::kBuffer;
      fp[i] = mix(mix(0xB0FFull, uint64_t(w.buffers.size())), mix(uint64_t(b.size), b.dtype.hash()));
      w.buffers.push_back(u->ref());
      continue;
    }
    bool over_buffer = false;
    for (const UOpRef& s : u->src) over_buffer = over_buffer || w.kinds[w.place.get(s.get(), 0)] != Step::Kind::kSame;
    if (!over_buffer) {
      w.kinds[i] = Step::Kind::kSame;
      fp[i] = mix(0x5A3Eull, uint64_t(reinterpret_cast<uintptr_t>(u)));
      continue;
    }
    w.kinds[i] = Step::Kind::kNode;
    uint64_t h = mix(mix(uint64_t(u->op), u->dtype.hash()), u->arg.hash());
    h = mix(h, u->tag ? uint64_t(*u->tag) : 0x7A6ull);
    for (const UOpRef& s : u->src) h = mix(h, fp[w.place.get(s.get(), 0)]);
    fp[i] = h;
  }
  w.key = mix(fp.back(), w.order.size());
  return w;
}

bool matches(const Walk& w, const Entry& e) {
  if (w.order.size() != e.steps.size()) return false;
  for (size_t i = 0; i < w.order.size(); i++) {
    const UOp* u = w.order[i];
    const Step& s = e.steps[i];
    if (w.kinds[i] != s.kind) return false;
    switch (s.kind) {
      case Step::Kind::kSame:
        if (u != s.same.get()) return false;
        break;
      case Step::Kind::kBuffer: {
        const BufferArg& b = u->arg.get<BufferArg>();
        if (b.size != s.size || b.dtype != s.dtype || b.addrspace != s.addrspace || !(b.device == s.device))
          return false;
        break;
      }
      case Step::Kind::kNode:
        if (u->op != s.op || u->dtype != s.dtype || u->tag != s.tag || u->src.size() != s.src.size()) return false;
        for (size_t k = 0; k < s.src.size(); k++)
          if (w.place.get(u->src[k].get(), UINT32_MAX) != s.src[k]) return false;
        if (!(u->arg == s.arg)) return false;
        break;
    }
  }
  return true;
}

std::vector<Step> steps_of(const Walk& w) {
  std::vector<Step> steps(w.order.size());
  for (size_t i = 0; i < w.order.size(); i++) {
    const UOp* u = w.order[i];
    Step& s = steps[i];
    s.kind = w.kinds[i];
    if (s.kind == Step::Kind::kSame) {
      s.same = u->ref();
    } else if (s.kind == Step::Kind::kBuffer) {
      const BufferArg& b = u->arg.get<BufferArg>();
      s.size = b.size;
      s.dtype = b.dtype;
      s.device = b.device;
      s.addrspace = b.addrspace;
    } else {
      s.op = u->op;
      s.dtype = u->dtype;
      s.arg = u->arg;
      s.tag = u->tag;
      for (const UOpRef& c : u->src) s.src.push_back(w.place.get(c.get(), 0));
    }
  }
  return steps;
}

// Bounded like the schedule cache: a program that realizes endless distinct graphs must not grow
// it without limit, so it is emptied when full.
constexpr size_t kMaxKept = 1024;
std::mutex mu;
CallifyMemoStats counts;
std::unordered_map<uint64_t, std::shared_ptr<const Entry>>& kept() {
  static std::unordered_map<uint64_t, std::shared_ptr<const Entry>> m;
  return m;
}

}  // namespace

Callified callify_memo(std::span<const UOpRef> outputs) {
  if (!setting("CALLIFY_MEMO", 1)) return callify(outputs);
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, std::vector<UOpRef>(outputs.begin(), outputs.end()));
  if (tuple->holds_function()) return callify(outputs);
  Walk w = walk(tuple);
  if (!w.memoizable) return callify(outputs);
  std::shared_ptr<const Entry> entry;
  {
    std::lock_guard lock(mu);
    if (auto it = kept().find(w.key); it != kept().end()) entry = it->second;
  }
  if (entry && matches(w, *entry)) {
    {
      std::lock_guard lock(mu);
      counts.hits++;
    }
    Callified out;
    std::vector<UOpRef> fn_src{entry->body};
    fn_src.insert(fn_src.end(), w.buffers.begin(), w.buffers.end());
    out.function = UOp::create(Ops::FUNCTION, dtypes::void_, std::move(fn_src));
    out.buffers = std::move(w.buffers);
    return out;
  }
  Callified out = callify(outputs);
  auto made = std::make_shared<Entry>(Entry{steps_of(w), function_body(out.function)});
  std::lock_guard lock(mu);
  if (kept().size() >= kMaxKept) kept().clear();
  kept().insert_or_assign(w.key, std::move(made));  // a different graph of the same key: the newer one stays
  counts.misses++;
  return out;
}

CallifyMemoStats callify_memo_stats() {
  std::lock_guard lock(mu);
  CallifyMemoStats s = counts;
  s.kept = kept().size();
  return s;
}

}  // namespace onegrad
