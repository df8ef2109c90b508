// Buffer views (a buffer inside another's storage) and the allocator's exact accounting, which the
// memory plan is measured by.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/allocator.h"
#include "runtime/buffer.h"
#include "runtime/device.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

TEST(BufferView, ReadsAndWritesTheViewedBytes) {
  auto storage = std::make_shared<Buffer>("CPU", dtypes::uint8, 256);
  Buffer lo(storage, 0, dtypes::float32, 4), hi(storage, 128, dtypes::int32, 3);
  EXPECT_TRUE(lo.is_view());
  EXPECT_FALSE(storage->is_view());
  EXPECT_FALSE(lo.is_allocated());  // nothing is allocated until someone needs the bytes
  std::vector<float> f = {1.5f, -2.f, 3.25f, 4.f};
  std::vector<int32_t> i = {7, -8, 9};
  lo.copyin(f.data(), 16);
  hi.copyin(i.data(), 12);
  EXPECT_TRUE(storage->is_allocated());
  EXPECT_EQ(lo.data(), storage->data());
  EXPECT_EQ(static_cast<std::byte*>(hi.data()), static_cast<std::byte*>(storage->data()) + 128);
  EXPECT_EQ(hi.offset(), 128u);
  std::vector<uint8_t> raw(256);
  storage->copyout(raw.data(), 256);
  float f1;
  int32_t i2;
  std::memcpy(&f1, raw.data() + 4, 4);
  std::memcpy(&i2, raw.data() + 128 + 8, 4);
  EXPECT_EQ(f1, -2.f);
  EXPECT_EQ(i2, 9);
}

TEST(BufferView, TwoViewsOfOneSlotSeeTheSameBytes) {
  auto storage = std::make_shared<Buffer>("CPU", dtypes::uint8, 64);
  Buffer a(storage, 0, dtypes::int32, 4), b(storage, 0, dtypes::uint32, 2);
  std::vector<int32_t> in = {-1, 2, 3, 4};
  a.copyin(in.data(), 16);
  std::vector<uint32_t> out(2);
  b.copyout(out.data(), 8);
  EXPECT_EQ(out, (std::vector<uint32_t>{0xffffffffu, 2u}));
}

TEST(BufferView, KeepsItsStorageAliveAndFreesNothingItself) {
  Allocator& alloc = get_device("CPU").allocator();
  uint64_t before = alloc.stats().current_bytes;
  auto storage = std::make_shared<Buffer>("CPU", dtypes::uint8, 1000);
  auto view = std::make_unique<Buffer>(storage, 64, dtypes::float32, 10);
  view->data();
  EXPECT_EQ(alloc.stats().current_bytes, before + 1000);
  storage.reset();  // the view still holds it
  EXPECT_EQ(alloc.stats().current_bytes, before + 1000);
  Buffer moved = std::move(*view);
  view.reset();
  EXPECT_EQ(alloc.stats().current_bytes, before + 1000);
  EXPECT_TRUE(moved.is_view());
  moved = Buffer("CPU", dtypes::float32, 1);  // drops the last reference to the storage
  EXPECT_EQ(alloc.stats().current_bytes, before);
}

TEST(BufferView, ThatDoesNotFitThrows) {
  auto storage = std::make_shared<Buffer>("CPU", dtypes::uint8, 64);
  try {
    Buffer v(storage, 32, dtypes::float32, 9);
    FAIL() << "a view past the end was accepted";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "a view of 36 bytes at offset 32 does not fit in a buffer of 64 bytes");
  }
  try {
    Buffer v(storage, 2, dtypes::float32, 1);
    FAIL() << "a misaligned view was accepted";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "a view of float32 elements at byte offset 2 is not aligned to 4 bytes");
  }
  try {
    Buffer v(nullptr, 0, dtypes::float32, 1);
    FAIL() << "a view of nothing was accepted";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "a buffer view needs a storage buffer, not null");
  }
  EXPECT_NO_THROW(Buffer(storage, 64, dtypes::float32, 0));  // an empty view at the end fits
}

TEST(AllocatorStats, CountsCurrentPeakAndAllocationsExactly) {
  HostAllocator alloc;
  void* a = alloc.alloc(100);
  void* b = alloc.alloc(28);
  AllocatorStats s = alloc.stats();
  EXPECT_EQ(s.current_bytes, 128u);
  EXPECT_EQ(s.peak_bytes, 128u);
  EXPECT_EQ(s.allocations, 2u);
  alloc.free(a, 100);
  void* c = alloc.alloc(10);
  s = alloc.stats();
  EXPECT_EQ(s.current_bytes, 38u);
  EXPECT_EQ(s.peak_bytes, 128u);
  EXPECT_EQ(s.allocations, 3u);
  EXPECT_EQ(s.frees, 1u);
  alloc.reset_peak();
  EXPECT_EQ(alloc.stats().peak_bytes, 38u);
  alloc.free(b, 28);
  alloc.free(c, 10);
  s = alloc.stats();
  EXPECT_EQ(s.current_bytes, 0u);
  EXPECT_EQ(s.peak_bytes, 38u);
}

TEST(AllocatorStats, BuffersAllocateOnFirstUseAndFreeWhatTheyAllocated) {
  Allocator& alloc = get_device("CPU").allocator();
  AllocatorStats before = alloc.stats();
  {
    Buffer b("CPU", dtypes::float64, 3);
    EXPECT_EQ(alloc.stats().allocations, before.allocations);
    b.data();
    EXPECT_EQ(alloc.stats().current_bytes, before.current_bytes + 24);
    EXPECT_EQ(alloc.stats().allocations, before.allocations + 1);
  }
  EXPECT_EQ(alloc.stats().current_bytes, before.current_bytes);
}

TEST(AllocatorStats, AFailedAllocationCountsNothing) {
  HostAllocator alloc;
  EXPECT_THROW(alloc.alloc(SIZE_MAX), DeviceError);
  EXPECT_EQ(alloc.stats().allocations, 0u);
  EXPECT_EQ(alloc.stats().current_bytes, 0u);
}

}  // namespace
}  // namespace onegrad
