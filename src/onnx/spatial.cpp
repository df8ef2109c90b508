#include "onnx/spatial.h"

#include "uop/unsupported_error.h"

namespace onegrad::onnx {

Spatial window_spatial(const Node& n, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel) {
  size_t nd = kernel.size();
  if (in.size() != nd)
    throw ShapeError(n.op() + ": a " + std::to_string(nd) + "-d kernel for " + std::to_string(in.size()) + " spatial axes");
  Spatial s;
  s.kernel = kernel;
  s.strides = n.attr_ints("strides", std::vector<int64_t>(nd, 1));
  s.dilations = n.attr_ints("dilations", std::vector<int64_t>(nd, 1));
  if (s.strides.size() != nd || s.dilations.size() != nd) throw ShapeError(n.op() + ": strides/dilations need one value per spatial axis");
  for (size_t i = 0; i < nd; ++i)
    if (s.strides[i] <= 0 || s.dilations[i] <= 0 || kernel[i] <= 0) throw ArgumentError(n.op() + ": kernel, strides and dilations must be positive");
  std::string auto_pad = n.attr_string("auto_pad", "NOTSET");
  s.pad_begin.assign(nd, 0);
  s.pad_end.assign(nd, 0);
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (size_t i = 0; i < nd; ++i) {
      int64_t out = (in[i] + s.strides[i] - 1) / s.strides[i];
      int64_t total = std::max<int64_t>(0, (out - 1) * s.strides[i] + (kernel[i] - 1) * s.dilations[i] + 1 - in[i]);
      int64_t small = total / 2;
      s.pad_begin[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      s.pad_end[i] = total - s.pad_begin[i];
    }
  } else if (auto_pad == "NOTSET") {
    auto pads = n.attr_ints("pads", std::vector<int64_t>(2 * nd, 0));
    if (pads.size() != 2 * nd) throw ShapeError(n.op() + ": pads needs 2 values per spatial axis, got " + std::to_string(pads.size()));
    for (size_t i = 0; i < nd; ++i) {
      s.pad_begin[i] = pads[i];
      s.pad_end[i] = pads[i + nd];
    }
  } else if (auto_pad != "VALID") {
    throw ArgumentError(n.op() + ": auto_pad '" + auto_pad + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  }
  return s;
}

std::vector<std::pair<int64_t, int64_t>> spatial_padding(size_t rank, const std::vector<int64_t>& begin,
                                                         const std::vector<int64_t>& end) {
  std::vector<std::pair<int64_t, int64_t>> p(rank, {0, 0});
  size_t nd = begin.size();
  for (size_t i = 0; i < nd; ++i) p[rank - nd + i] = {begin[i], end[i]};
  return p;
}

}  // namespace onegrad::onnx
