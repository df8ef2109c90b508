// Oracles for the suite's scalar programs: operators, casts, control flow, calls, lets, vectors,
// math builtins (see suite_oracles.h).
#pragma once
#include <functional>
#include <limits>
#include <utility>

#include "oracle_util.h"

namespace onegrad::tir::testing {

inline void add_scalar_oracles(OracleTable& t) {
  t["arith_ops.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &U = io["U"], &F = io["F"], &G = io["G"];
    HostArray &Q = io["Q"], &L = io["L"], &UQ = io["UQ"], &FQ = io["FQ"];
    for (int32_t i = 0; i < 16; ++i) {
      int32_t a = A.at<int32_t>(i), b = B.at<int32_t>(i);
      int32_t q[16] = {a + b, a - b, a * b, b ? a / b : 0, b ? a % b : 0, b ? floordiv(a, b) : 0,
                       b ? floormod(a, b) : -100, std::min(a, b), std::max(a, b), a & b, a | b, a ^ b, ~a,
                       static_cast<int32_t>(static_cast<uint32_t>(a + 9) << floormod(b + 9, 8)),
                       a >> floormod(b + 9, 4), -a * 3 - floordiv(i - 8, 3) + floormod(i - 8, 3)};
      for (int k = 0; k < 16; ++k) Q.at<int32_t>(i * 16 + k) = q[k];
      bool l[10] = {a == b, a != b, a < b, a <= b, a > b, a >= b, -3 <= a && a < b, a > 0 && b > 0,
                    a > 0 || !(b > 0), !(a == 0)};
      for (int k = 0; k < 10; ++k) L.at<uint8_t>(i * 10 + k) = l[k];
      uint32_t u = U.at<uint32_t>(i);
      uint32_t uq[5] = {u - 5u, u * 4000000000u, (u - 9u) / 4u, (u - 9u) % 7u, static_cast<uint32_t>(u - 5u < 10u)};
      for (int k = 0; k < 5; ++k) UQ.at<uint32_t>(i * 5 + k) = uq[k];
      float f = F.at<float>(i), g = G.at<float>(i);
      float fq[6] = {f + g, f - g, f * g, f / g, std::min(f, g), std::max(f, g)};
      for (int k = 0; k < 6; ++k) FQ.at<float>(i * 6 + k) = fq[k];
    }
    return std::nullopt;
  };
  t["control_flow.py:main"] = [](SuiteArgs& io, const RunSpec& run) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &Out = io["Out"];
    int n = static_cast<int>(var(run, "n"));
    auto a = [&](int i) { return A.at<int32_t>(i); };
    int32_t out[8] = {0, 0, 0, 0, 0, -1, 0, n > 8 ? 1 : 2};
    for (int i = 0; i < n; ++i) {
      if (a(i) > 0) out[0] += a(i);
      out[a(i) < -3 ? 1 : a(i) < 3 ? 2 : 3] += 1;
      if (a(i) % 2 != 0) out[6] += 1;
    }
    for (int i = 0; i < n; ++i)
      if (a(i) == 0) {
        out[5] = i;
        break;
      }
    int32_t x = std::abs(a(0)) + 1, y = std::abs(a(1)) * 3 + 2;
    while (y != 0) x = std::exchange(y, floormod(x, y));
    out[4] = x;
    for (int k = 0; k < 8; ++k) Out.at<int32_t>(k) = out[k];
    return std::nullopt;
  };
  t["control_flow.py:first_index"] = [](SuiteArgs& io, const RunSpec& run) -> std::optional<RuntimeValue> {
    HostArray& A = io["A"];
    if (A.at<int32_t>(0) == 9) return returns_int(DataType::int_(32), -2);
    for (int i = 0; i < var(run, "n"); ++i)
      if (A.at<int32_t>(i) > 5) return returns_int(DataType::int_(32), i);
    return returns_int(DataType::int_(32), -1);
  };
  t["calls.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &X = io["X"], &G = io["G"], &P = io["P"], &E = io["E"];
    std::function<int32_t(int32_t, int32_t)> gcd = [&](int32_t a, int32_t b) { return b == 0 ? a : gcd(b, floormod(a, b)); };
    for (int i = 0; i < 12; ++i) {
      G.at<int32_t>(i) = gcd(A.at<int32_t>(i), B.at<int32_t>(i));
      int k = A.at<int32_t>(i) + 9;
      double p = 1;
      for (int j = 0; j < k; ++j) p *= X.at<double>(i);
      P.at<double>(i) = p;
      E.at<int32_t>(i) = k % 2 == 0 ? 10 : 1;
      X.at<double>(i) = -X.at<double>(i);
    }
    return std::nullopt;
  };
  t["lets_selects.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &W = io["W"], &Out = io["Out"], &F = io["F"];
    auto a = [&](int i) { return A.at<int32_t>(i); };
    for (int i = 0; i < 10; ++i) {
      int64_t wide = static_cast<int64_t>(a(i) * 2) * 100000;
      int j = i + 3, t = a(i) + 1;
      int64_t out[4] = {wide * 100000, j < 10 ? a(j) : -1, t * t - j, std::max(a(i), a(9 - i))};
      for (int k = 0; k < 4; ++k) Out.at<int64_t>(i * 4 + k) = out[k];
      float w = W.at<float>(i);
      F.at<float>(i) = w < 0 ? -w : w * 0.5f;
    }
    return std::nullopt;
  };
  t["vectors.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &I = io["I"], &B = io["B"], &V = io["V"], &J = io["J"];
    auto a = [&](int k) { return A.at<float>(k); };
    auto v = [&](int k) { return I.at<int32_t>(k); };
    for (int i = 0; i < 8; ++i)
      for (int l = 0; l < 4; ++l) {
        B.at<float>(i * 4 + l) = a(i * 4 + l) * 2.0f + a(0);
        V.at<float>(i, l) = a(31 - i * 4 - l);
      }
    int32_t pick[8] = {7, 0, 6, 1, 5, 2, 4, 3};
    for (int l = 0; l < 8; ++l) J.at<int32_t>(16 + l) = v(pick[l]);
    for (int l = 0; l < 4; ++l) {
      J.at<int32_t>(2 * l) = v(1 + 2 * l) + 100 + 10 * l;
      J.at<int32_t>(1 + 2 * l) = v(0) - v(12 + l);
      J.at<int32_t>(8 + l) = std::min(v(8 + l), v(12 + l));
      J.at<int32_t>(12 + l) = (v(l) > 0 && v(4 + l) > 0) || v(8 + l) == v(12 + l);
      J.at<int32_t>(24 + l) = v(l) * v(15 - l) - l;
    }
    return std::nullopt;
  };
  t["math_builtins.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &X = io["X"], &S = io["S"], &M = io["M"], &D = io["D"], &N = io["N"];
    for (int i = 0; i < 4; ++i) {
      float mx = -std::numeric_limits<float>::max(), sum = 0;
      for (int k = 0; k < 8; ++k) mx = std::max(mx, X.at<float>(i * 8 + k));
      for (int k = 0; k < 8; ++k) sum += std::exp(X.at<float>(i * 8 + k) - mx);
      for (int k = 0; k < 8; ++k) S.at<float>(i * 8 + k) = std::exp(X.at<float>(i * 8 + k) - mx) / sum;
    }
    for (int i = 0; i < 8; ++i) {
      float x = X.at<float>(i), ax = std::fabs(x);
      float m[16] = {std::exp(x),        std::log(ax + 1),        std::sqrt(ax),           std::pow(ax, 1.5f),
                     std::sin(x),        std::cos(x),             std::tanh(x),            1 / (1 + std::exp(-x)),
                     std::floor(x * 3),  std::ceil(x * 3),        std::nearbyint(x * 3),   std::trunc(x * 3),
                     std::exp2(x),       std::log2(ax + 1),       std::atan2(x, 1.5f),     ax};
      for (int k = 0; k < 16; ++k) M.at<float>(i * 16 + k) = m[k];
      double y = X.at<float>(8 + i);
      double d[4] = {std::exp(y), std::erf(y), std::fmod(y, 0.75), std::hypot(y, 2.0)};
      for (int k = 0; k < 4; ++k) D.at<double>(i * 4 + k) = d[k];
      N.at<uint8_t>(i * 2) = std::isnan(std::log(x));
      N.at<uint8_t>(i * 2 + 1) = std::isnan(x);
    }
    return std::nullopt;
  };
  t["mixed_precision.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &B = io["B"], &Mask = io["Mask"], &C = io["C"], &H = io["H"], &Z = io["Z"], &Pos = io["Pos"];
    auto b = [&](int k) { return bf16_value(B.at<uint16_t>(k)); };
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        float acc = 0;
        for (int k = 0; k < 8; ++k) acc += static_cast<float>(A.at<_Float16>(i * 8 + k)) * static_cast<float>(b(k * 4 + j));
        C.at<float>(i * 4 + j) = acc;
      }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        _Float16 prod = static_cast<_Float16>(static_cast<_Float16>(C.at<float>(i * 4 + j)) * A.at<_Float16>(i * 8 + j));
        H.at<_Float16>(i * 4 + j) = static_cast<_Float16>(prod + A.at<_Float16>(j * 8 + i));
        bool mask = Mask.at<uint8_t>(i * 4 + j);
        Z.at<uint16_t>(i * 4 + j) = mask ? bf16_bits(bf16_round(b(i * 4 + j) * b(j * 4 + i)) + 1) : bf16_bits(0);
        Pos.at<uint8_t>(i * 4 + j) = C.at<float>(i * 4 + j) > 0 && !mask;
      }
    return std::nullopt;
  };
  t["int_widths.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &P8 = io["P8"], &P16 = io["P16"], &P64 = io["P64"], &Q8 = io["Q8"], &Q16 = io["Q16"], &Q64 = io["Q64"];
    HostArray &O8 = io["O8"], &O16 = io["O16"], &O64 = io["O64"], &OU8 = io["OU8"], &OU16 = io["OU16"], &OU64 = io["OU64"];
    // C's integer promotion computes in int; the stores wrap back to the narrow type.
    auto i8 = [](int v) { return static_cast<int8_t>(v); };
    auto i16 = [](int v) { return static_cast<int16_t>(v); };
    for (int i = 0; i < 8; ++i) {
      int8_t a = P8.at<int8_t>(i), b = P8.at<int8_t>(7 - i);
      int8_t o8[6] = {i8(a * 29 + 100), b ? i8(a / b) : int8_t{0}, b ? i8(floordiv<int>(a, b)) : int8_t{0},
                      b ? i8(floormod<int>(a, b)) : int8_t{0}, i8(-128 + a),
                      i8(std::min(a, b) - i8(std::max(a, b) * 16))};
      for (int k = 0; k < 6; ++k) O8.at<int8_t>(i * 6 + k) = o8[k];
      int16_t p = P16.at<int16_t>(i), q = P16.at<int16_t>(7 - i);
      int16_t o16[4] = {i16(i16(p * 4099) - 30000), q ? i16(p % q) : int16_t{7}, i16(floormod<int>(p, -4)),
                        i16((p + 9) << 12)};
      for (int k = 0; k < 4; ++k) O16.at<int16_t>(i * 4 + k) = o16[k];
      int64_t w = P64.at<int64_t>(i);
      int64_t o64[5] = {static_cast<int64_t>(static_cast<uint64_t>(w) * 1000000007u * 1000000009u), floordiv<int64_t>(w, -3),
                        floormod<int64_t>(w, -3), w / -3, w % -3};
      for (int k = 0; k < 5; ++k) O64.at<int64_t>(i * 5 + k) = o64[k];
      uint8_t u8 = Q8.at<uint8_t>(i);
      uint8_t ou8[3] = {static_cast<uint8_t>(u8 * 20 + 7), static_cast<uint8_t>(static_cast<uint8_t>(u8 - 9) / 10),
                        static_cast<uint8_t>(static_cast<uint8_t>(u8 - 9) >> 2)};
      for (int k = 0; k < 3; ++k) OU8.at<uint8_t>(i * 3 + k) = ou8[k];
      uint16_t u16 = Q16.at<uint16_t>(i), v16 = Q16.at<uint16_t>(7 - i);
      OU16.at<uint16_t>(i * 2) = static_cast<uint16_t>(u16 - 10);
      OU16.at<uint16_t>(i * 2 + 1) = std::max(static_cast<uint16_t>(u16 - 10), v16);
      uint64_t u64 = Q64.at<uint64_t>(i) - 9u;
      uint64_t ou64[3] = {u64, u64 / 1000u, u64 % 1000u};
      for (int k = 0; k < 3; ++k) OU64.at<uint64_t>(i * 3 + k) = ou64[k];
    }
    return std::nullopt;
  };
  t["sugar_forms.py:main"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray &A = io["A"], &S = io["S"], &F = io["F"], &B = io["B"];
    int32_t sum = 0;
    for (int i = 0; i < 12; ++i) {
      int32_t a = A.at<int32_t>(i), acc = a;
      acc = floormod(floordiv((acc + 7 - i) * 3, 2), 11);
      acc = (((acc & 12) | 1) ^ 5) << 2 >> 1;
      sum += acc;
      F.at<float>(i) = static_cast<float>(a) * 0.5f + static_cast<float>(i);
      B.at<int8_t>(i * 4) = static_cast<int8_t>(a * 20);
      B.at<int8_t>(i * 4 + 1) = static_cast<int8_t>(std::abs(a));
      B.at<int8_t>(i * 4 + 2) = static_cast<int8_t>(floordiv(a + 10 + 3, 4));
      B.at<int8_t>(i * 4 + 3) = a < 0;
    }
    S.at<int32_t>(0) = sum;
    return std::nullopt;
  };
}

}  // namespace onegrad::tir::testing
