// Shape ops built from the movement ops (docs/tensor.md, "Shape ops"): T, mT, squeeze of several
// axes, unflatten, movedim, split/chunk/unbind, repeat/tile, repeat_interleave, roll. Every one is
// RESHAPE, PERMUTE, EXPAND and SHRINK only: no ALU node, so the values (and -0.0, NaN payloads)
// are the input's. Names, argument rules and the errors follow PyTorch.
#include <algorithm>
#include <numeric>

#include "tensor/shape_ops.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Normalised, checked axes; `what` names the list in the repeat error ("source", "dims").
Dims normalize_axes(const std::string& op, const Dims& axes, const Dims& shape, const std::string& what) {
  Dims out;
  for (int64_t a : axes) {
    int64_t k = normalize_axis(op, a, shape);
    if (std::find(out.begin(), out.end(), k) != out.end())
      throw ShapeError(op + ": axis " + num(a) + " repeated in " + what + " " + shape_text(axes));
    out.push_back(k);
  }
  return out;
}

}  // namespace

Tensor shrink_axis(const Tensor& t, int64_t axis, int64_t begin, int64_t end) {
  std::vector<std::pair<int64_t, int64_t>> b;
  Dims s = t.shape();
  for (int64_t i = 0; i <= axis; i++) b.push_back(i == axis ? std::pair{begin, end} : std::pair<int64_t, int64_t>{0, s[i]});
  return t.shrink(b);
}

Tensor tile_axis(const Tensor& t, int64_t axis, int64_t k) {
  if (k == 1) return t;
  Dims s = t.shape(), one = s, wide = s, out = s;
  one.insert(one.begin() + axis, 1);
  wide.insert(wide.begin() + axis, k);
  out[axis] *= k;
  return t.reshape(one).expand(wide).reshape(out);
}

// numpy's and PyTorch 1.13's .T: all axes reversed (PyTorch deprecates it for ndim != 2; mT is the
// batched-matrix transpose).
Tensor Tensor::T() const {
  if (ndim() < 2) return *this;  // nothing to reverse: no PERMUTE node
  Dims order(static_cast<size_t>(ndim()));
  std::iota(order.rbegin(), order.rend(), 0);
  return permute(order);
}

Tensor Tensor::mT() const {
  if (ndim() < 2)
    throw ShapeError("mT: needs a matrix or a batch of matrices (at least 2 dims), got shape " + shape_text(shape()));
  return transpose(-2, -1);
}

// Each listed axis goes when it has size 1; the others stay (PyTorch 2's squeeze(tuple)).
Tensor Tensor::squeeze(const std::vector<int64_t>& dims) const {
  Dims s = shape();
  if (s.empty()) {
    for (int64_t d : dims) normalize_axis_ext("squeeze", d, s, 1);  // a 0-d tensor takes 0 / -1
    return *this;
  }
  Dims axes = normalize_axes("squeeze", dims, s, "dims"), out;
  for (int64_t i = 0; i < int64_t(s.size()); i++)
    if (s[i] != 1 || std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(s[i]);
  return reshape(out);
}

Tensor Tensor::unflatten(int64_t dim, std::vector<int64_t> sizes) const {
  Dims s = shape();
  int64_t ax = normalize_axis("unflatten", dim, s);
  if (sizes.empty()) throw ShapeError("unflatten: sizes must be non-empty");
  auto fail = [&](const std::string& why) {
    throw ShapeError("unflatten: sizes " + shape_text(sizes) + why + " (axis " + num(ax) + " of shape " + shape_text(s) + ")");
  };
  if (std::count(sizes.begin(), sizes.end(), -1) > 1) fail(": only one size can be -1");
  if (std::any_of(sizes.begin(), sizes.end(), [](int64_t d) { return d < -1; })) fail(": negative size");
  int64_t known = 1;
  for (int64_t d : sizes)
    if (d != -1) known *= d;
  auto infer = std::find(sizes.begin(), sizes.end(), -1);
  if (infer != sizes.end()) {
    if (known == 0 || s[ax] % known != 0) fail(": the -1 cannot be inferred for size " + num(s[ax]));
    *infer = s[ax] / known;
  } else if (known != s[ax]) {
    fail(" do not multiply up to the size " + num(s[ax]));
  }
  Dims out(s.begin(), s.begin() + ax);
  out.insert(out.end(), sizes.begin(), sizes.end());
  out.insert(out.end(), s.begin() + ax + 1, s.end());
  return reshape(out);
}

// numpy's moveaxis: the axes not moved keep their order and fill the places left free.
Tensor Tensor::movedim(std::vector<int64_t> source, std::vector<int64_t> destination) const {
  Dims s = shape();
  if (source.size() != destination.size())
    throw ShapeError("movedim: source " + shape_text(source) + " and destination " + shape_text(destination) +
                     " must have the same number of axes");
  Dims src = normalize_axes("movedim", source, s, "source");
  Dims dst = normalize_axes("movedim", destination, s, "destination");
  Dims order;
  for (int64_t i = 0; i < int64_t(s.size()); i++)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int64_t, int64_t>> moves;
  for (size_t i = 0; i < src.size(); i++) moves.push_back({dst[i], src[i]});
  std::sort(moves.begin(), moves.end());
  for (auto [d, a] : moves) order.insert(order.begin() + d, a);
  return permute(order);
}

// Pieces of split_size along the axis, the last one shorter (PyTorch: at least one piece, so an
// empty axis gives one empty piece).
std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  Dims s = shape();
  int64_t ax = normalize_axis("split", dim, s), n = s[ax];
  if (split_size < 0) throw ShapeError("split: split_size must be non-negative, got " + num(split_size));
  if (split_size == 0 && n != 0)
    throw ShapeError("split: split_size can only be 0 if the axis is empty, but axis " + num(ax) + " of shape " +
                     shape_text(s) + " has size " + num(n));
  int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((n + split_size - 1) / split_size, 1);
  Dims sizes;
  for (int64_t i = 0; i < pieces; i++) sizes.push_back(std::min(split_size, n - i * split_size));
  return split_with_sizes(sizes, ax);
}

std::vector<Tensor> Tensor::split_with_sizes(const std::vector<int64_t>& sizes, int64_t dim) const {
  Dims s = shape();
  int64_t ax = normalize_axis("split", dim, s);
  int64_t total = 0;
  for (int64_t d : sizes) {
    if (d < 0) throw ShapeError("split: negative size in split sizes " + shape_text(sizes));
    total += d;
  }
  if (total != s[ax])
    throw ShapeError("split: split sizes " + shape_text(sizes) + " must sum to the size " + num(s[ax]) + " of axis " +
                     num(ax) + " of shape " + shape_text(s));
  std::vector<Tensor> out;
  int64_t at = 0;
  for (int64_t d : sizes) {
    out.push_back(shrink_axis(*this, ax, at, at + d));
    at += d;
  }
  return out;
}

// PyTorch's rule: pieces of ceil(n / chunks), so fewer than `chunks` may come back (6 in 4 chunks
// is 2, 2, 2); an empty axis gives `chunks` empty pieces.
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  Dims s = shape();
  int64_t ax = normalize_axis("chunk", dim, s), n = s[ax];
  if (chunks <= 0) throw ShapeError("chunk: chunks must be greater than 0, got " + num(chunks));
  if (n == 0) return split_with_sizes(Dims(size_t(chunks), 0), ax);
  return split((n + chunks - 1) / chunks, ax);
}

std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  Dims s = shape();
  int64_t ax = normalize_axis("unbind", dim, s);
  Dims rest = s;
  rest.erase(rest.begin() + ax);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < s[ax]; i++) out.push_back(shrink_axis(*this, ax, i, i + 1).reshape(rest));
  return out;
}

// PyTorch's repeat (numpy's tile with len(repeats) >= ndim): new leading axes of size 1, then
// every axis tiled: RESHAPE (1, s0, 1, s1, …), EXPAND (r0, s0, r1, s1, …), RESHAPE (r0·s0, …).
Tensor Tensor::repeat(std::vector<int64_t> repeats) const {
  Dims s = shape();
  if (repeats.size() < s.size())
    throw ShapeError("repeat: " + num(int64_t(repeats.size())) + " repeats " + shape_text(repeats) +
                     " for shape " + shape_text(s) + ": give at least one per axis");
  for (int64_t r : repeats)
    if (r < 0) throw ShapeError("repeat: negative repeat count in " + shape_text(repeats));
  if (repeats.size() == s.size() && std::all_of(repeats.begin(), repeats.end(), [](int64_t r) { return r == 1; }))
    return *this;  // nothing repeated: no movement nodes
  Dims base(repeats.size() - s.size(), 1);
  base.insert(base.end(), s.begin(), s.end());
  Dims split_shape, expanded, out;
  for (size_t i = 0; i < base.size(); i++) {
    split_shape.insert(split_shape.end(), {1, base[i]});
    expanded.insert(expanded.end(), {repeats[i], base[i]});
    out.push_back(repeats[i] * base[i]);
  }
  return reshape(split_shape).expand(expanded).reshape(out);
}

// numpy/PyTorch tile: fewer reps than axes are padded with leading 1s.
Tensor Tensor::tile(std::vector<int64_t> reps) const {
  if (int64_t(reps.size()) < ndim()) reps.insert(reps.begin(), size_t(ndim()) - reps.size(), 1);
  return repeat(reps);
}

// Each element `repeats` times in a row: UNSQUEEZE after the axis, EXPAND it, merge the two.
// Without a dim the tensor is flattened first (PyTorch).
Tensor Tensor::repeat_interleave(int64_t repeats, std::optional<int64_t> dim) const {
  if (repeats < 0) throw ShapeError("repeat_interleave: repeats must be non-negative, got " + num(repeats));
  Tensor t = dim ? *this : flatten();
  Dims s = t.shape();
  int64_t ax = normalize_axis("repeat_interleave", dim.value_or(0), s);
  Dims wide = s;
  wide.insert(wide.begin() + ax + 1, repeats);
  return t.unsqueeze(ax + 1).expand(wide).flatten(ax, ax + 1);
}

// Each (shift, dim): the axis tiled twice and the window [n − k, 2n − k) kept, k = shift mod n
// (movement only). No dims: the flattened tensor rolls and gets its shape back.
Tensor Tensor::roll(std::vector<int64_t> shifts, std::vector<int64_t> dims) const {
  if (shifts.empty()) throw ShapeError("roll: shifts must not be empty");
  if (dims.empty()) {
    if (shifts.size() != 1)
      throw ShapeError("roll: shifts and dims must align: " + num(int64_t(shifts.size())) +
                       " shifts without dims (give one shift to roll the flattened tensor)");
    return flatten().roll(shifts, {0}).reshape(shape());
  }
  if (shifts.size() != dims.size())
    throw ShapeError("roll: shifts and dims must align: " + num(int64_t(shifts.size())) + " shifts for " +
                     num(int64_t(dims.size())) + " dims");
  Tensor t = *this;
  Dims s = shape();
  for (size_t i = 0; i < shifts.size(); i++) {
    int64_t ax = normalize_axis("roll", dims[i], s), n = s[ax];
    if (n == 0) continue;
    int64_t k = ((shifts[i] % n) + n) % n;
    if (k == 0) continue;
    t = shrink_axis(tile_axis(t, ax, 2), ax, n - k, 2 * n - k);
  }
  return t;
}

}  // namespace onegrad
