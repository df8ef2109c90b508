// Interning, reference counting and construction of UOps.
#include "uop/uop.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <mutex>

#include "uop/errors.h"
#include "uop/pointer_set.h"
#include "uop/variable.h"

namespace onegrad {

// ---- the intern table ------------------------------------------------------------------------
// Sharded by hash; each shard is a set of live nodes keyed by (op, dtype, src, arg, tag). Entries
// are weak: a node whose count reaches zero removes itself. A lookup only revives a node whose
// count is still above zero, so a dying node is never handed out again.

namespace {

struct Key {
  Ops op;
  DType dtype;
  std::span<const UOpRef> src;
  const Arg& arg;
  const std::optional<int64_t>& tag;
  uint64_t hash;
};

uint64_t hash_key(Ops op, DType dtype, std::span<const UOpRef> src, const Arg& arg, const std::optional<int64_t>& tag) {
  uint64_t h = uint64_t(op) * 0x100000001B3ull ^ dtype.hash() * 0x9E3779B97F4A7C15ull;
  for (const UOpRef& s : src) h = (h ^ s->hash()) * 0x100000001B3ull + 0x7F4A7C15;
  h ^= arg.hash() + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  if (tag) h ^= uint64_t(*tag) * 0xC2B2AE3D27D4EB4Full + 1;
  // murmur3's finalizer: every input bit reaches the low bits (slot index) and the high bits (shard)
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

bool same_src(std::span<const UOpRef> a, std::span<const UOpRef> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

struct InternTable {
  // One shard: an open-addressing table of (hash, node) slots with linear probing. Comparing the
  // stored hash first means a probe touches a node only when its hash matches, and inserting or
  // erasing allocates nothing (the table grows and shrinks by rehashing).
  class Shard {
   public:
    std::mutex mutex;

    // The live node equal to `key`, or null; also where the key would be inserted.
    const UOp* find(const Key& key, size_t& insert_at) const {
      insert_at = SIZE_MAX;
      if (slots_.empty()) return nullptr;
      size_t mask = slots_.size() - 1;
      for (size_t i = key.hash & mask;; i = (i + 1) & mask) {
        const Slot& s = slots_[i];
        if (s.node == nullptr) {
          if (insert_at == SIZE_MAX) insert_at = i;
          return nullptr;
        }
        if (s.node == tombstone()) {
          if (insert_at == SIZE_MAX) insert_at = i;
          continue;
        }
        if (s.hash == key.hash && matches(s.node, key)) return s.node;
      }
    }

    // Insert a node known to be absent; `insert_at` comes from find() on the same key.
    void insert(const UOp* u, size_t insert_at) {
      if (insert_at == SIZE_MAX || (used_ + 1) * 10 > slots_.size() * 7) {
        rehash(std::max<size_t>(64, std::bit_ceil((size_ + 1) * 2)));
        insert_at = free_slot(u->hash_);
      }
      if (slots_[insert_at].node == nullptr) used_++;
      slots_[insert_at] = {u->hash_, u};
      size_++;
    }

    // Remove exactly this node, if it is still in the table.
    void erase(const UOp* u) {
      if (slots_.empty()) return;
      size_t mask = slots_.size() - 1;
      for (size_t i = u->hash_ & mask;; i = (i + 1) & mask) {
        Slot& s = slots_[i];
        if (s.node == nullptr) return;
        if (s.node == u) {
          s.node = tombstone();
          size_--;
          // a table that emptied out gives its memory back
          if (slots_.size() > 1024 && size_ * 8 < slots_.size()) rehash(std::max<size_t>(64, std::bit_ceil(size_ * 2 + 1)));
          return;
        }
      }
    }

    size_t size() const { return size_; }

   private:
    struct Slot {
      uint64_t hash = 0;
      const UOp* node = nullptr;
    };
    static const UOp* tombstone() { return reinterpret_cast<const UOp*>(uintptr_t(1)); }

    size_t free_slot(uint64_t hash) const {
      size_t mask = slots_.size() - 1;
      size_t i = hash & mask;
      while (slots_[i].node != nullptr && slots_[i].node != tombstone()) i = (i + 1) & mask;
      return i;
    }

    void rehash(size_t capacity) {
      std::vector<Slot> old = std::move(slots_);
      slots_.assign(capacity, Slot{});
      for (const Slot& s : old)
        if (s.node != nullptr && s.node != tombstone()) slots_[free_slot(s.hash)] = s;
      used_ = size_;
    }

    std::vector<Slot> slots_;
    size_t size_ = 0;  // live entries
    size_t used_ = 0;  // live entries and tombstones
  };

  static bool matches(const UOp* u, const Key& k) {
    return u->op == k.op && u->dtype == k.dtype && u->tag == k.tag && same_src(u->src, k.src) && u->arg == k.arg;
  }

  static constexpr int kShards = 64;
  Shard shards[kShards];

  // The high bits pick the shard; the low bits index inside it.
  Shard& shard_for(uint64_t hash) { return shards[hash >> 58]; }

  static InternTable& get() {
    static InternTable* table = new InternTable();  // never destroyed: nodes may outlive statics
    return *table;
  }

  // Remove a node whose count reached zero, unless a fresh node with its key replaced it.
  void forget(const UOp* u) {
    Shard& s = shard_for(u->hash_);
    std::lock_guard lock(s.mutex);
    s.erase(u);
  }
};

// ---- reference counting ----------------------------------------------------------------------

namespace {

// Nodes whose count reached zero on this thread, waiting to be freed. Freeing a node drops its
// sources, which may queue more nodes: the loop below handles them without recursion.
// The worklist lives on the stack of the outermost draining ~UOpRef and is reached through a
// trivially destructible thread_local pointer: nodes released during exit (by static caches,
// after the thread's thread_local objects are gone) must still find a valid list.
thread_local std::vector<const UOp*>* t_dying = nullptr;

}  // namespace

UOpRef UOpRef::share(const UOp* p) {
  if (p) p->refcount_.fetch_add(1, std::memory_order_relaxed);
  return adopt(p);
}

UOpRef::UOpRef(const UOpRef& o) : p_(o.p_) {
  if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
}

UOpRef& UOpRef::operator=(const UOpRef& o) {
  if (o.p_) o.p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  UOpRef old = adopt(p_);
  p_ = o.p_;
  return *this;
}

UOpRef& UOpRef::operator=(UOpRef&& o) noexcept {
  if (this != &o) {
    UOpRef old = adopt(p_);
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}

UOpRef::~UOpRef() {
  if (!p_ || p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (t_dying) {
    t_dying->push_back(p_);
    return;
  }
  std::vector<const UOp*> dying{p_};
  t_dying = &dying;
  while (!dying.empty()) {
    const UOp* u = dying.back();
    dying.pop_back();
    InternTable::get().forget(u);
    delete u;  // drops its sources and properties, which may queue more nodes
  }
  t_dying = nullptr;
}

// ---- nodes -----------------------------------------------------------------------------------

namespace {
std::atomic<uint64_t> g_next_serial{0};
}  // namespace

UOp::UOp(Ops op, DType dtype, std::vector<UOpRef> src, Arg arg, std::optional<int64_t> tag, uint64_t hash)
    : op(op), dtype(dtype), src(std::move(src)), arg(std::move(arg)), tag(tag), hash_(hash),
      serial_(g_next_serial.fetch_add(1, std::memory_order_relaxed)),
      holds_(uint8_t((op == Ops::AFTER && tag ? kHoldsTaggedAfter : 0) | (op == Ops::FUNCTION ? kHoldsFunction : 0))) {
  for (const UOpRef& s : this->src) holds_ |= s->holds_;
}

uint64_t UOp::serial_watermark() { return g_next_serial.load(std::memory_order_relaxed); }

UOp::~UOp() { delete props_.load(std::memory_order_acquire); }

UOpRef UOp::create(Ops op, DType dtype, std::vector<UOpRef> src, Arg arg, std::optional<int64_t> tag) {
  for (size_t i = 0; i < src.size(); i++)
    if (!src[i]) throw InternalError(std::string(op_name(op)) + ": source " + std::to_string(i) + " is null");
  uint64_t h = hash_key(op, dtype, src, arg, tag);
  InternTable& table = InternTable::get();
  InternTable::Shard& shard = table.shard_for(h);
  Key key{op, dtype, src, arg, tag, h};
  std::lock_guard lock(shard.mutex);
  size_t insert_at;
  if (const UOp* found = shard.find(key, insert_at)) {
    int32_t count = found->refcount_.load(std::memory_order_relaxed);
    while (count > 0) {
      if (found->refcount_.compare_exchange_weak(count, count + 1, std::memory_order_acq_rel)) return UOpRef::adopt(found);
    }
    shard.erase(found);  // dying: its owner frees it; a fresh node takes its key
    shard.find(key, insert_at);
  }
  const UOp* u = new UOp(op, dtype, std::move(src), std::move(arg), tag, h);
  shard.insert(u, insert_at);
  return UOpRef::adopt(u);
}

UOpRef UOp::create(Ops op, std::vector<UOpRef> src, Arg arg) {
  for (size_t i = 0; i < src.size(); i++)
    if (!src[i]) throw InternalError(std::string(op_name(op)) + ": source " + std::to_string(i) + " is null");
  std::optional<DType> dt = infer_dtype(op, src, arg);
  if (!dt) throw DTypeError(std::string(op_name(op)) + ": dtype cannot be inferred; give it explicitly");
  return create(op, *dt, std::move(src), std::move(arg));
}

size_t UOp::live_count() {
  size_t n = 0;
  for (auto& s : InternTable::get().shards) {
    std::lock_guard lock(s.mutex);
    n += s.size();
  }
  return n;
}

UOpRef UOp::const_(DType dtype, ConstValue v) { return create(Ops::CONST, dtype, {}, cast_value(v, dtype)); }

UOpRef UOp::variable(std::string name, i128 lo, i128 hi, DType dtype) {
  ParamArg p{-1, dtype, Device(), std::nullopt, std::move(name), ConstValue::from_int(lo), ConstValue::from_int(hi)};
  return create(Ops::PARAM, dtype, {}, Arg(std::move(p)));
}

UOpRef UOp::shape_operand(const Shape& dims) { return create(Ops::STACK, dtypes::index, dims); }

UOpRef UOp::shape_operand(std::span<const int64_t> dims) {
  Shape s;
  s.reserve(dims.size());
  for (int64_t d : dims) s.push_back(index(d));
  return shape_operand(s);
}

UOpRef UOp::range(const UOpRef& bound, int64_t id, AxisType type) {
  return create(Ops::RANGE, dtypes::index, {bound}, RangeArg{id, type});
}

UOpRef UOp::with_src(std::vector<UOpRef> new_src) const { return create(op, dtype, std::move(new_src), arg, tag); }
UOpRef UOp::with_dtype(DType dt) const { return create(op, dt, src, arg, tag); }
UOpRef UOp::with_tag(std::optional<int64_t> t) const { return create(op, dtype, src, arg, t); }
UOpRef UOp::with_arg(Arg a) const { return create(op, dtype, src, std::move(a), tag); }

bool UOp::is_const_value(double v) const {
  if (op != Ops::CONST) return false;
  const ConstValue& c = const_value();
  return c.is_float() ? c.as_double() == v : c.as_int() == i128(v) && double(c.as_int()) == v;
}

std::vector<const UOp*> UOp::toposort() const {
  return toposort([](const UOp&) { return true; });
}

std::vector<const UOp*> UOp::toposort(const std::function<bool(const UOp&)>& enter) const {
  std::vector<const UOp*> order;
  PointerSet seen;
  std::vector<std::pair<const UOp*, size_t>> stack{{this, 0}};
  seen.insert(this);
  while (!stack.empty()) {
    auto& [u, next] = stack.back();
    if (next < u->src.size() && enter(*u)) {
      const UOp* s = u->src[next++].get();
      if (seen.insert(s)) stack.push_back({s, 0});
      continue;
    }
    order.push_back(u);
    stack.pop_back();
  }
  return order;
}

std::optional<std::vector<int64_t>> UOp::static_shape() const {
  const Shape& dims = shape();
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (const UOpRef& d : dims) {
    std::optional<int64_t> v = eval_dim(d.get());  // a bound variable's dim is its value
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); i++) {
    if (i) out += ", ";
    const UOp* d = s[i].get();
    const auto* p = d->arg.get_if<ParamArg>();
    if (const auto* c = d->arg.get_if<ConstValue>(); c && d->is_const()) out += c->str();
    else if (p && d->op == Ops::PARAM && !p->name.empty()) out += p->name + (p->value ? "=" + std::to_string(*p->value) : "");
    else out += std::string(op_name(d->op)) + "(...)";
  }
  return out + (s.size() == 1 ? ",)" : ")");
}

std::string UOp::brief() const {
  std::string s = std::string(op_name(op)) + "(" + dtype.name();
  const UOpProps& p = props();
  if (p.has_shape) s += ", shape " + shape_str(p.shape);
  return s + ")";
}

// ---- operators -------------------------------------------------------------------------------

UOpRef literal(const UOpRef& like, int64_t v) { return UOp::const_int(like->dtype, v); }

UOpRef operator+(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::ADD, {a, b}); }
UOpRef operator*(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MUL, {a, b}); }
UOpRef operator-(const UOpRef& a) { return a * literal(a, -1); }
UOpRef operator-(const UOpRef& a, const UOpRef& b) { return a + -b; }
UOpRef operator%(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MOD, {a, b}); }
UOpRef operator<(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::CMPLT, {a, b}); }
UOpRef operator+(const UOpRef& a, int64_t b) { return a + literal(a, b); }
UOpRef operator-(const UOpRef& a, int64_t b) { return a + literal(a, -b); }
UOpRef operator*(const UOpRef& a, int64_t b) { return a * literal(a, b); }
UOpRef operator%(const UOpRef& a, int64_t b) { return a % literal(a, b); }
UOpRef operator<(const UOpRef& a, int64_t b) { return a < literal(a, b); }
UOpRef operator+(int64_t a, const UOpRef& b) { return literal(b, a) + b; }
UOpRef operator*(int64_t a, const UOpRef& b) { return literal(b, a) * b; }
UOpRef idiv(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::IDIV, {a, b}); }
UOpRef idiv(const UOpRef& a, int64_t b) { return idiv(a, literal(a, b)); }
UOpRef ne(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::CMPNE, {a, b}); }
UOpRef ne(const UOpRef& a, int64_t b) { return ne(a, literal(a, b)); }
UOpRef eq(const UOpRef& a, const UOpRef& b) { return ne(ne(a, b), UOp::const_bool(true)); }
UOpRef maximum(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MAX, {a, b}); }
UOpRef minimum(const UOpRef& a, const UOpRef& b) { return -maximum(-a, -b); }
UOpRef where(const UOpRef& c, const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::WHERE, {c, a, b}); }
UOpRef cast(const UOpRef& a, DType dt) { return UOp::create(Ops::CAST, dt, {a}, dt); }

}  // namespace onegrad
