// interpolate (docs/tensor.md, "Neural-net ops"): each spatial axis is resampled on its own (all the
// modes here are separable) by a matrix (out, in) built from arange: a one-hot row per output for
// nearest, two weights per row for linear. The source coordinates follow PyTorch 1.13's CPU
// kernels, computed in the same precision (float32, float64 for float64 input), so nearest picks
// the same elements at exact boundaries:
//   nearest: src = min(floor(dst * scale), in - 1), scale = 1/scale_factor or in/out (float32);
//            out == in copies, out == 2*in takes dst >> 1.
//   linear:  src = scale * dst (align_corners) or max(scale * (dst + 0.5) - 0.5, 0), with scale
//            (in-1)/(out-1) (align_corners) or as nearest; i0 = trunc(src), i1 = min(i0 + 1, in - 1),
//            weights 1 - (src - i0) and src - i0.
#include <cmath>

#include "tensor/nn_args.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

const std::string kOp = "interpolate";

// The rank each mode needs (0: nearest takes 3-D to 5-D).
int64_t mode_rank(const std::string& mode) {
  if (mode == "nearest") return 0;
  if (mode == "linear") return 3;
  if (mode == "bilinear") return 4;
  if (mode == "trilinear") return 5;
  throw ShapeError(kOp + ": mode '" + mode + "' is not supported (nearest, linear, bilinear, trilinear)");
}

// x's axis `axis` (size in) resampled to `out` by the source index of each output.
Tensor gather_axis(const Tensor& x, int64_t axis, const Tensor& src_idx, int64_t in) {
  int64_t out = src_idx.shape()[0];
  Tensor i = Tensor::arange(0, in, 1, dtypes::int32, x.device()).reshape({1, in});
  Tensor mask = src_idx.reshape({out, 1}).eq(i);  // (out, in), one true per row
  Tensor zero = Tensor::zeros({}, x.dtype(), x.device());
  Tensor r = mask.where(move_axis_last(x, axis).unsqueeze(-2), zero).sum({-1}).cast(x.dtype());
  return move_last_to(r, axis);
}

Tensor nearest_axis(const Tensor& x, int64_t axis, int64_t out, std::optional<double> scale_factor) {
  int64_t in = x.shape()[axis];
  if (out == in) return x;
  const std::string& dev = x.device();
  Tensor dst = Tensor::arange(0, out, 1, dtypes::int32, dev);
  Tensor src;
  if (out == 2 * in) {
    src = dst.rshift(Tensor::scalar(ConstValue::from_int(1), dtypes::int32, dev));
  } else {
    float scale = scale_factor && *scale_factor > 0 ? float(1.0 / *scale_factor) : float(in) / float(out);
    src = dst.cast(dtypes::float32).mul(ConstValue::from_float(scale)).floor().cast(dtypes::int32);
    src = src.minimum(Tensor::scalar(ConstValue::from_int(in - 1), dtypes::int32, dev));
  }
  return gather_axis(x, axis, src, in);
}

Tensor linear_axis(const Tensor& x, int64_t axis, int64_t out, std::optional<double> scale_factor, bool align) {
  int64_t in = x.shape()[axis];
  const std::string& dev = x.device();
  DType math = x.dtype() == dtypes::float64 ? dtypes::float64 : dtypes::float32;
  double scale;
  if (align) scale = out > 1 ? double(in - 1) / double(out - 1) : 0.0;
  else scale = scale_factor && *scale_factor > 0 ? 1.0 / *scale_factor : double(in) / double(out);
  if (math == dtypes::float32) scale = double(float(scale));
  Tensor dst = Tensor::arange(0, out, 1, dtypes::int32, dev).cast(math);
  Tensor src = align ? dst.mul(ConstValue::from_float(scale))
                     : dst.add(ConstValue::from_float(0.5)).mul(ConstValue::from_float(scale)).sub(ConstValue::from_float(0.5));
  if (!align) src = src.maximum(Tensor::zeros({}, math, dev));
  Tensor i0 = src.cast(dtypes::int32);  // src >= 0: the cast truncates
  Tensor l1 = src.sub(i0.cast(math)).clamp(Tensor::zeros({}, math, dev), Tensor::ones({}, math, dev));
  Tensor l0 = l1.rsub(ConstValue::from_float(1.0));
  Tensor i1 = i0.add(ConstValue::from_int(1)).minimum(Tensor::scalar(ConstValue::from_int(in - 1), dtypes::int32, dev));
  Tensor i = Tensor::arange(0, in, 1, dtypes::int32, dev).reshape({1, in});
  Tensor zero = Tensor::zeros({}, math, dev);
  Tensor w = i0.reshape({out, 1}).eq(i).where(l0.reshape({out, 1}), zero)
                 .add(i1.reshape({out, 1}).eq(i).where(l1.reshape({out, 1}), zero))
                 .cast(x.dtype());  // (out, in)
  Tensor r = move_axis_last(x, axis).unsqueeze(-2).mul(w).sum({-1});
  return move_last_to(r, axis);
}

}  // namespace

Tensor Tensor::interpolate(std::vector<int64_t> size, std::vector<double> scale_factor, const std::string& mode,
                           std::optional<bool> align_corners) const {
  int64_t rank = mode_rank(mode);
  Dims s = shape();
  int64_t r = int64_t(s.size());
  if (rank == 0 && (r < 3 || r > 5))
    throw ShapeError(kOp + ": mode 'nearest' needs a 3-D, 4-D or 5-D input (N, C, spatial...), got shape " +
                     shape_text(s));
  if (rank != 0 && r != rank)
    throw ShapeError(kOp + ": mode '" + mode + "' needs a " + std::to_string(rank) + "-D input, got shape " +
                     shape_text(s));
  if (rank == 0 && align_corners)
    throw ShapeError(kOp + ": align_corners can only be set with the interpolating modes linear, bilinear and trilinear");
  if (rank != 0) check_float(kOp, "input", *this);
  if (size.empty() == scale_factor.empty())
    throw ShapeError(kOp + ": give exactly one of size and scale_factor");
  size_t nd = size_t(r - 2);
  Dims in(s.begin() + 2, s.end()), out;
  std::vector<std::optional<double>> scales(nd);
  if (!size.empty()) {
    if (size.size() != 1 && size.size() != nd)
      throw ShapeError(kOp + ": size " + shape_text(size) + " must be one int or " + std::to_string(nd) +
                       " ints for input " + shape_text(s));
    out = spatial_arg(kOp, "size", size, nd);
  } else {
    if (scale_factor.size() != 1 && scale_factor.size() != nd)
      throw ShapeError(kOp + ": scale_factor must be one number or " + std::to_string(nd) + " numbers for input " +
                       shape_text(s));
    for (size_t j = 0; j < nd; j++) {
      double f = scale_factor.size() == 1 ? scale_factor[0] : scale_factor[j];
      if (!(f > 0)) throw ShapeError(kOp + ": scale_factor must be > 0, got " + std::to_string(f));
      scales[j] = f;
      out.push_back(int64_t(std::floor(double(in[j]) * f)));
    }
  }
  for (size_t j = 0; j < nd; j++)
    if (in[j] <= 0 || out[j] <= 0)
      throw ShapeError(kOp + ": input and output sizes must be greater than 0, got input " + shape_text(in) +
                       " and output " + shape_text(out));
  Tensor x = *this;
  for (size_t j = 0; j < nd; j++) {
    int64_t axis = int64_t(2 + j);
    x = rank == 0 ? nearest_axis(x, axis, out[j], scales[j])
                  : linear_axis(x, axis, out[j], scales[j], align_corners.value_or(false));
  }
  return x;
}

}  // namespace onegrad
