// function(f): the spec's @function decorator in C++ (spec: The @function Decorator; docs/function.md).
// A call runs f once per signature (the shapes, dtypes and devices of its tensor arguments, which
// arguments are the same tensor, and its number arguments) on placeholder PARAMs, and keeps the body
// it built; every call, the first included, returns GETTUPLE(FUNCTION(TUPLE(body), args...), i) per
// output. The schedule resolves the FUNCTION by substitution (uop/resolve_function.h), so a second
// call with inputs of the same signature traces nothing and compiles nothing.
//
//   auto layer = onegrad::function([](const Tensor& x, const Tensor& w) { return x.matmul(w).relu(); });
//   Tensor y = layer(x, w);  // a Tensor; a lambda returning std::pair/tuple/vector of Tensors gives those
//
// A tensor the body reads that is not an argument (a realized weight from a closure) throws
// FunctionError naming the function, unless FunctionOptions::allow_implicit makes it an extra
// argument (bound at the first trace of a signature: later calls read the same buffer).
#pragma once
#include <array>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

struct FunctionOptions {
  std::string name = "function";  // names the function in error messages
  bool allow_implicit = false;    // captured tensors become extra arguments instead of an error
};

// What one trace of a body gives: the outputs, and how the caller packs them (opaque here: the
// Python wrapper records "tensor", "tuple" or "list"; it is kept with the body and handed back on
// every call).
struct TraceResult {
  std::vector<Tensor> outputs;
  std::string structure;
};

// The type-erased machinery of function(), shared by the C++ template below and the Python binding.
class TracedFunction {
 public:
  // Builds the body from placeholders: one per tensor argument, in order (equal arguments get the
  // same placeholder).
  using Trace = std::function<TraceResult(const std::vector<Tensor>& placeholders)>;

  explicit TracedFunction(FunctionOptions options = {});
  // The outputs of the function on `args` (lazy GETTUPLEs of one FUNCTION) and the structure its
  // trace recorded. `trace` runs only when this signature is new; `key` is the part of the signature
  // that is not tensors (the number arguments).
  TraceResult call(const std::vector<Tensor>& args, const Trace& trace, const std::string& key = "") const;
  uint64_t traces() const;  // bodies traced so far: one per signature seen
  const FunctionOptions& options() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

namespace function_detail {

template <class T>
inline constexpr bool is_tensor = std::is_same_v<std::decay_t<T>, Tensor>;

// Number arguments are part of the signature: a different value traces a new body.
template <class T>
std::string key_of(const T& v) {
  if constexpr (is_tensor<T>) {
    return "T;";
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "b1;" : "b0;";
  } else if constexpr (std::is_integral_v<T>) {
    return "i" + std::to_string(v) + ";";
  } else {
    static_assert(std::is_floating_point_v<T>, "function(): arguments are Tensors or numbers");
    char buf[64];
    std::snprintf(buf, sizeof buf, "f%a;", double(v));  // exact: 0.1 and 0.1000001 differ
    return buf;
  }
}

// For argument i, its index among the tensor arguments (unused for numbers).
template <class... Args>
constexpr std::array<size_t, sizeof...(Args)> tensor_indices() {
  std::array<size_t, sizeof...(Args)> out{};
  size_t i = 0, k = 0;
  ((out[i++] = is_tensor<Args> ? k++ : 0), ...);
  return out;
}

template <size_t I, class... Args, class T>
decltype(auto) bind_arg(const T& arg, const std::vector<Tensor>& placeholders) {
  if constexpr (is_tensor<T>) return static_cast<const Tensor&>(placeholders[tensor_indices<Args...>()[I]]);
  else return static_cast<const T&>(arg);
}

// Return values to and from a list of tensors: Tensor, std::vector<Tensor>, std::pair and
// std::tuple of Tensors.
template <class R>
struct Returns;
template <>
struct Returns<Tensor> {
  static std::vector<Tensor> flatten(const Tensor& t) { return {t}; }
  static Tensor pack(std::vector<Tensor> v) { return v.at(0); }
};
template <>
struct Returns<std::vector<Tensor>> {
  static std::vector<Tensor> flatten(std::vector<Tensor> v) { return v; }
  static std::vector<Tensor> pack(std::vector<Tensor> v) { return v; }
};
template <class... Ts>
struct Returns<std::tuple<Ts...>> {
  static_assert((is_tensor<Ts> && ...), "function(): a tuple return holds Tensors only");
  static std::vector<Tensor> flatten(const std::tuple<Ts...>& t) {
    return std::apply([](const auto&... e) { return std::vector<Tensor>{e...}; }, t);
  }
  static std::tuple<Ts...> pack(std::vector<Tensor> v) {
    return [&]<size_t... I>(std::index_sequence<I...>) { return std::tuple<Ts...>{v.at(I)...}; }(
        std::index_sequence_for<Ts...>{});
  }
};
template <class A, class B>
struct Returns<std::pair<A, B>> {
  static std::vector<Tensor> flatten(const std::pair<A, B>& p) { return {p.first, p.second}; }
  static std::pair<A, B> pack(std::vector<Tensor> v) { return {v.at(0), v.at(1)}; }
};

}  // namespace function_detail

// The callable function(f) returns: f's arguments are Tensors and numbers (C++ arithmetic types).
template <class F>
class Function {
 public:
  Function(F f, FunctionOptions options) : f_(std::move(f)), traced_(std::move(options)) {}

  template <class... Args>
  auto operator()(const Args&... args) const {
    using R = std::decay_t<std::invoke_result_t<const F&, const Args&...>>;
    using Ret = function_detail::Returns<R>;
    std::vector<Tensor> tensors;
    std::string key;
    auto collect = [&](const auto& a) {
      if constexpr (function_detail::is_tensor<decltype(a)>) tensors.push_back(a);
      key += function_detail::key_of(a);
    };
    (collect(args), ...);
    auto trace = [&](const std::vector<Tensor>& ps) {
      return [&]<size_t... I>(std::index_sequence<I...>) {
        return TraceResult{Ret::flatten(std::invoke(f_, function_detail::bind_arg<I, Args...>(args, ps)...)), ""};
      }(std::index_sequence_for<Args...>{});
    };
    return Ret::pack(traced_.call(tensors, trace, key).outputs);
  }

  uint64_t traces() const { return traced_.traces(); }

 private:
  F f_;
  TracedFunction traced_;
};

template <class F>
Function<F> function(F f, FunctionOptions options = {}) {
  return Function<F>(std::move(f), std::move(options));
}

}  // namespace onegrad
