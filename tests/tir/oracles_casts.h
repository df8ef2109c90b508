// Oracle for suite/casts.py: every cast chain Cast(D, Cast(S, v)) as C++ static_casts over the C
// types of the spec's dtypes (see suite_oracles.h).
#pragma once
#include <tuple>

#include "oracle_util.h"

namespace onegrad::tir::testing {

// bfloat16 as a C++ type: converting to it rounds to nearest even, from it reads the value.
struct BFloat16 {
  double v = 0;
  BFloat16() = default;
  template <class T>
  explicit BFloat16(T x) : v(bf16_round(static_cast<double>(x))) {}
  template <class T>
  explicit operator T() const {
    return static_cast<T>(v);
  }
};

// In the programs' order: int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool, then float16
// float32 float64 bfloat16.
using IntTypes = std::tuple<int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, bool>;
using FloatTypes = std::tuple<_Float16, float, double, BFloat16>;
using AllTypes = decltype(std::tuple_cat(IntTypes{}, FloatTypes{}));

// f(index, T{}) for every type of the tuple.
template <class Tuple, class F>
void for_each_type(F&& f) {
  [&]<size_t... I>(std::index_sequence<I...>) { (f(I, std::tuple_element_t<I, Tuple>{}), ...); }
  (std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

// Out[s, d, i] = Result(D(S(v))) for S in Sources, D in Targets, on values v(i).
template <class Sources, class Targets, class Result, class V>
void cast_table(HostArray& out, int n, V value) {
  constexpr int nd = std::tuple_size_v<Targets>;
  for (int i = 0; i < n; ++i) {
    auto v = value(i);
    for_each_type<Sources>([&](size_t s, auto src) {
      using S = decltype(src);
      for_each_type<Targets>([&](size_t d, auto dst) {
        using D = decltype(dst);
        out.at<Result>((static_cast<int>(s) * nd + static_cast<int>(d)) * n + i) =
            static_cast<Result>(static_cast<D>(static_cast<S>(v)));
      });
    });
  }
}

inline void add_cast_oracles(OracleTable& t) {
  t["casts.py:all_pairs"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray& X = io["X"];
    cast_table<AllTypes, AllTypes, double>(io["Out"], 8, [&](int i) { return std::fabs(X.at<float>(i)) * 40.0f; });
    return std::nullopt;
  };
  t["casts.py:int_pairs"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray& A = io["A"];
    cast_table<IntTypes, IntTypes, int64_t>(io["Out"], 8, [&](int i) { return A.at<int32_t>(i) * 37 - 5; });
    return std::nullopt;
  };
  t["casts.py:int_to_float"] = [](SuiteArgs& io, const RunSpec&) -> std::optional<RuntimeValue> {
    HostArray& A = io["A"];
    cast_table<IntTypes, FloatTypes, double>(io["Out"], 8, [&](int i) { return A.at<int32_t>(i) * 37 - 5; });
    return std::nullopt;
  };
}

}  // namespace onegrad::tir::testing
