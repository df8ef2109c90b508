// The DataLoader (src/nn/data_loader.h): batch contents and sizes, drop_last, seeded shuffling that
// is reproducible per (seed, epoch) and pinned by a golden order, rows of all tensors kept
// together, and the error messages.
#include "nn/data_loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "file_testing.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::expect_error;

namespace {

// n samples: x row i is {10 i, 10 i + 1} (float), y[i] = i (int64).
std::vector<Tensor> samples(int64_t n) {
  std::vector<float> x;
  std::vector<int64_t> y;
  for (int64_t i = 0; i < n; ++i) {
    x.push_back(float(10 * i));
    x.push_back(float(10 * i + 1));
    y.push_back(i);
  }
  return {Tensor::from_vector(x, {n, 2}, dtypes::float32), Tensor::from_vector(y, {n}, dtypes::int64)};
}

}  // namespace

TEST(DataLoader, BatchesInOrderWithAShortLastBatch) {
  DataLoader loader(samples(10), 4);
  EXPECT_EQ(loader.size(), 3);
  EXPECT_EQ(loader.num_samples(), 10);
  std::vector<std::vector<int64_t>> labels;
  for (const std::vector<Tensor>& batch : loader) {
    ASSERT_EQ(batch.size(), 2u);
    EXPECT_EQ(batch[0].shape(), (std::vector<int64_t>{batch[1].shape()[0], 2}));
    EXPECT_EQ(batch[0].device(), "CPU");
    labels.push_back(batch[1].to_vector<int64_t>());
  }
  EXPECT_EQ(labels, (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
  EXPECT_EQ(loader.batch(0, 2)[0].to_vector<float>(), (std::vector<float>{80, 81, 90, 91}));
}

TEST(DataLoader, DropLastDropsTheShortBatch) {
  DataLoader loader(samples(10), 4, false, true);
  EXPECT_EQ(loader.size(), 2);
  int64_t seen = 0;
  for (const auto& batch : loader) seen += batch[1].shape()[0];
  EXPECT_EQ(seen, 8);
  EXPECT_EQ(DataLoader(samples(3), 4, false, true).size(), 0);
}

TEST(DataLoader, ShuffleIsSeededPerEpochAndKeepsRowsTogether) {
  DataLoader a(samples(50), 8, true, false, 42), b(samples(50), 8, true, false, 42), c(samples(50), 8, true, false, 43);
  EXPECT_EQ(a.order(0), b.order(0));
  EXPECT_NE(a.order(0), a.order(1));
  EXPECT_NE(a.order(0), c.order(0));
  std::vector<int64_t> sorted = a.order(3);
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> all(50);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(sorted, all);
  // Two passes are two epochs: each yields every sample once, in order(epoch), with its own x row.
  for (int64_t epoch = 0; epoch < 2; ++epoch) {
    EXPECT_EQ(a.next_epoch(), epoch);
    std::vector<int64_t> seen;
    for (const auto& batch : a) {
      auto x = batch[0].to_vector<float>();
      auto y = batch[1].to_vector<int64_t>();
      for (size_t i = 0; i < y.size(); ++i) EXPECT_EQ(x[2 * i], float(10 * y[i]));
      seen.insert(seen.end(), y.begin(), y.end());
    }
    EXPECT_EQ(seen, a.order(epoch));
  }
  a.set_epoch(0);
  EXPECT_EQ((*a.begin())[1].to_vector<int64_t>(), b.batch(0, 0)[1].to_vector<int64_t>());
}

TEST(DataLoader, TheShuffledOrderIsTheSameOnEveryMachine) {
  // splitmix64 + Fisher-Yates is fixed by its definition: this order must never change (the same
  // order comes from the independent Python model in tests/python/test_data.py).
  DataLoader loader(samples(10), 1, true, false, 0);
  EXPECT_EQ(loader.order(0), (std::vector<int64_t>{0, 1, 4, 6, 3, 9, 8, 7, 2, 5}));
}

TEST(DataLoader, BadArgumentsAreTypedErrors) {
  std::vector<Tensor> s = samples(4);
  expect_error<ShapeError>([&] { DataLoader({s[0], samples(5)[1]}, 2); },
                           {"DataLoader: tensor 1 has 5 samples (first dimension) but tensor 0 has 4"});
  expect_error<ShapeError>([&] { DataLoader({Tensor::scalar(ConstValue::from_int(1), dtypes::int32)}, 2); },
                           {"DataLoader: tensor 0 is a scalar"});
  expect_error<ArgumentError>([&] { DataLoader(s, 0); }, {"DataLoader: batch_size must be positive, got 0"});
  expect_error<ArgumentError>([&] { DataLoader(std::vector<Tensor>{}, 2); }, {"DataLoader: no tensors to load from"});
  expect_error<ArgumentError>([&] { DataLoader(s, 2).batch(0, 2); }, {"DataLoader: batch 2 of 2"});
}
