#include "tensor/torch_api.h"

#include <cmath>
#include <string>

#include "tensor/device_name.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

std::string shape_x(const Dims& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); i++) out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

// ShapeError unless both operands have `rank` dims, naming the one that does not (torch's words).
void require_rank(const char* op, const Tensor& a, const Tensor& b, int64_t rank, const char* name_a,
                  const char* name_b) {
  const char* what = rank == 2 ? "a matrix" : "a 3D tensor";
  for (auto [t, name] : {std::pair{&a, name_a}, std::pair{&b, name_b}})
    if (t->ndim() != rank)
      throw ShapeError(std::string(op) + ": " + name + " must be " + what + ", got shape " + shape_text(t->shape()));
}

}  // namespace

Tensor mm(const Tensor& a, const Tensor& b) {
  require_rank("mm", a, b, 2, "self", "mat2");
  if (a.shape()[1] != b.shape()[0])
    throw ShapeError("mm: mat1 and mat2 shapes cannot be multiplied (" + shape_x(a.shape()) + " and " +
                     shape_x(b.shape()) + ")");
  return a.matmul(b);
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  require_rank("bmm", a, b, 3, "batch1", "batch2");
  Dims want{a.shape()[0], a.shape()[2]}, got{b.shape()[0], b.shape()[1]};
  if (want != got)
    throw ShapeError("bmm: expected size for first two dimensions of batch2 tensor to be: [" + std::to_string(want[0]) +
                     ", " + std::to_string(want[1]) + "] but got: [" + std::to_string(got[0]) + ", " +
                     std::to_string(got[1]) + "]");
  return a.matmul(b);
}

Tensor diag(const Tensor& x, int64_t k) {
  const std::string& dev = x.device();
  if (x.ndim() == 1) {
    int64_t n = x.shape()[0], m = n + (k >= 0 ? k : -k);
    // Column j holds v[j - k] for k >= 0; below the main diagonal, row j - k holds v[j].
    Tensor row = x.pad({k >= 0 ? std::pair<int64_t, int64_t>{k, 0} : std::pair<int64_t, int64_t>{0, -k}})
                     .reshape({1, m})
                     .expand({m, m});
    Tensor i = Tensor::arange(0, m, 1, dtypes::int64, dev);
    Tensor on = i.reshape({1, m}).sub(i.reshape({m, 1})).eq(Tensor::scalar(ConstValue::from_int(k), dtypes::int64, dev));
    return on.where(row, Tensor::zeros({m, m}, x.dtype(), dev));
  }
  if (x.ndim() == 2) {
    int64_t r = x.shape()[0], c = x.shape()[1];
    int64_t len = std::max<int64_t>(0, k >= 0 ? std::min(r, c - k) : std::min(r + k, c));
    if (len == 0) return Tensor::zeros({0}, x.dtype(), dev);
    Tensor sq = k >= 0 ? x.shrink({{0, len}, {k, k + len}}) : x.shrink({{-k, -k + len}, {0, len}});
    // The diagonal of a square L x L block: flattened and padded to L*(L+1), row i starts at i*(L+1).
    return sq.reshape({len * len}).pad({{0, len}}).reshape({len, len + 1}).shrink({{0, len}, {0, 1}}).reshape({len});
  }
  throw ShapeError("diag: expected a 1-D or 2-D tensor, got shape " + shape_text(x.shape()));
}

Tensor norm(const Tensor& x, double p, const std::vector<int64_t>& axes, bool keepdim) {
  if (!x.dtype().is_float()) throw DTypeError("norm: input dtype should be floating point, got " + x.dtype().name());
  if (p == 2) return x.mul(x).sum(axes, keepdim).sqrt();
  Tensor a = x.abs();
  if (std::isinf(p)) return p > 0 ? a.max(axes, keepdim) : a.min(axes, keepdim);
  if (p == 0) return a.ne(Tensor::scalar(ConstValue::from_int(0), x.dtype(), x.device())).cast(x.dtype()).sum(axes, keepdim);
  if (p == 1) return a.sum(axes, keepdim);
  auto c = [&](double v) { return Tensor::scalar(ConstValue::from_float(v), x.dtype(), x.device()); };
  return a.pow(c(p)).sum(axes, keepdim).pow(c(1.0 / p));
}

// ---- Tensor's PyTorch names (tensor.h): each is a core op under torch's name and checks.

int64_t Tensor::size(int64_t dim) const {
  int64_t nd = ndim();
  if (nd == 0) throw ShapeError("size: dimension " + std::to_string(dim) + " given but the tensor has no dimensions");
  if (dim < -nd || dim >= nd)
    throw ShapeError("size: dimension out of range (expected to be in range of [" + std::to_string(-nd) + ", " +
                     std::to_string(nd - 1) + "], but got " + std::to_string(dim) + ")");
  return shape()[size_t(dim < 0 ? dim + nd : dim)];
}

// spec README decision 7: to(device) is a LOAD onto that device (the engine copies when it
// realizes it, engine/device_copies.h); the tensor itself on its own device.
Tensor Tensor::to(const std::string& dev) const {
  std::string want = canonical_device(dev, "to");
  if (want == device()) return *this;
  return Tensor(UOp::create(Ops::LOAD, dtype(), {uop_}, LoadArg{Device(want), AddrSpace::GLOBAL}), want);
}

Tensor Tensor::to(DType dt) const { return dt == dtype() ? *this : cast(dt); }

// contiguous() of a buffer (or of a view of one, or of detach() of one) realizes to that very
// buffer, which a later write into either would reach; MAX(x, x) is the same values (and gradient:
// the tie splits evenly between two equal arguments) computed into a buffer of its own, as
// setitem's snapshot does.
Tensor Tensor::clone() const { return Tensor(UOp::create(Ops::MAX, dtype(), {uop_, uop_}), device_).contiguous(); }

Tensor Tensor::new_zeros(std::vector<int64_t> shape) const { return zeros(std::move(shape), dtype(), device()); }
Tensor Tensor::new_ones(std::vector<int64_t> shape) const { return ones(std::move(shape), dtype(), device()); }
Tensor Tensor::new_full(std::vector<int64_t> shape, Scalar value) const {
  return full(std::move(shape), value, dtype(), device());
}

std::pair<Tensor, Tensor> Tensor::max_dim(int64_t dim, bool keepdim) const {
  return {max({dim}, keepdim), argmax(dim, keepdim)};
}

std::pair<Tensor, Tensor> Tensor::min_dim(int64_t dim, bool keepdim) const {
  return {min({dim}, keepdim), argmin(dim, keepdim)};
}

}  // namespace onegrad
