// spec: Common Ops as Compositions. Each function follows the spec's listing line by line; the
// comments quote it.
#include "tensor/spec_compositions.h"

#include <mutex>
#include <unordered_map>

#include "tensor/broadcast.h"
#include "tensor/index_dtype.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::spec {

namespace {

void require_rank(const std::string& op, const std::string& what, const Tensor& t, size_t rank) {
  if (t.shape().size() != rank)
    throw ShapeError(op + ": " + what + " must be " + std::to_string(rank) + "-D, got shape " + shape_text(t.shape()));
}

// (begin, end) pairs keeping every axis of `s` whole.
std::vector<std::pair<int64_t, int64_t>> whole(const Dims& s) {
  std::vector<std::pair<int64_t, int64_t>> b;
  for (int64_t d : s) b.push_back({0, d});
  return b;
}

}  // namespace

Tensor gemm(const Tensor& A, const Tensor& B) {
  Dims a = A.shape(), b = B.shape();
  if (a.size() != 2 || b.size() != 2)
    throw ShapeError("gemm: expects 2-D tensors, got " + shape_text(a) + " and " + shape_text(b));
  if (a[1] != b[0])
    throw ShapeError("matmul: cannot multiply " + shape_text(a) + " by " + shape_text(b) + ": inner dims " +
                     std::to_string(a[1]) + " and " + std::to_string(b[0]) + " differ");
  check_same_device("matmul", {A, B});
  int64_t M = a[0], K = a[1], N = b[1];
  DType dt = promote_types(A.dtype(), B.dtype());
  // (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1)
  Tensor prod = A.cast(dt).reshape({M, K, 1}).mul(B.cast(dt).reshape({1, K, N}));
  return prod.sum({1}).cast(dt);
}

Tensor prefix_sum(const Tensor& T) {
  Dims s = T.shape();
  if (s.empty()) throw ShapeError("prefix_sum: expects at least 1 dimension, got shape ()");
  int64_t n = s.back();
  if (n == 0) return T;
  size_t last = s.size() - 1;
  Dims lead(s.begin(), s.end() - 1);
  auto with = [&](Dims tail) {
    Dims d = lead;
    d.insert(d.end(), tail.begin(), tail.end());
    return d;
  };
  std::vector<std::pair<int64_t, int64_t>> front(s.size(), {0, 0});
  front[last] = {n - 1, 0};
  Tensor x = T.pad(front);                                            // x = T.pad((n-1, 0))  (2n-1,)
  x = x.reshape(with({1, 2 * n - 1})).expand(with({n + 1, 2 * n - 1}));  // tile
  auto trim = whole(with({(n + 1) * (2 * n - 1)}));
  trim.back() = {0, 2 * n * n};
  x = x.reshape(with({(n + 1) * (2 * n - 1)})).shrink(trim);  // trim
  auto windows = whole(with({n, 2 * n}));
  windows.back() = {0, n};
  x = x.reshape(with({n, 2 * n})).shrink(windows);  // windows (n, n)
  // x.sum(-1), in T's dtype: a REDUCE ADD over the last axis, which the reshape drops.
  Tensor r(UOp::create(Ops::REDUCE, {x.uop()}, ReduceArg{Ops::ADD, {int64_t(s.size())}}), x.device());
  return r.reshape(s);
}

Tensor arange(int64_t n, const std::string& device) {
  if (n < 0) throw ShapeError("arange: negative length " + std::to_string(n));
  // The count fits int32 for any n below 2^31; int64 past that.
  DType dt = index_dtype(n);
  if (n == 0) return Tensor::zeros({0}, dt, device);
  // The graph depends on n alone (the device is the Tensor's, not the nodes'). Every gather, one-hot
  // and scatter builds one; kept alive here, its nodes are not freed and rebuilt with their shapes
  // on each call (about 40% of building an index_select). Bounded: emptied when full.
  static std::mutex mu;
  static std::unordered_map<int64_t, UOpRef> built;
  constexpr size_t kMaxKept = 256;
  {
    std::lock_guard lock(mu);
    if (auto it = built.find(n); it != built.end()) return Tensor(it->second, device);
  }
  Tensor r = prefix_sum(Tensor::ones({n}, dt, device)).sub(ConstValue::from_int(1));  // prefix_sum(1s) - 1
  std::lock_guard lock(mu);
  if (built.size() >= kMaxKept) built.clear();
  built.try_emplace(n, r.uop());
  return r;
}

Tensor masked_values(const Tensor& T, const Tensor& mask, ConstValue fill) {
  if (T.dtype().is_float()) return mask.where(T, Tensor::scalar(fill, T.dtype(), T.device()));
  if (fill.truthy()) return mask.where(T, Tensor::scalar(fill, T.dtype(), T.device()));
  return T.mul(mask.cast(T.dtype()));
}

std::pair<Tensor, Tensor> index_positions(const std::string& op, int64_t K, const Tensor& idx) {
  DType it = idx.dtype();
  if (!it.is_int()) throw DTypeError(op + ": index must be an integer tensor, got " + it.name());
  bool narrow = it.itemsize() < 4 || it == dtypes::int32;
  DType dt = narrow ? index_dtype(K) : dtypes::int64;
  return {arange(K, idx.device()).cast(dt), idx.cast(dt)};
}

Tensor gather(const Tensor& T, const Tensor& idx) {
  require_rank("gather", "T", T, 1);
  require_rank("gather", "idx", idx, 1);
  check_same_device("gather", {T, idx});
  int64_t K = T.shape()[0];
  auto [pos, index] = index_positions("gather", K, idx);
  Tensor mask = pos.reshape({K, 1}).eq(index.reshape({1, -1}));  // (K, D)
  return masked_values(T.reshape({K, 1}), mask).sum({0}).cast(T.dtype());  // (T.reshape(K,1) * mask).sum(0)
}

Tensor scatter_add(const Tensor& T, const Tensor& idx, const Tensor& val) {
  require_rank("scatter_add", "T", T, 1);
  require_rank("scatter_add", "idx", idx, 1);
  require_rank("scatter_add", "val", val, 1);
  check_same_device("scatter_add", {T, idx, val});
  int64_t K = T.shape()[0], D = idx.shape()[0];
  if (val.shape()[0] != D)
    throw ShapeError("scatter_add: val " + shape_text(val.shape()) + " must have the shape of idx " +
                     shape_text(idx.shape()));
  if (val.dtype() != T.dtype())
    throw DTypeError("scatter_add: val has dtype " + val.dtype().name() + " but T has " + T.dtype().name());
  auto [pos, index] = index_positions("scatter_add", K, idx);
  Tensor mask = pos.reshape({K, 1}).eq(index.reshape({1, D}));  // (K, D)
  // T + (mask * val.reshape(1, D)).sum(1)
  return T.add(masked_values(val.reshape({1, D}), mask).sum({1})).cast(T.dtype());
}

}  // namespace onegrad::spec
