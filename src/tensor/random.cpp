// Random tensors from THREEFRY (tensor/random.h; docs/tensor.md, "Random numbers"). Everything is a
// composition of Tensor ops around one THREEFRY node per draw; the generator's state lives on the
// host and reaches the kernels as a 2-element uint64 buffer (seed, offset), so a second draw of the
// same shape reuses the compiled kernels.
#include "tensor/random.h"

#include <cmath>
#include <limits>
#include <mutex>
#include <numbers>

#include "tensor/broadcast.h"
#include "tensor/replay_steps.h"
#include "tensor/shape_util.h"
#include "tensor/symbolic_dims.h"
#include "uop/custom_kernels.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

struct Generator {
  std::mutex mu;
  uint64_t seed = 0;
  uint64_t counter = 0;
};
Generator& generator() {
  static Generator g;
  return g;
}

std::string num(double v) {
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

Tensor u64(uint64_t v, const std::string& dev) { return Tensor::scalar(ConstValue::from_int(i128(v)), dtypes::uint64, dev); }
Tensor u32(uint32_t v, const std::string& dev) { return Tensor::scalar(ConstValue::from_int(i128(v)), dtypes::uint32, dev); }
Tensor f64(double v, const std::string& dev) { return Tensor::scalar(ConstValue::from_float(v), dtypes::float64, dev); }

void check_float(const std::string& op, DType dt) {
  check_tensor_dtype(op, dt);
  if (!dt.is_float()) throw DTypeError(op + ": expects a float dtype, got " + dt.name());
}

int64_t ipow(int64_t b, int e) {
  int64_t r = 1;
  while (e-- > 0) r *= b;
  return r;
}

// 0..n-1 as uint64, shape (n,). arange is the spec's O(n^2) prefix-sum composition, so a long one
// is built from k short ones (mixed radix r, r^k >= n, r <= 1024): i = sum_j d_j * r^(k-1-j) over
// the (r, ..., r) grid, flattened and cut to n. Each digit arange is made contiguous so the kernel
// reading it loads it instead of recomputing its sum per element.
Tensor flat_index(int64_t n, const std::string& dev) {
  constexpr int64_t kMaxRadix = 1024;
  auto digit = [&](int64_t r) { return Tensor::arange(0, r, 1, dtypes::int32, dev).cast(dtypes::uint64); };
  if (n <= kMaxRadix) return digit(n);
  int k = 2;
  int64_t r = 0;
  for (;; k++) {
    r = int64_t(std::ceil(std::pow(double(n), 1.0 / k)));
    while (r > 1 && ipow(r - 1, k) >= n) r--;
    while (ipow(r, k) < n) r++;
    if (r <= kMaxRadix) break;
  }
  Tensor idx;
  for (int j = 0; j < k; j++) {
    Dims sh(size_t(k), 1);
    sh[size_t(j)] = r;
    Tensor d = digit(r).contiguous().reshape(sh);
    if (j < k - 1) d = d.mul(u64(uint64_t(ipow(r, k - 1 - j)), dev));
    idx = j == 0 ? d : idx.add(d);
  }
  return idx.expand(Dims(size_t(k), r)).reshape({ipow(r, k)}).shrink({{0, n}});
}

// Reserve n counters: (seed, first counter).
std::pair<uint64_t, uint64_t> reserve(uint64_t n) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  uint64_t off = g.counter;
  g.counter += n;
  return {g.seed, off};
}

Dims checked_shape(const std::string& op, const Dims& shape) {
  check_dims(op, shape);
  if (dims_numel(shape) > (int64_t(1) << 40))
    throw ShapeError(op + ": shape " + shape_text(shape) + " has too many elements for one draw");
  return shape;
}

// Random 32-bit halves of the words, as uint32.
Tensor low_half(const Tensor& w) { return w.cast(dtypes::uint32); }
Tensor high_half(const Tensor& w) { return w.rshift(u64(32, w.device())).cast(dtypes::uint32); }

// Uniform [0, 1) in dt from words w: mantissa bits under the exponent of 1.0, minus 1.
Tensor unit_interval(const Tensor& w, DType dt) {
  const std::string dev = w.device();
  if (dt == dtypes::float64)
    return w.rshift(u64(12, dev)).bitwise_or(u64(0x3ff0000000000000ull, dev)).bitcast(dt).sub(ConstValue::from_float(1.0));
  int mant = dt == dtypes::float32 ? 23 : dt == dtypes::float16 ? 10 : 7;
  uint32_t one = dt == dtypes::float32 ? 0x3f800000u : dt == dtypes::float16 ? 0x3c00u : 0x3f80u;
  Tensor m = low_half(w).rshift(u32(uint32_t(32 - mant), dev)).bitwise_or(u32(one, dev));
  if (dt != dtypes::float32) m = m.cast(dtypes::uint16);
  return m.bitcast(dt).sub(ConstValue::from_float(1.0));
}

// Standard normals in float64 by Box-Muller: u1 = (lo + 1) 2^-32 in (0, 1], u2 = hi 2^-32 in [0, 1),
// z = sqrt(-2 ln u1) cos(2 pi u2).
Tensor box_muller(const Tensor& w) {
  const double two32 = 0x1p-32;
  Tensor u1 = low_half(w).cast(dtypes::float64).add(ConstValue::from_float(1.0)).mul(ConstValue::from_float(two32));
  Tensor u2 = high_half(w).cast(dtypes::float64).mul(ConstValue::from_float(two32));
  Tensor r = u1.log().mul(ConstValue::from_float(-2.0)).sqrt();
  return r.mul(u2.mul(ConstValue::from_float(2.0 * std::numbers::pi)).cos());
}

// Uniform (0, 1) in float64 from the low half: (lo + 1/2) 2^-32, never 0 or 1.
Tensor open_unit(const Tensor& w) {
  return low_half(w).cast(dtypes::float64).add(ConstValue::from_float(0.5)).mul(ConstValue::from_float(0x1p-32));
}

// The probabilities of multinomial/bernoulli, realized once; throws when a value breaks `bad`.
int64_t count_true(const Tensor& b) { return b.cast(dtypes::int64).sum().to_vector<int64_t>()[0]; }

}  // namespace

void manual_seed(uint64_t seed) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed = seed;
  g.counter = 0;
}

uint64_t initial_seed() {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  return g.seed;
}

uint64_t rng_counter() {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  return g.counter;
}

void set_rng_counter(uint64_t counter) {
  Generator& g = generator();
  std::lock_guard<std::mutex> lock(g.mu);
  g.counter = counter;
}

Tensor random_bits(const std::vector<int64_t>& shape, const std::string& device) {
  Dims s = checked_shape("random_bits", shape);
  int64_t n = dims_numel(s);
  if (n == 0) return Tensor::zeros(s, dtypes::uint64, device);
  auto [seed, off] = reserve(uint64_t(n));
  uint64_t st[2] = {seed, off};
  Tensor state = Tensor::from_data(st, sizeof st, {2}, dtypes::uint64, device);
  // A replay draws again: the next n counters, in the order the draws were captured.
  add_replay_step([state, n](const WriteBuffer& write) {
    auto [seed2, off2] = reserve(uint64_t(n));
    uint64_t st2[2] = {seed2, off2};
    write(state, st2, sizeof st2);
  });
  const std::string dev = state.device();
  Tensor key = state.shrink({{0, 1}}).expand({n});
  Tensor ctr = flat_index(n, dev).add(state.shrink({{1, 2}}).expand({n}));
  return Tensor(UOp::alu(Ops::THREEFRY, {ctr.uop(), key.uop()}), dev).reshape(s);
}

Tensor rand(const std::vector<int64_t>& shape, DType dtype, const std::string& device) {
  check_float("rand", dtype);
  Dims s = checked_shape("rand", shape);
  if (dims_numel(s) == 0) return Tensor::zeros(s, dtype, device);
  return unit_interval(random_bits(s, device), dtype);
}

Tensor rand_symbolic(const Shape& dims, DType dtype, const std::string& device) {
  if (!has_symbolic_dim(dims)) {
    Dims d;
    for (const UOpRef& x : dims) d.push_back(dim_value(x));
    return rand(d, dtype, device);
  }
  Dims upper;
  std::vector<std::pair<UOpRef, UOpRef>> bounds;
  for (const UOpRef& x : dims) {
    if (dim_value(x) < 0) throw ShapeError("rand: negative dim in " + dims_text(dims));
    upper.push_back(int64_t(x->vmax().as_int()));
    bounds.emplace_back(UOp::index(0), x);
  }
  return rand(upper, dtype, device).shrink_symbolic(bounds);
}

Tensor randn(const std::vector<int64_t>& shape, DType dtype, const std::string& device) {
  check_float("randn", dtype);
  Dims s = checked_shape("randn", shape);
  if (dims_numel(s) == 0) return Tensor::zeros(s, dtype, device);
  return box_muller(random_bits(s, device)).cast(dtype);
}

Tensor randint(int64_t low, int64_t high, const std::vector<int64_t>& shape, DType dtype, const std::string& device) {
  check_tensor_dtype("randint", dtype);
  if (low >= high)
    throw ShapeError("randint: low must be less than high, got low=" + std::to_string(low) +
                     " and high=" + std::to_string(high));
  if (dtype.is_bool() && (low < 0 || high > 2))
    throw ShapeError("randint: [" + std::to_string(low) + ", " + std::to_string(high) + ") does not fit bool");
  if (dtype.is_int()) {
    ConstValue lo = ConstValue::from_int(low), hi = ConstValue::from_int(i128(high) - 1);
    if (!(cast_value(lo, dtype) == lo) || !(cast_value(hi, dtype) == hi))
      throw ShapeError("randint: [" + std::to_string(low) + ", " + std::to_string(high) + ") does not fit " +
                       dtype.name());
  }
  Dims s = checked_shape("randint", shape);
  if (dims_numel(s) == 0) return Tensor::zeros(s, dtype, device);
  Tensor w = random_bits(s, device);
  const std::string dev = w.device();
  uint64_t range = uint64_t(high) - uint64_t(low);  // high > low, so 1 .. 2^64 - 1
  Tensor v = w.mod(u64(range, dev)).add(u64(uint64_t(low), dev)).bitcast(dtypes::int64);
  return v.cast(dtype);
}

Tensor uniform(const std::vector<int64_t>& shape, double low, double high, DType dtype, const std::string& device) {
  check_float("uniform", dtype);
  if (!(low <= high) || !std::isfinite(low) || !std::isfinite(high))
    throw ShapeError("uniform: expects finite low <= high, got low=" + num(low) + " and high=" + num(high));
  Tensor u = rand(shape, dtype, device);
  return u.mul(ConstValue::from_float(high - low)).add(ConstValue::from_float(low));
}

Tensor normal(const std::vector<int64_t>& shape, double mean, double std, DType dtype, const std::string& device) {
  check_float("normal", dtype);
  if (!(std >= 0.0) || !std::isfinite(std))
    throw ShapeError("normal: expects a finite std >= 0, got std=" + num(std));
  Tensor z = randn(shape, dtype, device);
  return z.mul(ConstValue::from_float(std)).add(ConstValue::from_float(mean));
}

Tensor randperm(int64_t n, DType dtype, const std::string& device) {
  check_tensor_dtype("randperm", dtype);
  if (n < 0) throw ShapeError("randperm: n must be >= 0, got " + std::to_string(n));
  if (dtype.is_bool()) throw DTypeError("randperm: expects an integer or float dtype, got bool");
  // 0..n-1 are all exact in dtype iff n-1 and n-2 are (a float's first inexact integer is odd)
  auto exact = [&](int64_t v) {
    ConstValue c = ConstValue::from_int(std::max<int64_t>(v, 0));
    return cast_value(cast_value(c, dtype), dtypes::int64) == c;
  };
  if (!exact(n - 1) || !exact(n - 2))
    throw ShapeError("randperm: n=" + std::to_string(n) + " does not fit " + dtype.name() +
                     (dtype.is_float() ? " (0..n-1 would not all be exact)" : ""));
  if (n <= 1) return Tensor::zeros({n}, dtype, device);
  // The inside-out Fisher-Yates shuffle (uop/custom_kernels.h): one in-order loop of n steps.
  // Sorting n random words would give a uniform permutation too, but as a radix sort of 64
  // scan-and-scatter passes it cost 30-150x torch's randperm. The words are the bulk of the work
  // (Threefry's 20 rounds each), so up to kPairedSteps elements two steps share one word, with a
  // bias below n^2 / 2^64 <= 2^-24; beyond, a word per step (a bias below n / 2^64). The words are
  // realized, so the loop reads them (its store to out[j] has an address read from memory: it runs
  // in order) instead of running Threefry inside it.
  constexpr int64_t kPairedSteps = int64_t(1) << 20;
  Tensor words;
  if (n <= kPairedSteps) {
    int64_t m = (n + 1) / 2;
    words = random_bits({m}, device).contiguous().reshape({m, 1}).expand({m, 2}).reshape({2 * m}).shrink({{0, n}});
  } else {
    words = random_bits({n}, device).contiguous();
  }
  Tensor perm(UOp::create(Ops::CUSTOM, dtypes::int64, {words.uop()}, Arg(std::string(kFisherYates))), words.device());
  return perm.cast(dtype);
}

Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement) {
  const std::string op = "multinomial";
  if (!probs.dtype().is_float()) throw DTypeError(op + ": expects float probabilities, got " + probs.dtype().name());
  Dims ps = probs.shape();
  if (ps.size() != 1 && ps.size() != 2)
    throw ShapeError(op + ": probabilities must be 1-D or 2-D, got shape " + shape_text(ps));
  int64_t n = ps.back(), m = ps.size() == 2 ? ps[0] : 1;
  if (n == 0) throw ShapeError(op + ": no categories to draw from (shape " + shape_text(ps) + ")");
  if (num_samples <= 0) throw ShapeError(op + ": num_samples must be positive, got " + std::to_string(num_samples));
  if (!replacement && num_samples > n)
    throw ShapeError(op + ": cannot draw " + std::to_string(num_samples) + " samples without replacement from " +
                     std::to_string(n) + " categories");
  // the checks need the values: realize the probabilities once (the sampling reads the same buffer)
  Tensor p = probs.cast(dtypes::float64).reshape({m, n}).contiguous();
  p.realize();
  if (m > 0) {
    Tensor bad = p.lt(f64(0.0, p.device())).logical_or(p.isnan()).logical_or(p.isinf());
    if (count_true(bad) > 0)
      throw ShapeError(op + ": probabilities must be finite and >= 0 (shape " + shape_text(ps) + ")");
    if (count_true(p.sum({1}).le(f64(0.0, p.device()))) > 0)
      throw ShapeError(op + ": every row of probabilities must have a positive sum");
    if (!replacement) {
      Tensor nonzero = p.gt(f64(0.0, p.device())).cast(dtypes::int64).sum({1});
      if (count_true(nonzero.lt(Tensor::scalar(ConstValue::from_int(num_samples), dtypes::int64, p.device()))) > 0)
        throw ShapeError(op + ": cannot draw " + std::to_string(num_samples) +
                         " samples without replacement from a row with fewer non-zero probabilities");
    }
  }
  const std::string dev = p.device();
  Tensor idx = Tensor::arange(0, n, 1, dtypes::int64, dev);
  Tensor out;
  if (replacement) {
    Tensor cdf = p.cumsum(1);                            // (m, n): cdf[r, k] = sum_{j <= k} p[r, j]
    Tensor total = cdf.shrink({{0, m}, {n - 1, n}});                                   // (m, 1)
    Tensor x = unit_interval(random_bits({m, num_samples}, dev), dtypes::float64).mul(total);  // (m, S)
    Tensor count = cdf.reshape({m, 1, n}).le(x.reshape({m, num_samples, 1})).cast(dtypes::int64).sum({2});
    // x rounds up to the total at worst: never past the last category with a positive weight
    Tensor zero = Tensor::scalar(ConstValue::from_int(0), dtypes::int64, dev);
    Tensor last = p.gt(f64(0.0, dev)).where(idx.reshape({1, n}), zero).max({1}, true);  // (m, 1)
    out = count.minimum(last);
  } else {
    // exponential race: key_i = E_i / p_i, E_i = -ln u_i (u_i in (0, 1)); zero weights give inf.
    // rank_i = #{j : key_j < key_i or (key_j == key_i and j < i)}; sample s is the i of rank s.
    Tensor e = open_unit(random_bits({m, n}, dev)).log().neg();
    Tensor key = e.div(p).contiguous();
    Tensor kj = key.reshape({m, 1, n}), ki = key.reshape({m, n, 1});
    Tensor j_before_i = idx.reshape({1, n}).lt(idx.reshape({n, 1})).reshape({1, n, n});  // [i, j] = j < i
    Tensor before = kj.lt(ki).logical_or(kj.eq(ki).logical_and(j_before_i));
    Tensor rank = before.cast(dtypes::int64).sum({2});  // (m, n)
    Tensor s = Tensor::arange(0, num_samples, 1, dtypes::int64, dev).reshape({1, num_samples, 1});
    Tensor hit = rank.reshape({m, 1, n}).eq(s).cast(dtypes::int64);  // (m, S, n)
    out = hit.mul(idx.reshape({1, 1, n})).sum({2});
  }
  return ps.size() == 1 ? out.reshape({num_samples}) : out;
}

Tensor bernoulli(const Tensor& p) {
  if (!p.dtype().is_float()) throw DTypeError("bernoulli: expects float probabilities, got " + p.dtype().name());
  if (p.numel() == 0) return p;
  Tensor q = p.contiguous();
  q.realize();
  Tensor bad = q.lt(full_like(q, ConstValue::from_float(0.0)))
                   .logical_or(q.gt(full_like(q, ConstValue::from_float(1.0))))
                   .logical_or(q.isnan());
  if (count_true(bad) > 0) throw ShapeError("bernoulli: probabilities must be in [0, 1] (shape " + shape_text(p.shape()) + ")");
  Tensor u = rand(q.shape(), dtypes::float64, q.device());
  return u.lt(q.cast(dtypes::float64)).cast(p.dtype());
}

Tensor bernoulli(const Tensor& like, double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw ShapeError("bernoulli: p must be in [0, 1], got " + num(p));
  check_tensor_dtype("bernoulli", like.dtype());
  Dims s = like.shape();
  if (dims_numel(s) == 0) return Tensor::zeros(s, like.dtype(), like.device());
  // 1 when the low 32 bits are below p * 2^32: exact rates to 2^-32
  Tensor w = random_bits(s, like.device());
  uint64_t t = uint64_t(std::llround(p * 0x1p32));
  return low_half(w).cast(dtypes::uint64).lt(u64(t, w.device())).cast(like.dtype());
}

Tensor dropout(const Tensor& x, double p, bool training) {
  if (!(p >= 0.0 && p <= 1.0)) throw ShapeError("dropout: probability has to be between 0 and 1, got " + num(p));
  if (!x.dtype().is_float()) throw DTypeError("dropout: expects a float tensor, got " + x.dtype().name());
  if (!training || p == 0.0) return x;
  if (p == 1.0) return x.mul(ConstValue::from_float(0.0));
  Dims s = x.shape();
  if (dims_numel(s) == 0) return x;
  // keep when the low 32 bits are >= p * 2^32 (rate 1 - p to 2^-32); survivors scaled by 1/(1-p)
  Tensor w = random_bits(s, x.device());
  uint64_t t = uint64_t(std::llround(p * 0x1p32));
  Tensor keep = low_half(w).cast(dtypes::uint64).lt(u64(t, w.device())).logical_not();
  Tensor scale = keep.where(full_like(x, ConstValue::from_float(1.0 / (1.0 - p))), full_like(x, ConstValue::from_float(0.0)));
  return x.mul(scale);
}

Tensor rand_like(const Tensor& t, std::optional<DType> dtype) { return rand(t.shape(), dtype.value_or(t.dtype()), t.device()); }
Tensor randn_like(const Tensor& t, std::optional<DType> dtype) { return randn(t.shape(), dtype.value_or(t.dtype()), t.device()); }
Tensor randint_like(const Tensor& t, int64_t low, int64_t high, std::optional<DType> dtype) {
  return randint(low, high, t.shape(), dtype.value_or(t.dtype()), t.device());
}

}  // namespace onegrad
