// Fashion-MNIST (src/nn/fashion_mnist.h): a small data set written here in the real files' layout,
// the checks on files that are not Fashion-MNIST, the install message when it is missing, and the
// real files when Debian's dataset-fashion-mnist is installed (skipped otherwise).
#include "nn/fashion_mnist.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <iostream>
#include <filesystem>

#include "file_testing.h"
#include "nn/data_loader.h"
#include "uop/errors.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::expect_error;
using onegrad::testing::TempDir;
using onegrad::testing::write_file;

namespace {

std::vector<std::byte> idx_u8(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& values) {
  return onegrad::testing::idx_bytes<uint8_t>(0x08, dims, values);
}

// n images whose pixels are all (i * 7) % 256, labels `labels`, as the test split in `dir`.
void write_split(const TempDir& dir, const std::vector<uint8_t>& labels, uint32_t side = 28) {
  std::vector<uint8_t> pixels;
  for (size_t i = 0; i < labels.size(); ++i) pixels.insert(pixels.end(), side * side, uint8_t(i * 7));
  write_file(dir.file("t10k-images-idx3-ubyte"), idx_u8({uint32_t(labels.size()), side, side}, pixels));
  write_file(dir.file("t10k-labels-idx1-ubyte"), idx_u8({uint32_t(labels.size())}, labels));
}

// Sets an environment variable for one scope.
struct ScopedEnv {
  ScopedEnv(const char* name, const std::string& value) : name(name) { setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { unsetenv(name); }
  const char* name;
};

}  // namespace

TEST(FashionMNIST, LoadsASplitAsImagesAndInt64Labels) {
  TempDir dir;
  write_split(dir, {3, 0, 9});
  FashionMNIST f = load_fashion_mnist(false, dir.str());
  EXPECT_EQ(f.images.dtype(), dtypes::uint8);
  EXPECT_EQ(f.images.shape(), (std::vector<int64_t>{3, 1, 28, 28}));
  EXPECT_EQ(f.labels.dtype(), dtypes::int64);
  EXPECT_EQ(f.labels.to_vector<int64_t>(), (std::vector<int64_t>{3, 0, 9}));
  std::vector<uint8_t> pixels = f.images.to_vector<uint8_t>();
  EXPECT_EQ(pixels[28 * 28 * 2 + 100], 14);
  // The environment variable is the default root.
  ScopedEnv env("ONEGRAD_FASHION_MNIST", dir.str());
  EXPECT_EQ(load_fashion_mnist(false).labels.to_vector<int64_t>(), (std::vector<int64_t>{3, 0, 9}));
}

TEST(FashionMNIST, AMissingDataSetSaysHowToInstallIt) {
  TempDir dir;
  expect_error<FileError>([&] { load_fashion_mnist(true, dir.str()); },
                          {"Fashion-MNIST: no train-images-idx3-ubyte(.gz) in '" + dir.str() + "'",
                           "apt-get install dataset-fashion-mnist", "ONEGRAD_FASHION_MNIST"});
  write_split(dir, {1});
  std::filesystem::remove(dir.file("t10k-labels-idx1-ubyte"));
  expect_error<FileError>([&] { load_fashion_mnist(false, dir.str()); }, {"no t10k-labels-idx1-ubyte(.gz)"});
  ScopedEnv env("ONEGRAD_FASHION_MNIST", dir.file("elsewhere"));
  expect_error<FileError>([&] { load_fashion_mnist(false); }, {"in '" + dir.file("elsewhere") + "'"});
}

TEST(FashionMNIST, FilesThatAreNotFashionMNISTAreFormatErrors) {
  TempDir dir;
  write_split(dir, {1, 10});
  expect_error<FormatError>([&] { load_fashion_mnist(false, dir.str()); },
                            {"Fashion-MNIST file '" + dir.file("t10k-labels-idx1-ubyte") + "': label 1 is 10, past class 9"});
  write_split(dir, {1, 2}, 27);
  expect_error<FormatError>([&] { load_fashion_mnist(false, dir.str()); }, {"expected uint8 images of N x 28 x 28"});
  write_split(dir, {1, 2});
  write_file(dir.file("t10k-labels-idx1-ubyte"), idx_u8({3}, {1, 2, 3}));
  expect_error<FormatError>([&] { load_fashion_mnist(false, dir.str()); }, {"expected 2 uint8 labels (one per image)"});
}

TEST(FashionMNIST, ClassNames) {
  EXPECT_EQ(fashion_mnist_classes()[0], "T-shirt/top");
  EXPECT_EQ(fashion_mnist_classes()[9], "Ankle boot");
}

// The real files, when Debian's dataset-fashion-mnist is installed.
TEST(FashionMNIST, TheDebianFilesLoadFast) {
  if (!std::filesystem::exists(std::string(kFashionMnistDebianDir) + "/train-images-idx3-ubyte.gz"))
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  auto start = std::chrono::steady_clock::now();
  FashionMNISTArrays train = read_fashion_mnist(true, kFashionMnistDebianDir);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(train.images.shape, (std::vector<int64_t>{60000, 1, 28, 28}));
  EXPECT_EQ(train.labels.shape, std::vector<int64_t>{60000});
  // A generous bound for a shared machine; it takes 0.2-0.4 s, mostly inflating.
  EXPECT_LT(seconds, 3.0);
  std::cout << "[ info ] Fashion-MNIST train split read in " << seconds << " s\n";
  FashionMNIST test = load_fashion_mnist(false);
  EXPECT_EQ(test.images.shape(), (std::vector<int64_t>{10000, 1, 28, 28}));
  auto labels = test.labels.to_vector<int64_t>();
  std::vector<int64_t> counts(10);
  for (int64_t l : labels) counts.at(size_t(l))++;
  for (int64_t c : counts) EXPECT_EQ(c, 1000);  // the test split is balanced: 1,000 per class
  DataLoader loader({std::move(train.images), std::move(train.labels)}, 128, true, false, 0);
  EXPECT_EQ(loader.size(), 469);
  EXPECT_EQ(loader.batch(0, 468)[0].shape(), (std::vector<int64_t>{96, 1, 28, 28}));
}
