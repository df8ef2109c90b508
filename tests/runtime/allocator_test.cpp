// HostAllocator (runtime/allocator.h): large blocks are kept when freed and handed out again for
// the same size, so a kernel writing a fresh output does not fault in every page.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "runtime/allocator.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

TEST(HostAllocator, LargeBlockIsReusedForTheSameSize) {
  HostAllocator a;
  size_t n = 4 << 20;
  void* p = a.alloc(n);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % HostAllocator::kAlignment, 0u);
  std::memset(p, 1, n);
  a.free(p, n);
  void* q = a.alloc(n);
  EXPECT_EQ(q, p);
  void* other = a.alloc(2 * n);  // another size never gets the kept block
  EXPECT_NE(other, p);
  void* again = a.alloc(n);  // the kept block is in use: a new one
  EXPECT_NE(again, q);
  a.free(q, n);
  a.free(other, 2 * n);
  a.free(again, n);
}

TEST(HostAllocator, KeepsAtMostTheLimit) {
  ScopedSetting limit("CPU_ALLOC_REUSE_MB", 4);
  HostAllocator a;
  size_t n = 4 << 20;
  void* p1 = a.alloc(n);
  void* p2 = a.alloc(n);
  a.free(p1, n);  // kept: 4 MiB
  a.free(p2, n);  // past the limit: back to the system
  EXPECT_EQ(a.alloc(n), p1);
  a.free(p1, n);
  EXPECT_EQ(a.stats().current_bytes, 0u);  // kept blocks are free memory to the accounting
}

}  // namespace
}  // namespace onegrad
