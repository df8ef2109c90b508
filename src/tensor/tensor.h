// The lazy Tensor: a handle on a UOp of the tensor graph. Every method builds graph (nothing runs)
// until realize() or a copy out; names follow tinygrad/PyTorch. The graph it builds is the "tensor
// graph form" of docs/tensor.md: explicit EXPANDs for broadcasting, explicit CASTs for promotion,
// host data as BUFFER nodes, contiguous() as a LOAD.
//
// Bad input (shape mismatch, bad axis, wrong dtype, unknown device) throws ShapeError, DTypeError or
// DeviceError whose message names the op and the shapes involved.
#pragma once
#include <concepts>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "tensor/device_name.h"
#include "uop/uop.h"

namespace onegrad {

class Tensor;
struct GradSlot;  // autograd: requires_grad and .grad, shared by the copies of a Tensor (autograd.cpp)

// One item of an index: t[1], t[1:3], t[::-1], t[None], t[...] (basic indexing), and t[idx] with an
// integer or bool Tensor (advanced indexing, numpy/PyTorch semantics: docs/tensor.md "getitem").
struct Slice {
  std::optional<int64_t> start, stop;
  int64_t step = 1;
};
struct NewAxis {};
struct Ellipsis {};
using IndexItem = std::variant<int64_t, Slice, NewAxis, Ellipsis, Tensor>;

// A Python-like scalar for binary ops with a number: it adopts the tensor's dtype when it fits the
// dtype's category (int with int tensors, any number with float tensors), else the default type of
// its own kind (float32 for a float with an int tensor). bool scalars stay bool.
using Scalar = ConstValue;

class Tensor {
 public:
  // indexing: every Tensor object is listed while it lives (live_tensors.cpp), so that setitem can
  // point the lazy values that read a buffer at a snapshot of it before it writes the buffer.
  Tensor() { enroll(); }
  Tensor(const Tensor& o) : uop_(o.uop_), device_(o.device_), slot_(o.slot_) { enroll(); }
  Tensor(Tensor&& o) noexcept : uop_(std::move(o.uop_)), device_(std::move(o.device_)), slot_(std::move(o.slot_)) {
    enroll();
  }
  Tensor& operator=(const Tensor&) = default;
  Tensor& operator=(Tensor&&) noexcept = default;
  ~Tensor() { withdraw(); }
  // ---- end indexing
  // Wraps a tensor-graph node; the device is the node's (a constant graph, which has none, is default_device()).
  explicit Tensor(UOpRef u);
  // Wraps a node on a named device (canonical name): constants carry no device in the graph, so
  // the Tensor remembers it.
  Tensor(UOpRef u, std::string device);

  // ---- creation
  static Tensor empty(std::vector<int64_t> shape, DType dtype = dtypes::float32, const std::string& device = default_device());
  static Tensor zeros(std::vector<int64_t> shape, DType dtype = dtypes::float32, const std::string& device = default_device());
  static Tensor ones(std::vector<int64_t> shape, DType dtype = dtypes::float32, const std::string& device = default_device());
  static Tensor full(std::vector<int64_t> shape, Scalar value, DType dtype, const std::string& device = default_device());
  // [start, stop) by step; the dtype defaults to int32 (all ints) like tinygrad's dtypes.default_int.
  static Tensor arange(int64_t start, int64_t stop, int64_t step = 1, DType dtype = dtypes::int32,
                       const std::string& device = default_device());
  static Tensor arange(int64_t stop) { return arange(0, stop); }
  // Copies nbytes of host data (row-major, `dtype` elements) into a new buffer. nbytes must equal
  // numel(shape) * itemsize.
  static Tensor from_data(const void* data, size_t nbytes, std::vector<int64_t> shape, DType dtype,
                          const std::string& device = default_device());
  template <class T>
  static Tensor from_vector(const std::vector<T>& v, std::vector<int64_t> shape, DType dtype) {
    return from_data(v.data(), v.size() * sizeof(T), std::move(shape), dtype);
  }
  static Tensor scalar(Scalar v, DType dtype, const std::string& device = default_device());  // shape ()

  // ---- what it is
  const UOpRef& uop() const { return uop_; }
  std::vector<int64_t> shape() const;  // static dims (symbolic shapes come with a later issue)
  int64_t ndim() const;
  int64_t numel() const;
  DType dtype() const;
  std::string device() const;
  // ---- PyTorch's names (src/tensor/torch_api.cpp; docs/tensor.md "PyTorch names")
  std::vector<int64_t> size() const { return shape(); }
  int64_t size(int64_t dim) const;  // negative counts from the end; ShapeError out of range
  int64_t dim() const { return ndim(); }
  Tensor to(const std::string& device) const;  // this on the same device; else a LOAD onto `device` (a copy)
  Tensor to(DType dtype) const;                // this when the dtype is the same, else cast(dtype)
  Tensor cpu() const { return to(std::string("CPU")); }
  Tensor clone() const;  // a copy of the values: later writes into either do not show in the other
  Tensor expand_as(const Tensor& other) const { return expand(other.shape()); }
  Tensor type_as(const Tensor& other) const { return to(other.dtype()); }
  Tensor new_zeros(std::vector<int64_t> shape) const;  // this dtype and device
  Tensor new_ones(std::vector<int64_t> shape) const;
  Tensor new_full(std::vector<int64_t> shape, Scalar value) const;
  Tensor amax(std::vector<int64_t> axes = {}, bool keepdim = false) const { return max(std::move(axes), keepdim); }
  Tensor amin(std::vector<int64_t> axes = {}, bool keepdim = false) const { return min(std::move(axes), keepdim); }
  // x.max(1) is torch's max over one dim: (values, int64 indices of the first extreme). A template so
  // that a braced list, x.max({1}), still picks the reduction over the listed axes below.
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  std::pair<Tensor, Tensor> max(I dim, bool keepdim = false) const { return max_dim(int64_t(dim), keepdim); }
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  std::pair<Tensor, Tensor> min(I dim, bool keepdim = false) const { return min_dim(int64_t(dim), keepdim); }
  std::pair<Tensor, Tensor> max_dim(int64_t dim, bool keepdim = false) const;
  std::pair<Tensor, Tensor> min_dim(int64_t dim, bool keepdim = false) const;
  // ---- end PyTorch's names

  // ---- movement (no data moves; ShapeError names the op and shapes)
  Tensor reshape(std::vector<int64_t> shape) const;  // one -1 is inferred
  Tensor permute(std::vector<int64_t> order) const;  // negative axes allowed
  Tensor transpose(int64_t a = -2, int64_t b = -1) const;
  Tensor T() const;  // all axes reversed (numpy, PyTorch 1.13); mT swaps the last two
  Tensor expand(std::vector<int64_t> shape) const;  // -1 keeps a dim; new leading dims allowed
  Tensor pad(std::vector<std::pair<int64_t, int64_t>> padding, Scalar value = ConstValue::from_int(0)) const;
  Tensor shrink(std::vector<std::pair<int64_t, int64_t>> bounds) const;  // [begin, end) per axis
  Tensor flip(std::vector<int64_t> axes) const;
  // ---- symbolic dims (src/tensor/symbolic_dims.cpp): dims as index UOps, e.g. a bound variable
  Tensor reshape_symbolic(const Shape& dims) const;  // same element count (with the bound values)
  Tensor expand_symbolic(const Shape& dims) const;   // dims of 1 become dims; others must be the same node
  // (before, after) and [begin, end) per axis as index expressions (x[:n], pad to m - n)
  Tensor pad_symbolic(const std::vector<std::pair<UOpRef, UOpRef>>& padding, Scalar value = ConstValue::from_int(0)) const;
  Tensor shrink_symbolic(const std::vector<std::pair<UOpRef, UOpRef>>& bounds) const;
  static Tensor full_symbolic(const Shape& dims, Scalar value, DType dtype, const std::string& device = "CPU");
  static Tensor arange_symbolic(const UOpRef& n, DType dtype = dtypes::int32, const std::string& device = "CPU");
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze(std::optional<int64_t> dim = std::nullopt) const;
  Tensor flatten(int64_t start = 0, int64_t end = -1) const;
  Tensor getitem(const std::vector<IndexItem>& index) const;
  // ---- indexing: setitem (src/tensor/setitem.cpp; docs/tensor.md "setitem")
  // t[index] = value, written into t's buffer (STORE, then AFTER): value is cast to t's dtype and
  // broadcast to the indexed shape. t is realized first when it is not a view of a buffer.
  void setitem(const std::vector<IndexItem>& index, const Tensor& value);
  void setitem(const std::vector<IndexItem>& index, Scalar value);
  // ---- assign: the whole tensor written in place (setitem over everything): a value of the same
  // shape (ShapeError otherwise), cast to this dtype. Views of the buffer see it; lazy values built
  // before keep the old values. Optimizers and load_state_dict update parameters this way.
  Tensor& assign(const Tensor& value);
  // ---- end indexing: setitem
  // ---- in-place ops (src/tensor/inplace.cpp, tensor/setitem.cpp, tensor/write_history.cpp;
  // docs/tensor.md "In-place ops"): PyTorch's x.add_(y) and friends. The result is written into this
  // tensor's buffer (views and copies see it) and this is returned. The result's shape must be this
  // shape (only the right side broadcasts) and its dtype must cast to this dtype by PyTorch's rule
  // (no float into an int tensor, no number into a bool one); fill_/copy_ cast whatever they get.
  // A leaf that requires grad, or a view of one, refuses in-place writes while gradients are on.
  Tensor& inplace_(const std::string& op, const Tensor& result, bool cast = false);
  Tensor& add_(const Tensor& o);
  Tensor& sub_(const Tensor& o);
  Tensor& mul_(const Tensor& o);
  Tensor& div_(const Tensor& o);
  Tensor& add_(Scalar s);
  Tensor& sub_(Scalar s);
  Tensor& mul_(Scalar s);
  Tensor& div_(Scalar s);
  Tensor& zero_();
  Tensor& fill_(Scalar v);
  Tensor& copy_(const Tensor& src);  // src broadcast to this shape, cast to this dtype
  Tensor& clamp_(const std::optional<Tensor>& min, const std::optional<Tensor>& max);
  // PyTorch's .data: this tensor's buffer (realized first) with no gradient history; writes through
  // it are not seen by autograd. set_data points this tensor at other's buffer (any shape and
  // dtype), keeping its requires_grad and .grad. detach_() makes this tensor stop requiring grad.
  Tensor data() const;
  void set_data(const Tensor& other);
  Tensor& detach_();
  // ---- end in-place ops
  static Tensor stack(const std::vector<Tensor>& ts, int64_t dim = 0);
  static Tensor cat(const std::vector<Tensor>& ts, int64_t dim = 0);
  // ---- shape ops (src/tensor/shape_ops.cpp, pad_modes.cpp; docs/tensor.md "Shape ops")
  Tensor mT() const;  // the last two axes swapped; ShapeError under 2 dims
  Tensor swapaxes(int64_t a, int64_t b) const { return transpose(a, b); }
  Tensor squeeze(const std::vector<int64_t>& dims) const;  // each listed axis of size 1 goes
  Tensor unflatten(int64_t dim, std::vector<int64_t> sizes) const;  // one size may be -1
  Tensor movedim(std::vector<int64_t> source, std::vector<int64_t> destination) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;  // the last piece may be shorter
  std::vector<Tensor> split_with_sizes(const std::vector<int64_t>& sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;  // pieces of ceil(n / chunks)
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor repeat(std::vector<int64_t> repeats) const;  // PyTorch's: at least one count per axis
  Tensor tile(std::vector<int64_t> reps) const;       // fewer reps than axes: leading 1s
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt) const;
  Tensor roll(std::vector<int64_t> shifts, std::vector<int64_t> dims = {}) const;  // no dims: flattened
  // torch.nn.functional.pad's modes; pairs from the first axis as in pad(); negative amounts crop.
  enum class PadMode { constant, reflect, replicate, circular };
  Tensor pad(std::vector<std::pair<int64_t, int64_t>> padding, PadMode mode,
             Scalar value = ConstValue::from_int(0)) const;
  // ---- end shape ops

  // ---- elementwise (broadcasting + promotion)
  Tensor add(const Tensor& o) const;
  Tensor sub(const Tensor& o) const;
  Tensor mul(const Tensor& o) const;
  Tensor div(const Tensor& o) const;        // true division: ints promote to float32
  Tensor idiv(const Tensor& o) const;       // floor division (ints), PyTorch's floor_divide
  Tensor mod(const Tensor& o) const;        // floor modulo, sign of the divisor (Python/PyTorch)
  Tensor maximum(const Tensor& o) const;
  Tensor minimum(const Tensor& o) const;
  Tensor pow(const Tensor& o) const;
  Tensor lt(const Tensor& o) const;
  Tensor le(const Tensor& o) const;
  Tensor gt(const Tensor& o) const;
  Tensor ge(const Tensor& o) const;
  Tensor eq(const Tensor& o) const;
  Tensor ne(const Tensor& o) const;
  Tensor bitwise_and(const Tensor& o) const;  // ints and bool
  Tensor bitwise_or(const Tensor& o) const;
  Tensor bitwise_xor(const Tensor& o) const;
  Tensor lshift(const Tensor& o) const;  // ints
  Tensor rshift(const Tensor& o) const;
  Tensor where(const Tensor& a, const Tensor& b) const;  // this is the condition (cast to bool)
  Tensor add(Scalar s) const;
  Tensor sub(Scalar s) const;
  Tensor rsub(Scalar s) const;  // s - this
  Tensor mul(Scalar s) const;
  Tensor div(Scalar s) const;
  Tensor rdiv(Scalar s) const;  // s / this
  Tensor neg() const;
  Tensor recip() const;
  Tensor trunc() const;
  Tensor logical_not() const;
  Tensor bitwise_not() const;
  Tensor relu() const;
  Tensor exp() const;
  Tensor exp2() const;
  Tensor log() const;
  Tensor log2() const;
  Tensor sqrt() const;
  Tensor sin() const;
  Tensor abs() const;
  // ---- math built on the primitives (src/tensor/math.cpp, activations.cpp; docs/tensor.md)
  Tensor cos() const;
  Tensor tan() const;
  Tensor rsqrt() const;
  Tensor square() const;
  Tensor sign() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor round() const;  // half to even
  Tensor clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const;
  Tensor erf() const;
  Tensor log1p() const;
  Tensor expm1() const;
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isfinite() const;
  Tensor logical_and(const Tensor& o) const;
  Tensor logical_or(const Tensor& o) const;
  Tensor logical_xor(const Tensor& o) const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  Tensor leaky_relu(double negative_slope = 0.01) const;
  Tensor elu(double alpha = 1.0) const;
  Tensor gelu(bool tanh_approximate = false) const;
  Tensor silu() const;
  Tensor softplus(double beta = 1.0, double threshold = 20.0) const;
  Tensor mish() const;
  Tensor hardswish() const;
  Tensor hardsigmoid() const;
  Tensor cast(DType dtype) const;
  Tensor bitcast(DType dtype) const;  // same itemsize: elementwise reinterpretation

  // ---- reductions (axes negative allowed; empty axes = all)
  Tensor sum(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor max(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor min(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor prod(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor mean(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor softmax(int64_t axis = -1) const;
  // numpy/torch matmul: the spec's gemm, batched with broadcasting; 1-D operands as in numpy
  Tensor matmul(const Tensor& o) const;

  // ---- compose: linear algebra, one-hot gather/scatter, constructors
  // (src/tensor/linalg.cpp, einsum.cpp, gather_scatter.cpp, construct.cpp; docs/tensor.md "Compose")
  Tensor dot(const Tensor& o) const;    // 1-D . 1-D -> 0-d
  Tensor outer(const Tensor& o) const;  // (n,) x (m,) -> (n, m)
  // 'ij,jk->ik', 'ii->i', '...ij,...jk->...ik', implicit output; ParseError/ShapeError on bad input
  static Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);
  // torch-style, along `dim` (negative allowed); index an int tensor of this rank. An index outside
  // [0, size) raises IndexError when the result is realized (index_check.h; CHECK_INDEX=0: 0 / no write).
  Tensor gather(int64_t dim, const Tensor& index) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, Scalar value) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  // reduce: "sum", "prod", "mean", "amax", "amin"
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src, const std::string& reduce,
                        bool include_self = true) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;  // index 1-D (or 0-d)
  Tensor masked_fill(const Tensor& mask, Scalar value) const;   // mask bool, broadcast to this shape
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;  // value 0-d
  // Selection by a mask (mask_select.cpp: a scan and a scatter; the true count is realized).
  Tensor masked_select(const Tensor& mask) const;  // the elements where the broadcast bool mask is true, 1-D
  Tensor nonzero() const;                          // (count, ndim) int64 coordinates of non-zero elements
  std::vector<Tensor> nonzero_tuple() const;       // one (count,) int64 tensor per dim (as_tuple=True)
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  // torch's values: start + i*step for the first half, end - (steps-1-i)*step for the second
  static Tensor linspace(double start, double end, int64_t steps, DType dtype = dtypes::float32,
                         const std::string& device = default_device());
  static Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, DType dtype = dtypes::float32,
                    const std::string& device = default_device());
  // ---- end compose

  // ---- reductions/losses: statistics, arg-reductions, scans (reduce_stats.cpp, scan.cpp)
  //      and losses (loss.cpp); docs/tensor.md "Statistics, arg-reductions, scans and losses".
  // var/std: floats only; divide by max(0, N - correction) as PyTorch. Half floats compute in float32.
  Tensor var(std::vector<int64_t> axes = {}, double correction = 1, bool keepdim = false) const;
  Tensor std(std::vector<int64_t> axes = {}, double correction = 1, bool keepdim = false) const;
  std::pair<Tensor, Tensor> var_mean(std::vector<int64_t> axes = {}, double correction = 1, bool keepdim = false) const;
  std::pair<Tensor, Tensor> std_mean(std::vector<int64_t> axes = {}, double correction = 1, bool keepdim = false) const;
  // int64 index of the first max/min (a NaN counts as the extreme); no axis: of the flattened tensor.
  Tensor argmax(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> axis = std::nullopt, bool keepdim = false) const;
  Tensor any(std::vector<int64_t> axes = {}, bool keepdim = false) const;  // bool result
  Tensor all(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  Tensor log_softmax(int64_t axis = -1) const;
  Tensor logsumexp(std::vector<int64_t> axes = {}, bool keepdim = false) const;
  // Scans along one axis: the spec's prefix_sum windows (sum's dtype rules for cumsum/cumprod).
  Tensor cumsum(int64_t axis) const;
  Tensor cumprod(int64_t axis) const;
  std::pair<Tensor, Tensor> cummax(int64_t axis) const;  // values, int64 indices (last of ties)
  std::pair<Tensor, Tensor> cummin(int64_t axis) const;
  // Class indices (any int dtype) -> int64 one-hot rows of num_classes >= 0. one_hot() infers the
  // count as max + 1: it realizes the data (src/tensor/one_hot.cpp).
  Tensor one_hot(int64_t num_classes) const;
  Tensor one_hot() const;
  // Losses as torch.nn.functional defines them; reduction is "none", "mean" or "sum".
  Tensor nll_loss(const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                  int64_t ignore_index = -100, const std::string& reduction = "mean") const;
  Tensor cross_entropy(const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                       int64_t ignore_index = -100, const std::string& reduction = "mean",
                       double label_smoothing = 0.0) const;
  Tensor mse_loss(const Tensor& target, const std::string& reduction = "mean") const;
  Tensor l1_loss(const Tensor& target, const std::string& reduction = "mean") const;
  Tensor binary_cross_entropy(const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                              const std::string& reduction = "mean") const;
  Tensor binary_cross_entropy_with_logits(const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                                          const std::string& reduction = "mean",
                                          const std::optional<Tensor>& pos_weight = std::nullopt) const;
  // ---- end reductions/losses

  // ---- neural-net ops (nn ops area: src/tensor/{pool,conv,norm,attention,interpolate}.cpp; docs/tensor.md
  // "Neural-net ops"). Float tensors only. Spatial arguments (kernel, stride, padding, dilation, ...)
  // hold one value for all spatial axes or one per axis. Inputs are (N, C, spatial...) or, without
  // the batch axis, (C, spatial...) as in PyTorch.
  // Sliding windows over the last kernel.size() axes, by movement ops only (tinygrad's _pool):
  // (..., i...) -> (..., o..., k...), o = (i - d(k-1) - 1) / s + 1.
  Tensor pool_windows(std::vector<int64_t> kernel, std::vector<int64_t> stride = {1},
                      std::vector<int64_t> dilation = {1}) const;
  // N-d convolution (conv1d/2d/3d by the weight's rank): weight (cout, cin/groups, k...), bias (cout,).
  Tensor conv(const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt,
              std::vector<int64_t> stride = {1}, std::vector<int64_t> padding = {0},
              std::vector<int64_t> dilation = {1}, int64_t groups = 1) const;
  // padding "valid" (none) or "same" (d(k-1) in all, half before, stride 1 only), as PyTorch.
  Tensor conv(const Tensor& weight, const std::optional<Tensor>& bias, std::vector<int64_t> stride,
              const std::string& padding, std::vector<int64_t> dilation = {1}, int64_t groups = 1) const;
  // Transposed convolution: weight (cin, cout/groups, k...), as conv_transpose1d/2d/3d.
  Tensor conv_transpose(const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt,
                        std::vector<int64_t> stride = {1}, std::vector<int64_t> padding = {0},
                        std::vector<int64_t> output_padding = {0}, int64_t groups = 1,
                        std::vector<int64_t> dilation = {1}) const;
  // Pools over the last nd axes; an empty stride means stride = kernel. Padding is at most half the
  // kernel; max pads with -inf, avg with zeros.
  Tensor max_pool(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                  std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1}, bool ceil_mode = false) const;
  // The int64 index of each max_pool result in its input plane (flattened spatial axes, PyTorch's
  // return_indices); the first of equal maxima.
  Tensor max_pool_indices(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                          std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1},
                          bool ceil_mode = false) const;
  Tensor avg_pool(int64_t nd, std::vector<int64_t> kernel, std::vector<int64_t> stride = {},
                  std::vector<int64_t> padding = {0}, bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt) const;
  // Adaptive pools over the last output_size.size() axes; -1 keeps that axis's size.
  Tensor adaptive_avg_pool(std::vector<int64_t> output_size) const;
  Tensor adaptive_max_pool(std::vector<int64_t> output_size) const;
  // The int64 flat index in the input plane of each adaptive_max_pool result (the first of equal
  // maxima; a NaN counts as the max), PyTorch's return_indices.
  Tensor adaptive_max_pool_indices(std::vector<int64_t> output_size) const;
  // (N, C, ...) normalized per channel: batch statistics when training (biased variance; running
  // stats are not updated), else running_mean / running_var.
  Tensor batch_norm(const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                    const std::optional<Tensor>& weight = std::nullopt, const std::optional<Tensor>& bias = std::nullopt,
                    bool training = false, double eps = 1e-5) const;
  Tensor layer_norm(std::vector<int64_t> normalized_shape, const std::optional<Tensor>& weight = std::nullopt,
                    const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-5) const;
  Tensor group_norm(int64_t num_groups, const std::optional<Tensor>& weight = std::nullopt,
                    const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-5) const;
  // softmax(q k^T * scale + mask) v with this as q (..., L, E), key (..., S, E), value (..., S, Ev).
  // A bool mask keeps the true entries; a float mask is added. is_causal keeps j <= i.
  Tensor scaled_dot_product_attention(const Tensor& key, const Tensor& value,
                                      const std::optional<Tensor>& attn_mask = std::nullopt, bool is_causal = false,
                                      std::optional<double> scale = std::nullopt) const;
  // Resizes the spatial axes of (N, C, spatial...): mode "nearest" (any 1-3 spatial axes), "linear"
  // (3-D), "bilinear" (4-D), "trilinear" (5-D). Exactly one of size and scale_factor (empty = none).
  Tensor interpolate(std::vector<int64_t> size, std::vector<double> scale_factor = {},
                     const std::string& mode = "nearest", std::optional<bool> align_corners = std::nullopt) const;
  // ---- end of neural-net ops

  // ---- autograd (src/tensor/autograd.cpp, gradient.cpp, gradient_rules.cpp; docs/autograd.md)
  // Reverse mode on the tensor graph itself: backward() differentiates this tensor's UOp graph with
  // one rule per primitive and adds the results to .grad of the live tensors marked requires_grad
  // (the leaves) that it depends on. The flag and the grad are shared by all copies of a Tensor.
  bool requires_grad() const;  // a leaf's flag, or: depends on a leaf (not through detach())
  Tensor& requires_grad_(bool on = true);  // floats only (DTypeError); only leaves can turn it off
  std::optional<Tensor> grad() const;  // leaves only; absent before the first backward()
  void set_grad(std::optional<Tensor> g);  // same shape as the tensor (ShapeError), cast to its dtype
  // d(this)/d(leaf) added into every leaf's .grad (realized); a non-scalar needs `gradient`.
  // `realize_with`: other tensors realized in the same schedule (a training step's accuracy count
  // reads the logits the loss is computed from: realized apart, it would run the forward again).
  void backward(std::optional<Tensor> gradient = std::nullopt, const std::vector<Tensor*>& realize_with = {}) const;
  Tensor detach() const;  // DETACH: the same values, no gradient flows through
  Tensor contiguous_backward() const;  // CONTIGUOUSBACKWARD: identity; its gradient is made contiguous
  // ---- end autograd

  // ---- realization
  Tensor contiguous() const;  // a LOAD into GLOBAL memory on the same device
  // Runs the kernels that compute this tensor; afterwards uop() is a view of a realized BUFFER.
  // The engine, downstream, runs them through tensor/realize_hook.h (src/tensor/realize.cpp).
  Tensor& realize();
  static void realize_all(std::vector<Tensor*> ts);
  // Realizes and copies the elements out, row-major, into dst (exactly numel()*itemsize bytes).
  void copy_out(void* dst, size_t nbytes) const;
  std::vector<std::byte> to_bytes() const;
  template <class T>
  std::vector<T> to_vector() const {
    auto b = to_bytes();
    std::vector<T> out(b.size() / sizeof(T));
    std::memcpy(out.data(), b.data(), out.size() * sizeof(T));
    return out;
  }

 private:
  // mutable: realizing replaces the graph by a buffer holding the same values, so a const Tensor
  // may realize itself (copy_out) without changing what it is.
  mutable UOpRef uop_;
  std::string device_ = "CPU";  // canonical device name (device_name.h)
  std::shared_ptr<GradSlot> slot_;  // autograd: null until requires_grad_ or set_grad
  // autograd: a tensor built while gradients are off (NoGradGuard) that reads a leaf is DETACHed;
  // realize() keeps a leaf's old graph as an alias so that graphs built before still find it.
  void detach_if_no_grad();
  // each tensor of one realize takes its buffer's node, in order (autograd.cpp)
  static void note_realized(const std::vector<std::pair<Tensor*, UOpRef>>& realized);
  void note_written();  // setitem wrote this tensor in place: its old graphs are an old value
  // in-place ops: setitem under another op's name (messages); the autograd side of a write
  void write(const std::string& op, const std::vector<IndexItem>& index, const Tensor& value);
  friend struct WriteHistory;  // write_history.cpp
  // in-place ops: what a write lands in (src/tensor/write_target.cpp)
  void make_writable();
  void realize_privately();
  bool is_value_copy_of(const Tensor& w) const;
  void release_value_copies();
  static std::unordered_set<const UOp*> leaf_nodes(const std::vector<Tensor*>& live);
  static UOpRef with_history(const UOpRef& u);  // realized values swapped back for their graphs
  static std::vector<Tensor> gradients_at(const Tensor& root, const std::vector<Tensor>& xs, const Tensor& dy);
  friend std::vector<Tensor> gradients(const Tensor& y, const std::vector<Tensor>& xs, std::optional<Tensor> dy);
  // ---- indexing: the registry of live Tensor objects (live_tensors.cpp)
  void enroll() noexcept;
  void withdraw() noexcept;
  static std::vector<Tensor*> live_tensors();
  // ---- end indexing
};

// ---- autograd
// dy/dx for each x (lazy tensors of x's shape and dtype; zeros where y does not depend on x).
// Never touches .grad; y need not be a scalar when dy (y's shape) is given.
std::vector<Tensor> gradients(const Tensor& y, const std::vector<Tensor>& xs, std::optional<Tensor> dy = std::nullopt);
// Gradients are recorded while enabled (the default, per thread). NoGradGuard turns them off in a scope.
bool grad_enabled();
void set_grad_enabled(bool on);
struct NoGradGuard {
  NoGradGuard() : prev_(grad_enabled()) { set_grad_enabled(false); }
  ~NoGradGuard() { set_grad_enabled(prev_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;
 private:
  bool prev_;
};
// ---- end autograd

Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a);
Tensor operator+(const Tensor& a, Scalar b);
Tensor operator-(const Tensor& a, Scalar b);
Tensor operator*(const Tensor& a, Scalar b);
Tensor operator/(const Tensor& a, Scalar b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, const Tensor& b);

// C++ numbers as scalars: `t * 2`, `t + 0.5` (an int stays an int scalar, a float a float one).
template <class T>
  requires std::is_arithmetic_v<T>
Scalar to_scalar(T v) {
  if constexpr (std::is_floating_point_v<T>) return ConstValue::from_float(double(v));
  else return ConstValue::from_int(i128(v));
}
template <class T> requires std::is_arithmetic_v<T> Tensor operator+(const Tensor& a, T b) { return a + to_scalar(b); }
template <class T> requires std::is_arithmetic_v<T> Tensor operator-(const Tensor& a, T b) { return a - to_scalar(b); }
template <class T> requires std::is_arithmetic_v<T> Tensor operator*(const Tensor& a, T b) { return a * to_scalar(b); }
template <class T> requires std::is_arithmetic_v<T> Tensor operator/(const Tensor& a, T b) { return a / to_scalar(b); }

}  // namespace onegrad
