// Unique: its output shape depends on the values, so it runs on the host (like If's condition):
// the input is realized, the distinct values (or slices along `axis`) found, and the four outputs
// (values, first-occurrence indices, inverse indices, counts; int64) made as tensors. sorted=1
// orders them ascending (slices lexicographically), sorted=0 by first occurrence.
#include <algorithm>
#include <map>
#include <numeric>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

Outs unique(const Node& n) {
  Tensor x = n.in(0);
  bool has_axis = n.has_attr("axis");
  int64_t axis = has_axis ? n.axis(n.attr_int("axis", 0), x.ndim()) : 0;
  if (!has_axis) x = x.reshape({x.numel()});
  // slices along axis as rows of float64 values (exact for the ints a model indexes with)
  Tensor moved = x.movedim({axis}, {0});
  int64_t rows = moved.shape()[0], width = rows ? moved.numel() / rows : 0;
  std::vector<double> v = floats_of(moved.reshape({rows, width}));
  auto row = [&](int64_t r) { return std::vector<double>(v.begin() + r * width, v.begin() + (r + 1) * width); };
  std::map<std::vector<double>, int64_t> first;  // slice -> its first row
  std::vector<int64_t> order;                     // distinct slices' first rows, by first occurrence
  for (int64_t r = 0; r < rows; ++r)
    if (first.emplace(row(r), r).second) order.push_back(r);
  if (n.attr_int("sorted", 1)) {
    order.clear();
    for (const auto& [slice, r] : first) order.push_back(r);
  }
  std::map<std::vector<double>, int64_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[row(order[i])] = int64_t(i);
  std::vector<int64_t> inverse(static_cast<size_t>(rows), 0), counts(order.size(), 0);
  for (int64_t r = 0; r < rows; ++r) {
    inverse[size_t(r)] = position[row(r)];
    ++counts[size_t(inverse[size_t(r)])];
  }
  auto ints = [&](const std::vector<int64_t>& d) { return Tensor::from_vector(d, {int64_t(d.size())}, dtypes::int64).to(n.device()); };
  Tensor values = moved.index_select(0, ints(order)).movedim({0}, {axis});
  return {values, ints(order), ints(inverse), ints(counts)};
}

}  // namespace

void add_unique_ops(OpTable& t) { t["Unique"] = unique; }

}  // namespace onegrad::onnx
