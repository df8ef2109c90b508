// getitem. Basic indexing is built from SHRINK, FLIP, PAD and RESHAPE only: each source axis is
// handled on its own, keeping the rank; one RESHAPE at the end drops the int-indexed axes and
// inserts the NewAxis ones. Tensor indices (advanced indexing) follow in advanced_indexing.cpp.
#include <algorithm>

#include "tensor/advanced_indexing.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// What a Python slice selects from an axis of size n (slice.indices): the first element, the step
// and the count.
struct Selection {
  int64_t start, step, count;
};

Selection resolve(const Slice& sl, int64_t n) {
  int64_t step = sl.step;
  int64_t lower = step > 0 ? 0 : -1, upper = step > 0 ? n : n - 1;
  auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    return std::clamp(x, lower, upper);
  };
  int64_t start = clamp(sl.start, step > 0 ? lower : upper);
  int64_t stop = clamp(sl.stop, step > 0 ? upper : lower);
  int64_t span = step > 0 ? stop - start : start - stop;
  int64_t k = step > 0 ? step : -step;
  int64_t count = span <= 0 ? 0 : (span + k - 1) / k;
  return {start, step, count};
}

std::vector<std::pair<int64_t, int64_t>> full_bounds(const Dims& s) {
  std::vector<std::pair<int64_t, int64_t>> b;
  for (int64_t d : s) b.push_back({0, d});
  return b;
}

// Elements start, start+k, ... (count of them, k >= 1) of axis `ax`. For k > 1: shrink to the
// covered span, pad it to count*k, split the axis into (count, k) and keep column 0.
Tensor select_axis(const Tensor& t, size_t ax, int64_t start, int64_t k, int64_t count) {
  Dims s = t.shape();
  auto b = full_bounds(s);
  if (count == 0 || k == 1) {
    b[ax] = {start, start + count};
    return t.shrink(b);
  }
  int64_t end = std::min(s[ax], start + count * k);
  b[ax] = {start, end};
  Tensor x = t.shrink(b);
  std::vector<std::pair<int64_t, int64_t>> p(ax + 1, {0, 0});
  p[ax] = {0, count * k - (end - start)};
  x = x.pad(p);
  Dims split = s;
  split[ax] = count;
  split.insert(split.begin() + ax + 1, k);
  x = x.reshape(split);
  auto keep = full_bounds(split);
  keep[ax + 1] = {0, 1};
  Dims merged = s;
  merged[ax] = count;
  return x.shrink(keep).reshape(merged);
}

}  // namespace

BasicIndexed basic_index(const Tensor& t, const std::vector<IndexItem>& index) {
  Dims s = t.shape();
  // A 0-d bool tensor (t[True]) consumes no axis: it is a new axis of size 1 with a (1,) mask on
  // it (numpy, PyTorch).
  auto is_flag = [](const Tensor* ti) { return ti && ti->dtype().is_bool() && ti->ndim() == 0; };
  size_t consuming = 0, ellipses = 0;
  for (const IndexItem& it : index) {
    if (std::holds_alternative<int64_t>(it) || std::holds_alternative<Slice>(it)) consuming++;
    if (const Tensor* ti = std::get_if<Tensor>(&it)) consuming += ti->dtype().is_bool() ? size_t(ti->ndim()) : 1;
    if (std::holds_alternative<Ellipsis>(it)) ellipses++;
  }
  if (ellipses > 1) throw ShapeError("getitem: an index can only have a single ellipsis (...)");
  if (consuming > s.size())
    throw ShapeError("getitem: too many indices for shape " + shape_text(s) + ": " + std::to_string(consuming) +
                     " were given");
  // The ellipsis (explicit, or implied at the end) stands for the axes the others leave.
  std::vector<IndexItem> items;
  bool expanded = false;
  for (const IndexItem& it : index) {
    if (std::holds_alternative<Ellipsis>(it)) {
      items.insert(items.end(), s.size() - consuming, Slice{});
      expanded = true;
    } else {
      items.push_back(it);
    }
  }
  if (!expanded) items.insert(items.end(), s.size() - consuming, Slice{});

  // Basic items first (PyTorch applies ints as selections, so an int never counts as an advanced
  // index); tensor items keep their axes whole and are recorded with their place in the result.
  Tensor x = t;
  Dims out;
  std::vector<AdvancedIndex> advanced;
  size_t ax = 0;
  for (const IndexItem& it : items) {
    if (std::holds_alternative<NewAxis>(it)) {
      out.push_back(1);
      continue;
    }
    if (const Tensor* ti = std::get_if<Tensor>(&it); is_flag(ti)) {
      advanced.push_back(AdvancedIndex{out.size(), ti->reshape({1}), ax});
      out.push_back(1);
      continue;
    }
    if (const Tensor* ti = std::get_if<Tensor>(&it)) {
      size_t k = ti->dtype().is_bool() ? size_t(ti->ndim()) : 1;
      if (ti->dtype().is_bool()) check_mask_shape(*ti, s, ax);
      advanced.push_back(AdvancedIndex{out.size(), *ti, ax});
      for (size_t j = 0; j < k; j++) out.push_back(s[ax + j]);
      ax += k;
      continue;
    }
    if (const int64_t* i = std::get_if<int64_t>(&it)) {
      int64_t k = *i < 0 ? *i + s[ax] : *i;
      if (k < 0 || k >= s[ax])
        throw ShapeError("getitem: index " + std::to_string(*i) + " is out of bounds for axis " + std::to_string(ax) +
                         " with size " + std::to_string(s[ax]));
      x = select_axis(x, ax, k, 1, 1);
    } else {
      const Slice& sl = std::get<Slice>(it);
      if (sl.step == 0) throw ShapeError("getitem: slice step cannot be zero");
      Selection sel = resolve(sl, s[ax]);
      int64_t start = sel.start;
      if (sel.step < 0 && sel.count > 0) {
        // A negative step is a positive one on the flipped axis, where element i sits at n-1-i.
        x = x.flip({int64_t(ax)});
        start = s[ax] - 1 - start;
      }
      if (sel.count == 0) start = 0;
      x = select_axis(x, ax, start, sel.step < 0 ? -sel.step : sel.step, sel.count);
      out.push_back(sel.count);
    }
    ax++;
  }
  return BasicIndexed{x.reshape(out), std::move(advanced)};
}

Tensor Tensor::getitem(const std::vector<IndexItem>& index) const {
  BasicIndexed b = basic_index(*this, index);
  if (b.advanced.empty()) return b.view;
  return advanced_getitem(b.view, std::move(b.advanced));
}

}  // namespace onegrad
