#include "runtime/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "uop/errors.h"

namespace onegrad {
namespace {

TEST(RuntimeBuffer, DescribesItsStorage) {
  Buffer b("CPU:0", ScalarType::FLOAT32, 10);
  EXPECT_EQ(b.device(), "CPU");
  EXPECT_EQ(b.dtype(), DType(ScalarType::FLOAT32));
  EXPECT_EQ(b.count(), 10u);
  EXPECT_EQ(b.nbytes(), 40u);
  EXPECT_FALSE(b.is_allocated());  // lazily: describing a buffer allocates nothing
  void* p = b.data();
  EXPECT_TRUE(b.is_allocated());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_EQ(b.data(), p);
}

TEST(RuntimeBuffer, CopyRoundTrip) {
  std::vector<int64_t> in = {1, -2, 3, INT64_MAX, INT64_MIN};
  Buffer b("CPU", ScalarType::INT64, in.size());
  b.copyin(in.data(), in.size() * sizeof(int64_t));
  std::vector<int64_t> out(in.size());
  b.copyout(out.data(), out.size() * sizeof(int64_t));
  EXPECT_EQ(out, in);
}

TEST(RuntimeBuffer, EmptyBufferCopiesNothing) {
  Buffer b("CPU", ScalarType::FLOAT32, 0);
  EXPECT_EQ(b.nbytes(), 0u);
  b.copyin(nullptr, 0);
  b.copyout(nullptr, 0);
  EXPECT_NE(b.data(), nullptr);
}

TEST(RuntimeBuffer, SizeMismatchNamesBothSizes) {
  Buffer b("CPU", ScalarType::FLOAT32, 4);
  std::vector<float> big(5, 1.0f);
  try {
    b.copyin(big.data(), big.size() * sizeof(float));
    FAIL() << "copyin of the wrong size did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "copyin of 20 bytes into a buffer of 16 bytes (4 x float32)");
  }
  try {
    b.copyout(big.data(), 12);
    FAIL() << "copyout of the wrong size did not throw";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(), "copyout of 12 bytes from a buffer of 16 bytes (4 x float32)");
  }
  EXPECT_EQ(big[0], 1.0f);  // the failed copyout wrote nothing
}

TEST(RuntimeBuffer, BadDescriptionsThrow) {
  EXPECT_THROW(Buffer("CPU", ScalarType::VOID, 4), DTypeError);
  EXPECT_THROW(Buffer("GPU9", ScalarType::FLOAT32, 4), DeviceError);
  EXPECT_THROW(Buffer("CPU", ScalarType::FLOAT64, SIZE_MAX / 4), DeviceError);
}

TEST(RuntimeBuffer, MoveTransfersStorage) {
  Buffer a("CPU", ScalarType::INT32, 3);
  void* p = a.data();
  Buffer b = std::move(a);
  EXPECT_EQ(b.data(), p);
  Buffer c("CPU", ScalarType::INT8, 1);
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.count(), 3u);
}

}  // namespace
}  // namespace onegrad
