// Index math through the whole pipeline: Rangeify writes reshapes as flatten-then-split with // and
// %, and the symbolic simplifier must remove every one the ranges make redundant: the
// kernel for a reshape/permute of a contiguous tensor has no / or % left, so it is a plain copy loop.
#include <gtest/gtest.h>

#include "render/lower_kernel.h"
#include "schedule/callify.h"
#include "schedule/rangeify.h"
#include "tensor/tensor.h"

namespace onegrad {
namespace {

// The C source of the one kernel that realizes `t`, without the prelude (helpers, includes).
std::string kernel_body(const Tensor& t) {
  std::vector<UOpRef> outs{t.uop()};
  Schedule s = rangeify(callify(outs).function);
  EXPECT_EQ(s.kernels.size(), 1u);
  std::string src = lower_kernel(s.kernels.at(0).ast).spec.source;
  return src.substr(src.find("static void"));  // the kernel function and its entry point
}

bool has_div_or_mod(const std::string& src) {
  return src.find('/') != std::string::npos || src.find('%') != std::string::npos;
}

TEST(IndexMath, ReshapeAndPermuteOfContiguousHaveNoDivMod) {
  Tensor x = Tensor::ones({6, 8}).contiguous().realize();
  for (const Tensor& t : {x.reshape({8, 6}) + 1, x.reshape({2, 3, 8}).permute({2, 0, 1}) + 1,
                          x.reshape({48}) + 1, x.reshape({2, 3, 2, 4}).permute({1, 3, 0, 2}) + 1,
                          x.permute({1, 0}).reshape({8, 2, 3}) + 1}) {
    std::string body = kernel_body(t);
    EXPECT_FALSE(has_div_or_mod(body)) << body;
  }
}

TEST(IndexMath, AReshapeThatMixesAxesKeepsItsDivMod) {
  // (6, 8) permuted to (8, 6) is not contiguous: reshaping it to (48,) needs a split.
  Tensor x = Tensor::ones({6, 8}).contiguous().realize();
  std::string body = kernel_body(x.permute({1, 0}).reshape({48}) + 1);
  EXPECT_TRUE(has_div_or_mod(body)) << body;
}

}  // namespace
}  // namespace onegrad
