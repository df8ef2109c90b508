// Mini-batches over arrays with one row per sample (images and labels), as PyTorch's DataLoader over
// a TensorDataset (docs/nn.md "Data and files"). The data lives on the host; a batch is gathered row
// by row with memcpy into a new CPU tensor, so batching runs no kernel.
//
// Shuffling is seeded and reproducible: the order of an epoch depends only on (seed, epoch), the
// same on every machine (our own Fisher-Yates over splitmix64, not std::shuffle, whose algorithm
// the standard leaves open). Each pass over the loader is the next epoch, so each pass reshuffles.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "nn/host_array.h"

namespace onegrad::nn {

class DataLoader {
 public:
  // The tensors are realized and copied to the host once. They must all have the same first
  // dimension (ShapeError); batch_size must be positive (ArgumentError).
  DataLoader(const std::vector<Tensor>& tensors, int64_t batch_size, bool shuffle = false, bool drop_last = false,
             uint64_t seed = 0);
  // Host arrays (a file reader's output) are taken as they are: no tensor, no copy.
  DataLoader(std::vector<HostArray> arrays, int64_t batch_size, bool shuffle = false, bool drop_last = false,
             uint64_t seed = 0);

  int64_t size() const;  // batches per epoch (a last, short batch counts unless drop_last)
  int64_t num_samples() const { return num_samples_; }
  int64_t batch_size() const { return batch_size_; }

  // The sample order of an epoch: 0..N-1, or its seeded permutation when shuffling.
  std::vector<int64_t> order(int64_t epoch) const;
  // Batch `index` (0 <= index < size()) of an epoch: one CPU tensor per array, rows in order(epoch).
  std::vector<Tensor> batch(int64_t epoch, int64_t index) const;

  // The epoch the next pass (begin()) uses; every begin() moves it on by one.
  int64_t next_epoch() const { return next_epoch_; }
  void set_epoch(int64_t epoch) { next_epoch_ = epoch; }

  class Iterator {
   public:
    std::vector<Tensor> operator*() const { return loader_->batch_in(*order_, index_); }
    Iterator& operator++() {
      ++index_;
      return *this;
    }
    bool operator==(const Iterator& o) const { return index_ == o.index_; }

   private:
    friend class DataLoader;
    Iterator(const DataLoader* loader, std::shared_ptr<const std::vector<int64_t>> order, int64_t index)
        : loader_(loader), order_(std::move(order)), index_(index) {}
    const DataLoader* loader_;
    std::shared_ptr<const std::vector<int64_t>> order_;
    int64_t index_;
  };
  Iterator begin();  // a pass over the next epoch
  Iterator end() const { return Iterator(this, nullptr, size()); }

 private:
  std::vector<Tensor> batch_in(const std::vector<int64_t>& order, int64_t index) const;

  std::vector<HostArray> arrays_;
  int64_t num_samples_ = 0;
  int64_t batch_size_;
  bool shuffle_, drop_last_;
  uint64_t seed_;
  int64_t next_epoch_ = 0;
};

}  // namespace onegrad::nn
