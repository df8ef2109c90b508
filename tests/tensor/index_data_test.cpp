// index_data_range: the in-place check of buffer-data index values (tensor/index_data.h), on host
// bytes. Brute force is the oracle: every value compared with lo and hi one by one.
#include <limits>

#include "tensor/index_data.h"
#include "tensor_testing.h"

using namespace onegrad;

namespace {

template <class T>
void expect_like_brute_force(const std::vector<T>& v, DType dt, int64_t lo, int64_t hi) {
  bool in = true, negative = false;
  for (T x : v) {
    int64_t y = std::is_same_v<T, uint64_t> && uint64_t(x) > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(x);
    in = in && lo <= y && y < hi;
    negative = negative || y < 0;
  }
  auto r = index_data_range(Tensor::from_vector(v, {int64_t(v.size())}, dt), lo, hi);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->in_range, in) << "lo " << lo << " hi " << hi;
  EXPECT_EQ(r->negative, negative) << "lo " << lo << " hi " << hi;
}

}  // namespace

TEST(IndexData, EdgesOfTheRangeAndOfTheDtype) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  // Lengths 1..9 put a value in every lane and in the scalar tail.
  std::vector<std::vector<int64_t>> cases = {
      {0}, {4}, {-5}, {-6}, {0, 1, 2, 3, 4, 4, 3, 2, 1}, {0, 1, 2, 3, 4, 5, 3, 2, 1}, {kMin}, {kMax},
      {1, 2, kMin, 3}, {1, 2, 3, 4, 5 - 1, kMax}, {-1, 0, 1, -2, 2, 3}, {3, 3, 3, 3, 3, 3, 3, -5}};
  for (const auto& v : cases)
    for (auto [lo, hi] : {std::pair<int64_t, int64_t>{0, 5}, {-5, 5}, {0, 1}, {0, 0}, {-(int64_t(1) << 62), int64_t(1) << 62}})
      expect_like_brute_force(v, dtypes::int64, lo, hi);
}

TEST(IndexData, NarrowAndUnsignedDtypes) {
  expect_like_brute_force<int8_t>({-128, 0, 127, 5}, dtypes::int8, -128, 128);
  expect_like_brute_force<int8_t>({-128, 0, 127, 5}, dtypes::int8, 0, 128);
  expect_like_brute_force<uint8_t>({255, 0, 7}, dtypes::uint8, 0, 255);
  expect_like_brute_force<uint8_t>({254, 0, 7}, dtypes::uint8, 0, 255);
  expect_like_brute_force<int16_t>({-3, 2, 1, 0, -1}, dtypes::int16, -3, 3);
  expect_like_brute_force<int32_t>({-4, 2, 1, 0, -1}, dtypes::int32, -3, 3);
  expect_like_brute_force<uint32_t>({4000000000u, 1}, dtypes::uint32, 0, 5);
  expect_like_brute_force<uint64_t>({(uint64_t(1) << 63) + 5, 1}, dtypes::uint64, 0, 5);
  expect_like_brute_force<uint64_t>({0, 1, 2, 3, 4}, dtypes::uint64, 0, 5);
}

TEST(IndexData, OnlyBufferDataIsKnown) {
  Tensor i = Tensor::from_vector(std::vector<int64_t>{0, 1, 2}, {3}, dtypes::int64);
  EXPECT_TRUE(index_data_range(i, 0, 3).has_value());                                     // the buffer
  EXPECT_FALSE(index_data_range(i.add(ConstValue::from_int(1)), 0, 3).has_value());       // computed
  EXPECT_FALSE(index_data_range(i.shrink({{0, 2}}), 0, 3).has_value());                   // a part
  EXPECT_FALSE(index_data_range(Tensor::from_vector(std::vector<float>{1}, {1}, dtypes::float32), 0, 3).has_value());
}
