#include "nn/fashion_mnist.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "nn/file_bytes.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

constexpr int64_t kSide = 28;

std::string default_root() {
  const char* env = std::getenv("ONEGRAD_FASHION_MNIST");
  return env && *env ? std::string(env) : std::string(kFashionMnistDebianDir);
}

// `stem` (train-images-idx3-ubyte) in root, gzipped or not.
std::string find_file(const std::string& root, const std::string& stem) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& name : {stem + ".gz", stem}) {
    fs::path p = fs::path(root) / name;
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  throw FileError("Fashion-MNIST: no " + stem + "(.gz) in '" + root +
                  "'. Install the data set with `apt-get install dataset-fashion-mnist` (Debian; it puts the files in " +
                  kFashionMnistDebianDir + "), or set ONEGRAD_FASHION_MNIST to a folder that holds them");
}

}  // namespace

FashionMNISTArrays read_fashion_mnist(bool train, std::string root) {
  if (root.empty()) root = default_root();
  std::string prefix = train ? "train" : "t10k";
  // Both paths first: a missing labels file is reported before a minute is spent on the images.
  std::string images_path = find_file(root, prefix + "-images-idx3-ubyte");
  std::string labels_path = find_file(root, prefix + "-labels-idx1-ubyte");
  FashionMNISTArrays out{read_idx(images_path), read_idx(labels_path)};
  HostArray& images = out.images;
  HostArray& labels = out.labels;
  auto fail = [](const std::string& path, const std::string& problem) { throw_format_error("Fashion-MNIST", path, problem); };
  if (images.dtype != dtypes::uint8 || images.shape.size() != 3 || images.shape[1] != kSide || images.shape[2] != kSide)
    fail(images_path, "expected uint8 images of N x 28 x 28, found " + images.dtype.name() + " of rank " +
                          std::to_string(images.shape.size()));
  if (labels.dtype != dtypes::uint8 || labels.shape.size() != 1 || labels.shape[0] != images.shape[0])
    fail(labels_path, "expected " + std::to_string(images.shape[0]) + " uint8 labels (one per image)");
  images.shape = {images.shape[0], 1, kSide, kSide};  // the channel axis a Conv2d expects
  // Labels widen to int64 on the host (the dtype cross_entropy takes), checked on the way.
  std::vector<std::byte> wide(labels.data.size() * sizeof(int64_t));
  int64_t* dst = reinterpret_cast<int64_t*>(wide.data());
  for (size_t i = 0; i < labels.data.size(); ++i) {
    uint8_t label = uint8_t(labels.data[i]);
    if (label > 9) fail(labels_path, "label " + std::to_string(i) + " is " + std::to_string(label) + ", past class 9");
    dst[i] = label;
  }
  labels.data = std::move(wide);
  labels.dtype = dtypes::int64;
  return out;
}

FashionMNIST load_fashion_mnist(bool train, std::string root) {
  FashionMNISTArrays a = read_fashion_mnist(train, std::move(root));
  return {a.images.to_tensor(), a.labels.to_tensor()};
}

const std::array<std::string_view, 10>& fashion_mnist_classes() {
  static const std::array<std::string_view, 10> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                         "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return names;
}

}  // namespace onegrad::nn
