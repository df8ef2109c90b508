// THREEFRY as the CPU backend computes it: codegen/threefry.h's decomposition into uint32 ARX
// primitives, lowered by lower_kernel, compiled and run. Checked against Random123's known-answer
// vectors for Threefry-2x32-20 (kat_vectors: "threefry2x32 20 ctr0 ctr1 key0 key1 -> out0 out1")
// and against an independent scalar reference written here from the paper's description.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "codegen/isel.h"
#include "codegen/threefry.h"
#include "render/c_renderer.h"
#include "render_test_util.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// Threefry-2x32 with `rounds` rounds (Salmon et al. 2011, Random123 threefry.h), written out
// independently of the decomposition: key schedule ks = (k0, k1, k0^k1^0x1BD11BDA), injections
// every 4 rounds with the round-group number added to word 1.
std::pair<uint32_t, uint32_t> threefry2x32_ref(uint32_t c0, uint32_t c1, uint32_t k0, uint32_t k1, int rounds = 20) {
  static const int R[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x0 = c0 + ks[0], x1 = c1 + ks[1];
  for (int r = 0; r < rounds; r++) {
    x0 += x1;
    int rot = R[r % 8];
    x1 = (x1 << rot) | (x1 >> (32 - rot));
    x1 ^= x0;
    if (r % 4 == 3) {
      int inj = r / 4 + 1;
      x0 += ks[inj % 3];
      x1 += ks[(inj + 1) % 3] + uint32_t(inj);
    }
  }
  return {x0, x1};
}

uint64_t pack(uint32_t lo, uint32_t hi) { return uint64_t(hi) << 32 | lo; }

// One kernel: out[i] = THREEFRY(x[i], key[i]) on uint64, lowered the default way.
std::vector<uint64_t> run_threefry(const std::vector<uint64_t>& xs, const std::vector<uint64_t>& keys) {
  int64_t n = int64_t(xs.size());
  UOpRef r = UOp::range(n, 0);
  UOpRef x = load(param(1, dtypes::uint64, n), r), key = load(param(2, dtypes::uint64, n), r);
  UOpRef v = UOp::alu(Ops::THREEFRY, {x, key});
  LoweredKernel k = lower_kernel(sink_over(r, {store(param(0, dtypes::uint64, n), r, v)}));
  for (const UOp* u : k.linear->toposort()) EXPECT_NE(u->op, Ops::THREEFRY);  // decomposed
  HostBuffer out = zeros(dtypes::uint64, xs.size()), hx{dtypes::uint64, {}}, hk{dtypes::uint64, {}};
  for (uint64_t v2 : xs) hx.values.push_back(ConstValue::from_int(v2));
  for (uint64_t v2 : keys) hk.values.push_back(ConstValue::from_int(v2));
  run(k, {&out, &hx, &hk});
  std::vector<uint64_t> res;
  for (const ConstValue& c : out.values) res.push_back(uint64_t(c.as_int()));
  return res;
}

}  // namespace

TEST(Threefry, ReferenceMatchesRandom123KnownAnswers) {
  // Random123 kat_vectors, Threefry-2x32-20
  EXPECT_EQ(threefry2x32_ref(0, 0, 0, 0), std::make_pair(0x6b200159u, 0x99ba4efeu));
  EXPECT_EQ(threefry2x32_ref(~0u, ~0u, ~0u, ~0u), std::make_pair(0x1cb996fcu, 0xbb002be7u));
  EXPECT_EQ(threefry2x32_ref(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u),
            std::make_pair(0xc4923a9cu, 0x483df7a0u));
  // and Threefry-2x32-13 (the first three vectors of the 13-round variant)
  EXPECT_EQ(threefry2x32_ref(0, 0, 0, 0, 13), std::make_pair(0x9d1c5ec6u, 0x8bd50731u));
  EXPECT_EQ(threefry2x32_ref(~0u, ~0u, ~0u, ~0u, 13), std::make_pair(0xfd36d048u, 0x2d17272cu));
  EXPECT_EQ(threefry2x32_ref(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 13),
            std::make_pair(0xba3e4725u, 0xf27d669eu));
}

TEST(Threefry, DecompositionGivesTheKnownAnswers) {
  // x = ctr1 << 32 | ctr0, key = key1 << 32 | key0; the result is out1 << 32 | out0
  std::vector<uint64_t> xs = {0, ~uint64_t(0), pack(0x243f6a88u, 0x85a308d3u)};
  std::vector<uint64_t> keys = {0, ~uint64_t(0), pack(0x13198a2eu, 0x03707344u)};
  std::vector<uint64_t> got = run_threefry(xs, keys);
  EXPECT_EQ(got[0], pack(0x6b200159u, 0x99ba4efeu));
  EXPECT_EQ(got[1], pack(0x1cb996fcu, 0xbb002be7u));
  EXPECT_EQ(got[2], pack(0xc4923a9cu, 0x483df7a0u));
}

TEST(Threefry, DecompositionMatchesTheReferenceOnRandomBlocks) {
  std::mt19937_64 gen(20261122);
  std::vector<uint64_t> xs, keys;
  for (int i = 0; i < 4096; i++) {
    xs.push_back(i < 1024 ? uint64_t(i) : gen());  // small counters (as random tensors use) and random ones
    keys.push_back(i % 2 ? gen() : uint64_t(i % 7));
  }
  std::vector<uint64_t> got = run_threefry(xs, keys);
  for (size_t i = 0; i < xs.size(); i++) {
    auto [o0, o1] = threefry2x32_ref(uint32_t(xs[i]), uint32_t(xs[i] >> 32), uint32_t(keys[i]), uint32_t(keys[i] >> 32));
    ASSERT_EQ(got[i], pack(o0, o1)) << "x=" << xs[i] << " key=" << keys[i];
  }
}

TEST(Threefry, InstructionSelectionDecomposesOnlyUint64) {
  UOpRef a = UOp::const_int(dtypes::uint64, 0);
  UOpRef t = UOp::alu(Ops::THREEFRY, {a, a});
  UOpRef s = UOp::create(Ops::SINK, dtypes::void_, {t});
  UOpRef d = select_instructions(s, c_capabilities());
  for (const UOp* u : d->toposort()) {
    EXPECT_NE(u->op, Ops::THREEFRY);
    if (u->op == Ops::ADD) {
      EXPECT_EQ(u->dtype, dtypes::uint32);  // the ARX words
    }
  }
  EXPECT_EQ(threefry2x32_primitives(a, a)->dtype, dtypes::uint64);
  // another dtype is not Threefry-2x32 (the verifier rejects it): left for the renderer to refuse
  UOpRef b = UOp::const_int(dtypes::uint32, 0);
  UOpRef s32 = UOp::create(Ops::SINK, dtypes::void_, {UOp::create(Ops::THREEFRY, dtypes::uint32, {b, b})});
  EXPECT_EQ(select_instructions(s32, c_capabilities()), s32);
}
