// Random tensors (tensor/random.h): graphs, dtypes, shapes and errors, then values through the
// engine: the bits are THREEFRY(offset + flat index, seed) exactly (an independent Threefry-2x32-20
// here), whatever the shape or kernel split; seeding reproduces them; and each distribution passes
// fixed-tolerance statistical checks (seeded, so deterministic).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "tensor/random.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// Threefry-2x32-20 (Salmon et al. 2011), packed as onegrad's THREEFRY: x = c1 << 32 | c0, key =
// k1 << 32 | k0, result out1 << 32 | out0.
uint64_t threefry_ref(uint64_t x, uint64_t key) {
  static const int R[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x0 = uint32_t(x) + ks[0], x1 = uint32_t(x >> 32) + ks[1];
  for (int r = 0; r < 20; r++) {
    x0 += x1;
    x1 = (x1 << R[r % 8]) | (x1 >> (32 - R[r % 8]));
    x1 ^= x0;
    if (r % 4 == 3) {
      int inj = r / 4 + 1;
      x0 += ks[inj % 3];
      x1 += ks[(inj + 1) % 3] + uint32_t(inj);
    }
  }
  return uint64_t(x1) << 32 | x0;
}

std::vector<double> doubles(const Tensor& t) {
  Tensor f = t.cast(dtypes::float64);
  return f.to_vector<double>();
}
double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }
double var(const std::vector<double>& v) {
  double m = mean(v), s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / double(v.size());
}

}  // namespace

TEST(TensorRandom, GraphIsOneThreefryOverUint64) {
  Tensor b = verified(random_bits({3, 4}));
  EXPECT_EQ(b.dtype(), dtypes::uint64);
  EXPECT_EQ(b.shape(), (Dims{3, 4}));
  EXPECT_EQ(count_op(b, Ops::THREEFRY), 1u);
  // a long draw builds its flat index from short aranges: the graph stays small
  Tensor big = verified(random_bits({1000, 1000}));
  EXPECT_EQ(count_op(big, Ops::THREEFRY), 1u);
  EXPECT_LT(big.uop()->toposort().size(), 200u);
}

TEST(TensorRandom, DTypesAndShapes) {
  for (DType dt : {dtypes::float32, dtypes::float64, dtypes::float16, dtypes::bfloat16}) {
    for (const Tensor& t : {rand({2, 3}, dt), randn({2, 3}, dt), uniform({2, 3}, -1, 1, dt), normal({2, 3}, 1, 2, dt)}) {
      EXPECT_EQ(verified(t).dtype(), dt);
      EXPECT_EQ(t.shape(), (Dims{2, 3}));
    }
  }
  EXPECT_EQ(verified(randint(0, 10, {4})).dtype(), dtypes::int64);  // torch's default
  EXPECT_EQ(verified(randint(0, 10, {4}, dtypes::uint8)).dtype(), dtypes::uint8);
  EXPECT_EQ(verified(randint(0, 2, {4}, dtypes::bool_)).dtype(), dtypes::bool_);
  EXPECT_EQ(verified(randint(-3, 3, {4}, dtypes::float32)).dtype(), dtypes::float32);
  EXPECT_EQ(verified(randperm(5)).dtype(), dtypes::int64);
  EXPECT_EQ(randperm(5).shape(), (Dims{5}));
  EXPECT_EQ(randperm(0).shape(), (Dims{0}));
  EXPECT_EQ(rand({0, 3}).shape(), (Dims{0, 3}));
  EXPECT_EQ(rand({}).shape(), (Dims{}));
  Tensor f = data({2, 5}), d = data({3}, dtypes::float64);
  EXPECT_EQ(verified(rand_like(d)).dtype(), dtypes::float64);
  EXPECT_EQ(verified(randn_like(f, dtypes::float16)).dtype(), dtypes::float16);
  EXPECT_EQ(verified(randint_like(data({3}, dtypes::int32), 0, 5)).dtype(), dtypes::int32);
  EXPECT_EQ(verified(bernoulli(d, 0.5)).dtype(), dtypes::float64);
  EXPECT_EQ(verified(dropout(f, 0.5)).shape(), (Dims{2, 5}));
  EXPECT_EQ(dropout(f, 0.5, false).uop(), f.uop());  // not training: x itself
  EXPECT_EQ(dropout(f, 0.0).uop(), f.uop());
  Tensor p = Tensor::full({2, 5}, fval(1.0), dtypes::float32);
  Tensor m = verified(multinomial(p, 3));
  EXPECT_EQ(m.dtype(), dtypes::int64);
  EXPECT_EQ(m.shape(), (Dims{2, 3}));
  EXPECT_EQ(multinomial(p.shrink({{0, 1}, {0, 5}}).reshape({5}), 7, true).shape(), (Dims{7}));
}

TEST(TensorRandom, Errors) {
  EXPECT_THROW_MSG(rand({2, -1}), ShapeError, "rand: negative dim -1 in shape (2, -1)");
  EXPECT_THROW_MSG(randn({-3}), ShapeError, "randn: negative dim -3");
  EXPECT_THROW_MSG(randint(0, 3, {-1}), ShapeError, "randint: negative dim -1");
  EXPECT_THROW_MSG(rand({3}, dtypes::int32), DTypeError, "rand: expects a float dtype, got int32");
  EXPECT_THROW_MSG(randn({3}, dtypes::bool_), DTypeError, "randn: expects a float dtype, got bool");
  EXPECT_THROW_MSG(rand_like(data({3}, dtypes::int64)), DTypeError, "rand: expects a float dtype, got int64");
  EXPECT_THROW_MSG(randint(5, 5, {3}), ShapeError, "randint: low must be less than high, got low=5 and high=5");
  EXPECT_THROW_MSG(randint(0, 300, {3}, dtypes::uint8), ShapeError, "randint: [0, 300) does not fit uint8");
  EXPECT_THROW_MSG(randint(-1, 3, {3}, dtypes::uint32), ShapeError, "does not fit uint32");
  EXPECT_THROW_MSG(randint(0, 3, {3}, dtypes::bool_), ShapeError, "randint: [0, 3) does not fit bool");
  EXPECT_THROW_MSG(uniform({3}, 2.0, 1.0), ShapeError, "uniform: expects finite low <= high, got low=2.0 and high=1.0");
  EXPECT_THROW_MSG(normal({3}, 0.0, -1.0), ShapeError, "normal: expects a finite std >= 0, got std=-1.0");
  EXPECT_THROW_MSG(randperm(-1), ShapeError, "randperm: n must be >= 0, got -1");
  EXPECT_THROW_MSG(randperm(300, dtypes::uint8), ShapeError, "randperm: n=300 does not fit uint8");
  EXPECT_THROW_MSG(randperm(3, dtypes::bool_), DTypeError, "randperm: expects an integer or float dtype, got bool");
  EXPECT_THROW_MSG(randperm(2050, dtypes::float16), ShapeError,
                   "randperm: n=2050 does not fit float16 (0..n-1 would not all be exact)");
  Tensor p = Tensor::full({4}, fval(0.25), dtypes::float32);
  EXPECT_THROW_MSG(multinomial(p, 5), ShapeError, "multinomial: cannot draw 5 samples without replacement from 4 categories");
  EXPECT_THROW_MSG(multinomial(p, 0, true), ShapeError, "multinomial: num_samples must be positive, got 0");
  EXPECT_THROW_MSG(multinomial(data({2, 2, 2}), 1), ShapeError, "multinomial: probabilities must be 1-D or 2-D, got shape (2, 2, 2)");
  EXPECT_THROW_MSG(multinomial(data({3}, dtypes::int32), 1), DTypeError, "multinomial: expects float probabilities, got int32");
  EXPECT_THROW_MSG(multinomial(floats({0.5f, -0.1f}, {2}), 1), ShapeError, "multinomial: probabilities must be finite and >= 0");
  EXPECT_THROW_MSG(multinomial(floats({0.5f, NAN}, {2}), 1, true), ShapeError, "must be finite and >= 0");
  EXPECT_THROW_MSG(multinomial(floats({0.0f, 0.0f}, {2}), 1, true), ShapeError, "every row of probabilities must have a positive sum");
  EXPECT_THROW_MSG(multinomial(floats({0.5f, 0.0f}, {2}), 2), ShapeError, "fewer non-zero probabilities");
  EXPECT_THROW_MSG(bernoulli(floats({0.5f, 1.5f}, {2})), ShapeError, "bernoulli: probabilities must be in [0, 1]");
  EXPECT_THROW_MSG(bernoulli(data({2}, dtypes::int32)), DTypeError, "bernoulli: expects float probabilities, got int32");
  EXPECT_THROW_MSG(bernoulli(data({2}), 1.5), ShapeError, "bernoulli: p must be in [0, 1], got 1.5");
  EXPECT_THROW_MSG(dropout(data({2}), 1.5), ShapeError, "dropout: probability has to be between 0 and 1, got 1.5");
  EXPECT_THROW_MSG(dropout(data({2}), -0.1, false), ShapeError, "got -0.1");
  EXPECT_THROW_MSG(dropout(data({2}, dtypes::int32), 0.5), DTypeError, "dropout: expects a float tensor, got int32");
}

TEST(TensorRandom, BitsAreThreefryOfOffsetPlusFlatIndex) {
  manual_seed(0x123456789abcdefull);
  EXPECT_EQ(initial_seed(), 0x123456789abcdefull);
  EXPECT_EQ(rng_counter(), 0u);
  std::vector<uint64_t> a = random_bits({6, 7}).to_vector<uint64_t>();
  EXPECT_EQ(rng_counter(), 42u);
  std::vector<uint64_t> b = random_bits({5000}).to_vector<uint64_t>();  // a long draw (mixed-radix index)
  EXPECT_EQ(rng_counter(), 5042u);
  for (size_t i = 0; i < a.size(); i++) ASSERT_EQ(a[i], threefry_ref(i, 0x123456789abcdefull)) << i;
  for (size_t i = 0; i < b.size(); i++) ASSERT_EQ(b[i], threefry_ref(42 + i, 0x123456789abcdefull)) << i;
}

TEST(TensorRandom, SameSeedSameValuesWhateverTheSplit) {
  manual_seed(7);
  std::vector<float> x = rand({2, 3, 4}).to_vector<float>();
  std::vector<float> y = rand({24}).to_vector<float>();
  EXPECT_NE(x, y);  // consecutive draws differ
  manual_seed(7);
  Tensor whole = rand({24});
  Tensor part = whole.shrink({{10, 20}});  // realized on its own: another kernel over the same draw
  std::vector<float> p = part.to_vector<float>();
  EXPECT_EQ(whole.to_vector<float>(), x);  // same seed, same counters -> same values, any shape
  EXPECT_EQ(p, std::vector<float>(x.begin() + 10, x.begin() + 20));
  EXPECT_EQ(rand({24}).to_vector<float>(), y);
}

TEST(TensorRandom, RandIsUniform) {
  manual_seed(1);
  const int n = 1000000;
  for (DType dt : {dtypes::float32, dtypes::float64}) {
    std::vector<double> v = doubles(rand({n}, dt));
    EXPECT_NEAR(mean(v), 0.5, 5 * std::sqrt(1.0 / 12 / n));
    EXPECT_NEAR(var(v), 1.0 / 12, 0.002);
    EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
    EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
    // chi-square over 100 bins: 99 degrees of freedom, 99.9th percentile ~148
    std::vector<double> bins(100, 0);
    for (double x : v) bins[size_t(x * 100)]++;
    double chi2 = 0, e = double(n) / 100;
    for (double c : bins) chi2 += (c - e) * (c - e) / e;
    EXPECT_LT(chi2, 148.0) << dt.name();
  }
  // float16/bfloat16: in [0, 1), the mantissa grid
  for (DType dt : {dtypes::float16, dtypes::bfloat16}) {
    std::vector<double> v = doubles(rand({100000}, dt));
    EXPECT_NEAR(mean(v), 0.5, 0.01) << dt.name();
    EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
    EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
  }
}

TEST(TensorRandom, RandnUniformNormal) {
  manual_seed(2);
  const int n = 1000000;
  std::vector<double> z = doubles(randn({n}));
  EXPECT_NEAR(mean(z), 0.0, 5 / std::sqrt(double(n)));
  EXPECT_NEAR(var(z), 1.0, 0.01);
  size_t within1 = size_t(std::count_if(z.begin(), z.end(), [](double x) { return std::abs(x) < 1; }));
  EXPECT_NEAR(double(within1) / n, 0.682689, 0.003);
  std::vector<double> g = doubles(normal({200000}, 3.0, 0.5, dtypes::float64));
  EXPECT_NEAR(mean(g), 3.0, 0.01);
  EXPECT_NEAR(std::sqrt(var(g)), 0.5, 0.01);
  std::vector<double> u = doubles(uniform({200000}, -2.0, 6.0));
  EXPECT_NEAR(mean(u), 2.0, 0.05);
  EXPECT_GE(*std::min_element(u.begin(), u.end()), -2.0);
  EXPECT_LT(*std::max_element(u.begin(), u.end()), 6.0);
}

TEST(TensorRandom, RandintCoversTheRange) {
  manual_seed(3);
  std::vector<int64_t> v = randint(-5, 7, {120000}).to_vector<int64_t>();
  std::vector<int> counts(12, 0);
  for (int64_t x : v) {
    ASSERT_GE(x, -5);
    ASSERT_LT(x, 7);
    counts[size_t(x + 5)]++;
  }
  for (int c : counts) EXPECT_NEAR(c, 10000, 500);
  std::vector<uint8_t> b = randint(250, 256, {1000}, dtypes::uint8).to_vector<uint8_t>();
  EXPECT_EQ(*std::min_element(b.begin(), b.end()), 250);
  EXPECT_EQ(*std::max_element(b.begin(), b.end()), 255);
  // the whole int64 range: low + (word mod 2^64 - 1), no overflow
  std::vector<int64_t> w = randint(INT64_MIN, INT64_MAX, {1000}).to_vector<int64_t>();
  EXPECT_LT(*std::min_element(w.begin(), w.end()), INT64_MIN / 2);
  EXPECT_GT(*std::max_element(w.begin(), w.end()), INT64_MAX / 2);
}

TEST(TensorRandom, RandpermIsAPermutation) {
  manual_seed(4);
  for (int64_t n : {1, 2, 17, 1000}) {
    std::vector<int64_t> v = randperm(n).to_vector<int64_t>();
    std::vector<int64_t> s = v;
    std::sort(s.begin(), s.end());
    std::vector<int64_t> want(static_cast<size_t>(n));
    std::iota(want.begin(), want.end(), 0);
    EXPECT_EQ(s, want) << n;
    if (n == 1000) {
      EXPECT_NE(v, want);
    }
  }
  // every position is uniform: the first element of randperm(4) over many draws
  std::vector<int> first(4, 0);
  for (int k = 0; k < 400; k++) first[size_t(randperm(4).to_vector<int64_t>()[0])]++;
  for (int c : first) EXPECT_NEAR(c, 100, 40);
}

// The spec of uop/custom_kernels.h run here on the same words: the kernel must give the same
// permutation. Up to 2^20 elements two steps share a word; beyond, each has its own.
std::vector<int64_t> fisher_yates(const std::vector<uint64_t>& words, int64_t n, bool paired) {
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i++) {
    uint64_t w = words[size_t(paired ? i / 2 : i)];
    uint64_t x = i % 2 == 1 ? w * uint64_t(i) : w;
    auto j = int64_t((unsigned __int128)x * uint64_t(i + 1) >> 64);
    out[size_t(i)] = j < i ? out[size_t(j)] : i;
    out[size_t(j)] = i;
  }
  return out;
}

TEST(TensorRandom, RandpermIsTheFisherYatesShuffleOfItsWords) {
  for (int64_t n : std::vector<int64_t>{2, 3, 1001, int64_t(1) << 20, (int64_t(1) << 20) + 1}) {
    bool paired = n <= (int64_t(1) << 20);
    manual_seed(9);
    std::vector<int64_t> got = randperm(n).to_vector<int64_t>();
    manual_seed(9);
    std::vector<uint64_t> words = random_bits({paired ? (n + 1) / 2 : n}).to_vector<uint64_t>();
    EXPECT_EQ(got, fisher_yates(words, n, paired)) << n;
  }
}

TEST(TensorRandom, MultinomialFrequencies) {
  manual_seed(5);
  Tensor p = floats({0.1f, 0.0f, 0.6f, 0.3f, 0.0f}, {5});
  std::vector<int64_t> v = multinomial(p, 100000, true).to_vector<int64_t>();
  std::vector<double> freq(5, 0);
  for (int64_t x : v) freq[size_t(x)] += 1e-5;
  EXPECT_NEAR(freq[0], 0.1, 0.005);
  EXPECT_EQ(freq[1], 0.0);
  EXPECT_NEAR(freq[2], 0.6, 0.007);
  EXPECT_NEAR(freq[3], 0.3, 0.007);
  EXPECT_EQ(freq[4], 0.0);
  // unnormalised rows, 2-D
  Tensor q = floats({1, 1, 2, 0, 0, 5}, {2, 3});
  std::vector<int64_t> w = multinomial(q, 3000, true).to_vector<int64_t>();
  int c2 = 0;
  for (size_t i = 0; i < 3000; i++) {
    c2 += w[i] == 2;
    ASSERT_EQ(w[3000 + i], 2);
  }
  EXPECT_NEAR(c2, 1500, 120);
  // without replacement: distinct indices, never a zero weight while others remain
  for (int k = 0; k < 20; k++) {
    std::vector<int64_t> s = multinomial(p, 3).to_vector<int64_t>();
    std::sort(s.begin(), s.end());
    EXPECT_EQ(s, (std::vector<int64_t>{0, 2, 3}));
  }
  // the first draw without replacement follows the weights
  std::vector<int> first(3, 0);
  Tensor r = floats({0.2f, 0.3f, 0.5f}, {1, 3}).expand({2000, 3});
  std::vector<int64_t> f = multinomial(r, 2).to_vector<int64_t>();
  for (size_t i = 0; i < 2000; i++) {
    first[size_t(f[2 * i])]++;
    ASSERT_NE(f[2 * i], f[2 * i + 1]);
  }
  EXPECT_NEAR(first[0], 400, 70);
  EXPECT_NEAR(first[1], 600, 80);
  EXPECT_NEAR(first[2], 1000, 90);
}

TEST(TensorRandom, BernoulliAndDropoutRates) {
  manual_seed(6);
  const int n = 200000;
  std::vector<double> b = doubles(bernoulli(data({n}), 0.3));
  EXPECT_NEAR(mean(b), 0.3, 0.005);
  for (double x : b) ASSERT_TRUE(x == 0.0 || x == 1.0);
  std::vector<float> pv(n);
  for (int i = 0; i < n; i++) pv[size_t(i)] = i % 2 ? 0.9f : 0.1f;
  std::vector<double> bp = doubles(bernoulli(floats(pv, {n})));
  double odd = 0, even = 0;
  for (int i = 0; i < n; i++) (i % 2 ? odd : even) += bp[size_t(i)];
  EXPECT_NEAR(odd / (n / 2), 0.9, 0.005);
  EXPECT_NEAR(even / (n / 2), 0.1, 0.005);
  Tensor ones = Tensor::ones({n});
  std::vector<double> d = doubles(dropout(ones, 0.25));
  size_t zeros = size_t(std::count(d.begin(), d.end(), 0.0));
  EXPECT_NEAR(double(zeros) / n, 0.25, 0.005);
  for (double x : d) ASSERT_TRUE(x == 0.0 || std::abs(x - 1.0 / 0.75) < 1e-6);
  EXPECT_NEAR(mean(d), 1.0, 0.01);
  std::vector<double> all = doubles(dropout(ones, 1.0));
  EXPECT_EQ(*std::max_element(all.begin(), all.end()), 0.0);
}
