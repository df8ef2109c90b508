// Tensor::setitem: t[index] = value as the spec's assign, a STORE into t's buffer followed by an
// AFTER (spec: Store Ops, "Assign is STORE followed by AFTER"), realized at once (the engine runs the
// write, through Tensor::realize). docs/tensor.md
// "setitem" has the decisions (which tensors see the write, write-through views, errors).
#include <algorithm>
#include <optional>
#include <unordered_map>

#include "tensor/advanced_indexing.h"
#include "tensor/axis_order.h"
#include "tensor/index_check.h"
#include "tensor/literal_check.h"
#include "tensor/scatter_compositions.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "tensor/view_chain.h"
#include "tensor/write_history.h"
#include "uop/errors.h"
#include "uop/pointer_set.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// Whether u's graph reads `buffer`, memoized over the nodes that graphs share.
bool reads_memo(const UOp* root, const UOp* buffer, std::unordered_map<const UOp*, bool>& memo) {
  std::vector<std::pair<const UOp*, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [u, next] = stack.back();
    if (memo.count(u)) {
      stack.pop_back();
      continue;
    }
    if (u == buffer) {
      memo[u] = true;
      stack.pop_back();
      continue;
    }
    if (next < u->src.size()) {
      const UOp* c = u->src[next++].get();
      if (!memo.count(c)) stack.push_back({c, 0});
      continue;
    }
    bool any = false;
    for (const UOpRef& c : u->src) any = any || memo.at(c.get());
    memo[u] = any;
    stack.pop_back();
  }
  return memo.at(root);
}

// Whether `value` reads `buffer` other than as `target` through elementwise ops alone. Reading
// target[i] for the value stored at target[i] is safe in one kernel (each element is read by the
// iteration that writes it, before it writes it); any other read may see the kernel's own writes.
// Two walks with flat pointer sets: the elementwise nodes down to the first other nodes, then
// everything below those (a setitem's value is some 100 nodes; a memo map per node cost more than
// building them).
bool reads_elsewhere(const UOp* value, const UOp* target, const UOp* buffer) {
  std::vector<const UOp*> stack{value}, below;
  PointerSet elementwise;
  while (!stack.empty()) {
    const UOp* u = stack.back();
    stack.pop_back();
    if (u == target || !elementwise.insert(u)) continue;
    if (!is_alu(u->op)) {
      below.push_back(u);
      continue;
    }
    for (const UOpRef& s : u->src) stack.push_back(s.get());
  }
  PointerSet seen;
  for (const UOp* u : below) seen.insert(u);
  while (!below.empty()) {
    const UOp* u = below.back();
    below.pop_back();
    if (u == buffer) return true;
    for (const UOpRef& s : u->src)
      if (seen.insert(s.get())) below.push_back(s.get());
  }
  return false;
}

// A copy of the buffer's contents in a new BUFFER. MAX(x, x) is the identity (NaN, -0.0 and bool
// included) and, unlike a LOAD of a buffer, is not an alias of it: the schedule writes a new buffer.
UOpRef snapshot(const UOp* buffer, const std::string& device) {
  int64_t n = buffer->arg.get<BufferArg>().size;
  UOpRef whole = UOp::create(Ops::RESHAPE, {buffer->ref(), UOp::shape_operand(std::vector<int64_t>{n})});
  Tensor copy(UOp::create(Ops::MAX, buffer->dtype, {whole, whole}), device);
  copy.realize();
  return copy.uop()->src[0];  // RESHAPE(new BUFFER) -> the BUFFER
}

// value cast to dt and broadcast to `shape` (right-aligned; extra leading dims must be 1).
Tensor broadcast_value(const std::string& op, const Tensor& value, const Dims& shape, DType dt) {
  Dims vs = value.shape();
  // Leading 1s beyond the target's rank are dropped (PyTorch, numpy: t[0] = ones(1, 3)).
  size_t lead = 0;
  while (vs.size() - lead > shape.size() && vs[lead] == 1) lead++;
  Tensor v = lead ? value.reshape(Dims(vs.begin() + int64_t(lead), vs.end())) : value;
  bool ok = vs.size() - lead <= shape.size();
  for (size_t i = 0; ok && i < vs.size() - lead; i++) {
    int64_t d = vs[vs.size() - 1 - i], t = shape[shape.size() - 1 - i];
    ok = d == t || d == 1;
  }
  if (!ok)
    throw ShapeError(op + ": cannot broadcast value of shape " + shape_text(vs) + " to the indexed shape " +
                     shape_text(shape));
  vs = v.shape();
  Dims padded(shape.size() - vs.size(), 1);
  padded.insert(padded.end(), vs.begin(), vs.end());
  return v.cast(dt).reshape(padded).expand(shape);
}

// What a write stores: `value` (target's shape and dtype) through `target`, a view of the buffer.
struct Store {
  Tensor target, value;
};

// STORE(target, value), AFTER(buffer, STORE), realized: the kernel writes the buffer in place.
void store_into(const UOp* buffer, const Tensor& target, Tensor value, const std::string& device) {
  if (target.numel() == 0) return;
  // A value that reads the buffer it is written into (t[1:] = t[:-1]) is computed into a buffer of
  // its own first: one kernel reading and writing overlapping elements would see its own writes.
  // (contiguous() alone is no copy for a whole view of the buffer, t[::-1] = t; MAX(x, x) is.)
  // A value that reads only the target's own elements (where(written, new, old)) needs no copy.
  if (reads_elsewhere(value.uop().get(), target.uop().get(), buffer))
    value = Tensor(UOp::create(Ops::MAX, value.dtype(), {value.uop(), value.uop()}), device).contiguous();
  Tensor after(WriteHistory::write_node(buffer, target.uop(), value.uop()), device);
  after.realize();
}

// Advanced setitem, the reverse of advanced getitem's gather: in the view the basic items leave,
// the indexed axes are merged into one of K elements (the target: still a view of the buffer), and
// its new contents are the last write to each of the K places (scatter::last_write: of duplicate
// positions, the last in index order wins, as PyTorch's CPU loop), the old rows elsewhere. Linear:
// a max scatter of the m positions, then a gather of the value rows.
std::optional<Store> advanced_store(const std::string& op, const Tensor& t, const std::vector<IndexItem>& index,
                                    const Tensor& value, const std::string& device) {
  BasicIndexed b = basic_index(t, index);
  // One mask alone: the values go in place by a scan and a scatter (mask_select.cpp).
  if (b.advanced.size() == 1 && b.advanced[0].index.dtype().is_bool() && b.advanced[0].index.ndim() > 0) {
    const AdvancedIndex& a = b.advanced[0];
    Tensor v = broadcast_value(op, value, masked_rows(b.view, a.index, a.axis).shape(), t.dtype());
    if (b.view.numel() == 0) return std::nullopt;
    return Store{b.view, masked_rows_assign(b.view, a.index, a.axis, v)};
  }
  ResolvedIndices r = resolve_advanced(b.view, std::move(b.advanced), "setitem");
  GatherLayout g = gather_layout(r);
  if (has_index_check(g.flat.uop())) g.flat.realize();  // a bad index raises before anything is written
  Tensor target = r.x.permute(g.perm).reshape(g.merged);  // (K, rest...)
  Dims rest(g.merged.begin() + 1, g.merged.end());
  Dims ordered = r.shape;  // the gathered shape (b..., rest...), then in getitem's order
  ordered.insert(ordered.end(), rest.begin(), rest.end());
  Dims result = ordered;
  for (size_t i = 0; i < g.place.size(); i++) result[i] = ordered[size_t(g.place[i])];
  Tensor v = broadcast_value(op, value, result, t.dtype());
  if (!g.place.empty()) v = v.permute(inverse_permutation(g.place));
  int64_t m = dims_numel(r.shape);
  if (m == 0 || target.numel() == 0) return std::nullopt;
  if (value.numel() == 1) {  // one value for every place written: where it is written, no last write
    Dims col(g.merged.size(), 1);
    col[0] = g.merged[0];
    Tensor one = value.cast(t.dtype()).reshape(Dims(g.merged.size(), 1)).expand(g.merged);
    return Store{target, scatter::hit(g.merged[0], g.flat.reshape({m})).reshape(col).where(one, target)};
  }
  Dims rows{m};
  rows.insert(rows.end(), rest.begin(), rest.end());
  return Store{target, scatter::last_write(target, g.flat.reshape({m}), v.reshape(rows))};
}

}  // namespace

void Tensor::setitem(const std::vector<IndexItem>& index, const Tensor& value) { write("setitem", index, value); }

void Tensor::write(const std::string& op, const std::vector<IndexItem>& index, const Tensor& value) {
  if (value.device() != device())
    throw DeviceError(op + ": value on " + value.device() + ", tensor on " + device());
  WriteHistory::check_leaf(*this, op);
  // Not a view of a buffer (a lazy value, a constant): realize it, or the tensor it is a view of,
  // so the write has a buffer to land in (write_target.cpp). A view writes through to its buffer.
  make_writable();
  const UOp* buffer = viewed_buffer(uop_.get());
  for (const UOpRef& u : view_chain(uop_))
    if (u->op == Ops::EXPAND)
      throw ShapeError(op + ": cannot write into the broadcast (expanded) view of shape " + shape_text(shape()) +
                       ": several of its elements are one element of the buffer (use contiguous() first)");
  bool advanced = std::any_of(index.begin(), index.end(), [](const IndexItem& it) {
    return std::holds_alternative<Tensor>(it);
  });
  // The target view and the value it gets, checked before anything runs. Tensor indices: the
  // merged view and where(written, picked, old) (advanced_store).
  std::optional<Store> store;
  if (!advanced) {
    Tensor target = getitem(index);
    store = Store{target, broadcast_value(op, value, target.shape(), dtype())};
  } else {
    store = advanced_store(op, *this, index, value, device_);
  }
  // autograd: the history the write gives the written node, from the graphs as they are now
  std::optional<WriteHistory::Pending> history;
  if (store) history = WriteHistory::prepare(*this, buffer, store->target, store->value);
  // Lazy values that read the buffer keep the values they were built from: they are rewired to a
  // snapshot of it, taken now (views, movement ops only, read the buffer and see the write, as in
  // PyTorch).
  std::unordered_map<const UOp*, bool> memo;
  std::vector<Tensor*> readers;
  for (Tensor* t : live_tensors()) {
    if (t == this || !t->uop_ || (store && t == &store->value)) continue;
    if (viewed_buffer(t->uop_.get()) && !t->is_value_copy_of(*this)) continue;
    if (reads_memo(t->uop_.get(), buffer, memo)) readers.push_back(t);
  }
  if (!readers.empty()) {
    UOpRef copy = snapshot(buffer, device_);
    Substitution to_snapshot{{buffer, copy}};
    for (Tensor* t : readers) t->uop_ = substitute(t->uop_, to_snapshot);
    WriteHistory::follow_snapshot(buffer, copy);
  }
  // (index tensors and the value are live tensors too: a mask computed from t, as in
  // t[t > 0] = 0, is computed from the old values; the stored value itself reads the buffer at
  // most as store_into handles)
  release_value_copies();
  if (history) WriteHistory::commit(*history);
  if (store) store_into(buffer, store->target, store->value, device_);
  note_written();
}

Tensor& Tensor::assign(const Tensor& value) {
  if (value.shape() != shape())
    throw ShapeError("assign: a value of shape " + shape_text(value.shape()) + " for a tensor of shape " +
                     shape_text(shape()));
  write("assign", {}, value);
  return *this;
}

void Tensor::setitem(const std::vector<IndexItem>& index, Scalar value) {
  setitem(index, literal_scalar("setitem", value, dtype(), device_));
}

}  // namespace onegrad
