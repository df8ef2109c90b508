// NonMaxSuppression: how many boxes it keeps depends on the values, so it runs on the host (like
// Unique): per batch and class, the boxes above score_threshold in descending score order, each
// kept unless its IoU with a box already kept exceeds iou_threshold, at most
// max_output_boxes_per_class of them. Output (count, 3) int64 rows [batch, class, box].
#include <algorithm>
#include <array>
#include <numeric>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Box = std::array<double, 4>;  // y1, x1, y2, x2 with y1 <= y2, x1 <= x2

Box corners(const double* b, bool center) {
  if (center) return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

double iou(const Box& a, const Box& b) {
  double h = std::max(0.0, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  double w = std::max(0.0, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  double inter = h * w, uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return uni > 0 ? inter / uni : 0.0;
}

Tensor nms(const Node& n) {
  auto bs = n.in(0).shape(), ss = n.in(1).shape();
  if (bs.size() != 3 || bs[2] != 4 || ss.size() != 3 || ss[0] != bs[0] || ss[2] != bs[1])
    throw ShapeError("NonMaxSuppression: boxes must be (B, N, 4) and scores (B, C, N)");
  int64_t batches = bs[0], boxes = bs[1], classes = ss[1];
  auto bv = n.floats(0), sv = n.floats(1);
  int64_t max_out = n.has(2) ? n.ints(2).at(0) : 0;
  double iou_t = n.has(3) ? n.floats(3).at(0) : 0.0;
  bool has_score_t = n.has(4);
  double score_t = has_score_t ? n.floats(4).at(0) : 0.0;
  bool center = n.attr_int("center_point_box", 0) != 0;
  std::vector<int64_t> out;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t c = 0; c < classes; ++c) {
      const double* score = sv.data() + (b * classes + c) * boxes;
      std::vector<int64_t> order(static_cast<size_t>(boxes), 0);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) { return score[i] > score[j]; });
      std::vector<Box> kept;
      for (int64_t i : order) {
        if (int64_t(kept.size()) >= max_out) break;
        if (has_score_t && !(score[i] > score_t)) break;
        Box box = corners(bv.data() + (b * boxes + i) * 4, center);
        if (std::any_of(kept.begin(), kept.end(), [&](const Box& k) { return iou(k, box) > iou_t; })) continue;
        kept.push_back(box);
        out.insert(out.end(), {b, c, i});
      }
    }
  return Tensor::from_vector(out, {int64_t(out.size() / 3), 3}, dtypes::int64).to(n.device());
}

}  // namespace

void add_nms_ops(OpTable& t) {
  t["NonMaxSuppression"] = [](const Node& n) { return std::vector<Tensor>{nms(n)}; };
}

}  // namespace onegrad::onnx
