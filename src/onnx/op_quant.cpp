// Quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul, QLinearConv. Integer products are computed in float64, exact for
// 8-bit operands and any sum that fits 2^53, then cast.
#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

// A scale or zero point, per tensor (a scalar) or per slice along `axis` (1-D), shaped to broadcast.
Tensor along_axis(const Tensor& v, int64_t axis, int64_t rank) {
  if (v.ndim() == 0 || v.numel() == 1) return v.reshape({});
  std::vector<int64_t> shape(size_t(rank), 1);
  shape[size_t(axis)] = v.numel();
  return v.reshape(shape);
}

// round half to even, then clamp into `dt` (uint8 or int8) and cast
Tensor saturate(const Tensor& v, DType dt) {
  Tensor lo = Tensor::scalar(ConstValue::from_float(double(dt.int_min())), v.dtype());
  Tensor hi = Tensor::scalar(ConstValue::from_float(double(dt.int_max())), v.dtype());
  return v.round().clamp(lo, hi).cast(dt);
}

Tensor quantize(const Tensor& x, const Tensor& scale, const std::optional<Tensor>& zp, int64_t axis) {
  int64_t r = x.ndim();
  DType dt = zp ? zp->dtype() : dtypes::uint8;
  Tensor v = x.cast(dtypes::float32).div(along_axis(scale, axis, r).cast(dtypes::float32)).round();
  if (zp) v = v.add(along_axis(*zp, axis, r).cast(dtypes::float32));
  return saturate(v, dt);
}

Tensor dequantize(const Tensor& x, const Tensor& scale, const std::optional<Tensor>& zp, int64_t axis) {
  int64_t r = x.ndim();
  Tensor v = x.cast(dtypes::float32);
  if (zp) v = v.sub(along_axis(*zp, axis, r).cast(dtypes::float32));
  return v.mul(along_axis(scale, axis, r).cast(dtypes::float32));
}

Outs dynamic_quantize(const Node& n) {
  const Tensor& x = n.in(0);
  Tensor zero = Tensor::scalar(ConstValue::from_float(0), x.dtype());
  Tensor mx = x.max().maximum(zero), mn = x.min().minimum(zero);
  Tensor scale = mx.sub(mn).div(ConstValue::from_float(255));
  Tensor zp = saturate(mn.div(scale).neg(), dtypes::uint8);
  Tensor y = saturate(x.div(scale).round().add(zp.cast(x.dtype())), dtypes::uint8);
  return {y, scale, zp};
}

// (a - a_zero) as float64; a zero point per row of a or per column of b when 1-D
Tensor centered(const Tensor& t, const std::optional<Tensor>& zp, bool per_row) {
  Tensor v = t.cast(dtypes::float64);
  if (!zp) return v;
  Tensor z = zp->cast(dtypes::float64);
  if (z.numel() > 1 && per_row) z = z.reshape({z.numel(), 1});
  return v.sub(z);
}

Tensor conv_of(const Node& n, const Tensor& x, const Tensor& w) {
  // Conv's attributes on float64 copies, through the same path as Conv
  auto kernel = n.attr_ints("kernel_shape");
  auto s = w.shape();
  if (kernel.empty()) kernel.assign(s.begin() + 2, s.end());
  size_t nd = kernel.size();
  auto strides = n.attr_ints("strides", std::vector<int64_t>(nd, 1));
  auto dil = n.attr_ints("dilations", std::vector<int64_t>(nd, 1));
  auto pads = n.attr_ints("pads", std::vector<int64_t>(2 * nd, 0));
  if (n.attr_string("auto_pad", "NOTSET") != "NOTSET") n.unsupported("auto_pad on a quantized conv");
  std::vector<std::pair<int64_t, int64_t>> p(size_t(x.ndim()), {0, 0});
  for (size_t i = 0; i < nd; ++i) p[2 + i] = {pads[i], pads[i + nd]};
  return x.pad(p).conv(w, std::nullopt, strides, std::vector<int64_t>{0}, dil, n.attr_int("group", 1));
}

}  // namespace

void add_quant_ops(OpTable& t) {
  t["QuantizeLinear"] = [](const Node& n) {
    int64_t axis = n.in(1).numel() > 1 ? n.axis(n.attr_int("axis", 1), n.in(0).ndim()) : 0;  // per axis only with a 1-D scale
    return Outs{quantize(n.in(0), n.in(1), n.opt(2), axis)};
  };
  t["DequantizeLinear"] = [](const Node& n) {
    int64_t axis = n.in(1).numel() > 1 ? n.axis(n.attr_int("axis", 1), n.in(0).ndim()) : 0;
    return Outs{dequantize(n.in(0), n.in(1), n.opt(2), axis)};
  };
  t["DynamicQuantizeLinear"] = dynamic_quantize;
  t["MatMulInteger"] = [](const Node& n) {
    return Outs{centered(n.in(0), n.opt(2), true).matmul(centered(n.in(1), n.opt(3), false)).cast(dtypes::int32)};
  };
  t["ConvInteger"] = [](const Node& n) {
    Tensor x = centered(n.in(0), n.opt(2), false);
    Tensor w = n.in(1).cast(dtypes::float64);
    if (n.has(3)) w = w.sub(along_axis(n.in(3).cast(dtypes::float64), 0, w.ndim()));
    return Outs{conv_of(n, x, w).cast(dtypes::int32)};
  };
  t["QLinearMatMul"] = [](const Node& n) {
    Tensor a = centered(n.in(0), n.in(2), true).mul(n.in(1).cast(dtypes::float64).reshape(n.in(1).numel() > 1 ? std::vector<int64_t>{-1, 1} : std::vector<int64_t>{}));
    Tensor b = centered(n.in(3), n.in(5), false).mul(n.in(4).cast(dtypes::float64));
    Tensor y = a.matmul(b).div(n.in(6).cast(dtypes::float64)).round().add(n.in(7).cast(dtypes::float64));
    return Outs{saturate(y, n.in(7).dtype())};
  };
  t["QLinearConv"] = [](const Node& n) {
    Tensor x = centered(n.in(0), n.in(2), false).mul(n.in(1).cast(dtypes::float64));
    Tensor w = n.in(3).cast(dtypes::float64);
    w = w.sub(along_axis(n.in(5).cast(dtypes::float64), 0, w.ndim())).mul(along_axis(n.in(4).cast(dtypes::float64), 0, w.ndim()));
    Tensor y = conv_of(n, x, w);
    if (n.has(8)) {
      std::vector<int64_t> shape(size_t(y.ndim()), 1);
      shape[1] = n.in(8).numel();
      // the int32 bias is quantized with scale x_scale * w_scale and zero point 0
      Tensor ws = n.in(4).cast(dtypes::float64);
      ws = ws.numel() > 1 ? ws.reshape({ws.numel()}) : ws.reshape({});
      y = y.add(n.in(8).cast(dtypes::float64).mul(n.in(1).cast(dtypes::float64).reshape({})).mul(ws).reshape(shape));
    }
    y = y.div(n.in(6).cast(dtypes::float64)).round().add(n.in(7).cast(dtypes::float64));
    return Outs{saturate(y, n.in(7).dtype())};
  };
}

}  // namespace onegrad::onnx
