// Oracles for the suite's loop-nest kernels: matmul, padded conv2d, prefix sums, loop kinds,
// symbolic shapes, strided views, allocations, mixed precision (see suite_oracles.h).
#pragma once
#include "oracle_util.h"

namespace onegrad::tir::testing {

inline void add_kernel_oracles(OracleTable& t) {
  t["matmul.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &C = io["C"];
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 5; ++j) {
        float acc = 0;
        for (int k = 0; k < 6; ++k) acc += A.at<float>(i * 6 + k) * B.at<float>(k * 5 + j);
        C.at<float>(i * 5 + j) = acc;
      }
    return std::nullopt;
  };
  t["conv2d_padded.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &X = io["X"], &W = io["W"], &Y = io["Y"];
    for (int f = 0; f < 3; ++f)
      for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 6; ++x) {
          float acc = 0;
          for (int c = 0; c < 2; ++c)
            for (int ry = 0; ry < 3; ++ry)
              for (int rx = 0; rx < 3; ++rx) {
                int sy = y + ry - 1, sx = x + rx - 1;
                float v = (sy >= 0 && sy < 6 && sx >= 0 && sx < 6) ? X.at<float>((c * 6 + sy) * 6 + sx) : 0.0f;
                acc += v * W.at<float>(((f * 2 + c) * 3 + ry) * 3 + rx);
              }
          Y.at<float>((f * 6 + y) * 6 + x) = acc;
        }
    return std::nullopt;
  };
  t["prefix_sum.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &In = io["Inclusive"], &Ex = io["Exclusive"];
    for (int i = 0; i < 4; ++i) {
      int32_t sum = 0;
      for (int j = 0; j < 10; ++j) {
        Ex.at<int32_t>(i * 10 + j) = sum;
        sum += A.at<int32_t>(i * 10 + j);
        In.at<int32_t>(i * 10 + j) = sum;
      }
    }
    return std::nullopt;
  };
  t["loop_kinds.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &C = io["C"], &D = io["D"];
    for (int i = 0; i < 64; ++i) B.at<float>(i) = A.at<float>(i) * 2.0f + 1.0f;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 4; ++j) C.at<int32_t>(i * 4 + j) = i * 4 - j;
    for (int i = 0; i < 64; ++i) D.at<float>(i) = B.at<float>(i) - A.at<float>(i);
    for (int i = 60; i < 64; ++i) D.at<float>(i) += D.at<float>(i - 60);
    for (int i = 2; i < 6; ++i)
      for (int j = 0; j < i; ++j) C.at<int32_t>(i * 4) += j;
    for (int ty = 0; ty < 4; ++ty) C.at<int32_t>((12 + ty) * 4 + 3) *= 2;
    return std::nullopt;
  };
  t["symbolic_shapes.py:main"] = [](SuiteArgs& io, const RunSpec& run) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &Sum = io["RowSum"], &Scaled = io["Scaled"];
    int64_t n = var(run, "n"), m = var(run, "m");
    float alpha = static_cast<float>(run.vars.at("alpha"));
    for (int64_t i = 0; i < n; ++i) {
      float acc = 0;
      for (int64_t k = 0; k < m; ++k) acc += A.at<float>(i * m + k);
      Sum.at<float>(i) = acc;
      for (int64_t j = 0; j < m; ++j) Scaled.at<float>(i * m + j) = A.at<float>(i * m + j) * alpha - acc / static_cast<float>(m);
    }
    return std::nullopt;
  };
  t["strided_views.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) B.at<float>(i * 4 + j) = A.at<float>(j * 3 + i) + static_cast<float>(i * 10 + j);
    return std::nullopt;
  };
  t["allocations.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"];
    float staged[16], tile[4][4], shared[16], r[16];
    for (int i = 0; i < 16; ++i) staged[i] = A.at<float>(i) * 3.0f;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) tile[i][j] = staged[j * 4 + i];
    for (int i = 0; i < 16; ++i) shared[i] = tile[i % 4][i / 4] + 1.0f;
    for (int i = 0; i < 16; ++i) r[i] = shared[15 - i];
    for (int i = 0; i < 16; ++i) B.at<float>(i) = (r[i] - r[0]) * r[15];
    return std::nullopt;
  };

  t["tiled_match_buffer.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &RowMax = io["RowMax"];
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) B.at<float>(i * 8 + j) = A.at<float>(j * 8 + i) * static_cast<float>(i / 4 * 2 + j / 4 + 1);
    for (int i = 0; i < 8; ++i) {
      float m = -1000;
      for (int k = 0; k < 8; ++k) m = std::max(m, B.at<float>(i * 8 + k));
      RowMax.at<float>(i) = m;
    }
    return std::nullopt;
  };
}

}  // namespace onegrad::tir::testing
