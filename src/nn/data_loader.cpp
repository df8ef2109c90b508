#include "nn/data_loader.h"

#include <cstring>
#include <numeric>

#include "uop/errors.h"

namespace onegrad::nn {

namespace {

std::vector<HostArray> to_host(const std::vector<Tensor>& tensors) {
  std::vector<Tensor> copies(tensors);
  std::vector<Tensor*> ptrs;
  for (Tensor& t : copies) ptrs.push_back(&t);
  Tensor::realize_all(ptrs);  // one schedule for all of them
  std::vector<HostArray> out;
  for (const Tensor& t : copies) out.push_back(HostArray::from_tensor(t));
  return out;
}

// splitmix64 (Steele, Lea, Flood 2014): a 64-bit generator whose output is fixed by its definition.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Uniform in [0, n) without modulo bias: draws past the largest multiple of n are drawn again.
uint64_t uniform_below(uint64_t& state, uint64_t n) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;) {
    uint64_t r = splitmix64(state);
    if (r < limit) return r % n;
  }
}

size_t row_bytes(const HostArray& a) {
  size_t n = size_t(a.dtype.itemsize());
  for (size_t i = 1; i < a.shape.size(); ++i) n *= size_t(a.shape[i]);
  return n;
}

}  // namespace

DataLoader::DataLoader(const std::vector<Tensor>& tensors, int64_t batch_size, bool shuffle, bool drop_last,
                       uint64_t seed)
    : DataLoader(to_host(tensors), batch_size, shuffle, drop_last, seed) {}

DataLoader::DataLoader(std::vector<HostArray> arrays, int64_t batch_size, bool shuffle, bool drop_last, uint64_t seed)
    : arrays_(std::move(arrays)), batch_size_(batch_size), shuffle_(shuffle), drop_last_(drop_last), seed_(seed) {
  if (arrays_.empty()) throw ArgumentError("DataLoader: no tensors to load from");
  if (batch_size <= 0) throw ArgumentError("DataLoader: batch_size must be positive, got " + std::to_string(batch_size));
  for (size_t i = 0; i < arrays_.size(); ++i) {
    const HostArray& a = arrays_[i];
    if (a.shape.empty()) throw ShapeError("DataLoader: tensor " + std::to_string(i) + " is a scalar; every tensor needs a first dimension of samples");
    if (a.shape[0] != arrays_[0].shape[0])
      throw ShapeError("DataLoader: tensor " + std::to_string(i) + " has " + std::to_string(a.shape[0]) +
                       " samples (first dimension) but tensor 0 has " + std::to_string(arrays_[0].shape[0]));
  }
  num_samples_ = arrays_[0].shape[0];
}

int64_t DataLoader::size() const {
  return drop_last_ ? num_samples_ / batch_size_ : (num_samples_ + batch_size_ - 1) / batch_size_;
}

std::vector<int64_t> DataLoader::order(int64_t epoch) const {
  std::vector<int64_t> out(static_cast<size_t>(num_samples_));
  std::iota(out.begin(), out.end(), int64_t(0));
  if (!shuffle_) return out;
  // Each (seed, epoch) pair starts its own stream: epochs differ, reruns agree.
  uint64_t state = seed_;
  state = splitmix64(state) ^ uint64_t(epoch);
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[uniform_below(state, i)]);
  return out;
}

std::vector<Tensor> DataLoader::batch(int64_t epoch, int64_t index) const { return batch_in(order(epoch), index); }

std::vector<Tensor> DataLoader::batch_in(const std::vector<int64_t>& order, int64_t index) const {
  if (index < 0 || index >= size())
    throw ArgumentError("DataLoader: batch " + std::to_string(index) + " of " + std::to_string(size()));
  int64_t first = index * batch_size_;
  int64_t rows = std::min(batch_size_, num_samples_ - first);
  std::vector<Tensor> out;
  std::vector<std::byte> staging;
  for (const HostArray& a : arrays_) {
    size_t rb = row_bytes(a);
    std::vector<int64_t> shape = a.shape;
    shape[0] = rows;
    staging.resize(size_t(rows) * rb);
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(staging.data() + size_t(r) * rb, a.data.data() + size_t(order[size_t(first + r)]) * rb, rb);
    out.push_back(Tensor::from_data(staging.data(), staging.size(), shape, a.dtype));
  }
  return out;
}

DataLoader::Iterator DataLoader::begin() {
  auto o = std::make_shared<const std::vector<int64_t>>(order(next_epoch_++));
  return Iterator(this, std::move(o), 0);
}

}  // namespace onegrad::nn
