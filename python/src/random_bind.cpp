// Random tensors (src/tensor/random.h) as functions of onegrad._C; onegrad/tensor.py and
// onegrad/_random.py give them their torch-style signatures. Argument checks stay in C++.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/random.h"

namespace onegrad::python {

namespace {

using Dims = std::vector<int64_t>;

std::optional<DType> opt_dtype(const std::optional<std::string>& name) {
  return name ? std::optional<DType>(to_dtype(*name)) : std::nullopt;
}

}  // namespace

void bind_random(py::module_& m) {
  m.def("manual_seed", &manual_seed, py::arg("seed"));
  m.def("initial_seed", &initial_seed);
  m.def("rng_counter", &rng_counter);
  m.def("random_bits", [](const Dims& s, const std::string& dev) { return random_bits(s, dev); });
  m.def("rand", [](const Dims& s, const std::string& dt, const std::string& dev) { return rand(s, to_dtype(dt), dev); });
  m.def("randn", [](const Dims& s, const std::string& dt, const std::string& dev) { return randn(s, to_dtype(dt), dev); });
  m.def("randint", [](int64_t lo, int64_t hi, const Dims& s, const std::string& dt, const std::string& dev) {
    return randint(lo, hi, s, to_dtype(dt), dev);
  });
  m.def("uniform", [](const Dims& s, double lo, double hi, const std::string& dt, const std::string& dev) {
    return uniform(s, lo, hi, to_dtype(dt), dev);
  });
  m.def("normal", [](const Dims& s, double mean, double std, const std::string& dt, const std::string& dev) {
    return normal(s, mean, std, to_dtype(dt), dev);
  });
  m.def("randperm", [](int64_t n, const std::string& dt, const std::string& dev) { return randperm(n, to_dtype(dt), dev); });
  m.def("multinomial", &multinomial, py::arg("probs"), py::arg("num_samples"), py::arg("replacement"));
  m.def("bernoulli", [](const Tensor& p) { return bernoulli(p); });
  m.def("bernoulli_p", [](const Tensor& like, double p) { return bernoulli(like, p); });
  m.def("dropout", &dropout, py::arg("x"), py::arg("p"), py::arg("training"));
  m.def("rand_like", [](const Tensor& t, const std::optional<std::string>& dt) { return rand_like(t, opt_dtype(dt)); });
  m.def("randn_like", [](const Tensor& t, const std::optional<std::string>& dt) { return randn_like(t, opt_dtype(dt)); });
  m.def("randint_like", [](const Tensor& t, int64_t lo, int64_t hi, const std::optional<std::string>& dt) {
    return randint_like(t, lo, hi, opt_dtype(dt));
  });
}

}  // namespace onegrad::python
