// Fashion-MNIST (docs/nn.md "Data and files"): 28x28 grey images of clothes in 10 classes, 60,000 to
// train on and 10,000 to test, as Debian's dataset-fashion-mnist installs them (four gzipped IDX
// files in /usr/share/datasets/fashion-mnist/).
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "nn/idx_file.h"
#include "tensor/tensor.h"

namespace onegrad::nn {

inline constexpr const char* kFashionMnistDebianDir = "/usr/share/datasets/fashion-mnist";

struct FashionMNIST {
  Tensor images;  // uint8, N x 1 x 28 x 28 (0 = background, 255 = ink)
  Tensor labels;  // int64, N, each in 0..9 (an index into fashion_mnist_classes())
};

// The same split on the host: the bytes a DataLoader gathers batches from without a kernel.
struct FashionMNISTArrays {
  HostArray images;  // uint8, N x 1 x 28 x 28
  HostArray labels;  // int64, N
};

// train: the 60,000-image split, else the 10,000-image test split. root: a folder with the files
// (train-images-idx3-ubyte.gz, ... or the same names without .gz); empty means $ONEGRAD_FASHION_MNIST,
// else the Debian folder. A missing file is a FileError that says how to install the data set;
// files that do not look like Fashion-MNIST (shapes, dtypes, labels past 9) are a FormatError.
FashionMNIST load_fashion_mnist(bool train, std::string root = "");
FashionMNISTArrays read_fashion_mnist(bool train, std::string root = "");

// "T-shirt/top", "Trouser", ..., "Ankle boot": the name of each label.
const std::array<std::string_view, 10>& fashion_mnist_classes();

}  // namespace onegrad::nn
