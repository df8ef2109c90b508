// Random tensors from THREEFRY (spec: Decomposed elementwise ops; docs/tensor.md, "Random numbers").
//
// One process-wide generator: a 64-bit seed (the Threefry key) and a 64-bit counter. Each call
// that draws n values reserves the counters [offset, offset + n) and advances the counter by n;
// element i (row-major flat index) gets the 64 random bits THREEFRY(offset + i, seed). The bits of
// an element therefore depend only on the seed, the call's position in the sequence of calls and
// the element's flat index: not on how the kernels are split, nor on the device, the process or
// the run. manual_seed(s) sets the seed and restarts the counter at 0; the seed at start-up is 0
// (fixed, as torch's default generator is, so a program that never seeds is still reproducible).
//
// The values are not torch's (another generator); the dtypes, shapes, arguments and errors are.
// Bad arguments throw ShapeError (a ValueError in Python) or DTypeError naming the op.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// ---- the generator
void manual_seed(uint64_t seed);  // seed the generator and restart its counter
uint64_t initial_seed();          // the seed in use (0 until manual_seed)
uint64_t rng_counter();           // the next counter a draw will use (for tests)
// Puts the counter back (the seed stays): work whose draws are discarded (a layer built only to
// receive copied values, layer_registry.h) leaves the sequence as it found it.
void set_rng_counter(uint64_t counter);

// n = prod(shape) words of 64 random bits, uint64, shape `shape`: THREEFRY(offset + i, seed).
Tensor random_bits(const std::vector<int64_t>& shape, const std::string& device = default_device());

// ---- distributions (shape dims must be >= 0; a float dtype where the values are floats)
// Uniform on [0, 1): the dtype's mantissa filled with random bits (23 for float32, 52 for float64,
// 10 for float16, 7 for bfloat16) under the exponent of 1.0, minus 1. Every value is a multiple of
// 2^-mantissa_bits; 1 is never drawn.
Tensor rand(const std::vector<int64_t>& shape, DType dtype = dtypes::float32, const std::string& device = default_device());
// rand over a shape with symbolic dims (docs/symbolic-shapes.md): a draw of the shape at the
// variables' largest values, cut to the bound values, so that its graph is one for every value. The
// counter advances by the largest shape's count.
Tensor rand_symbolic(const Shape& dims, DType dtype = dtypes::float32, const std::string& device = default_device());
// Standard normal by Box-Muller in float64 from the two 32-bit halves of one word, CAST to dtype.
Tensor randn(const std::vector<int64_t>& shape, DType dtype = dtypes::float32, const std::string& device = default_device());
// Integers in [low, high): (word mod (high - low)) + low, int64 by default (as torch). Any int
// dtype (low and high - 1 must fit it), bool (within [0, 2)) or a float dtype.
Tensor randint(int64_t low, int64_t high, const std::vector<int64_t>& shape, DType dtype = dtypes::int64,
               const std::string& device = default_device());
// low + (high - low) * rand; low <= high.
Tensor uniform(const std::vector<int64_t>& shape, double low = 0.0, double high = 1.0, DType dtype = dtypes::float32,
               const std::string& device = default_device());
// mean + std * randn; std >= 0.
Tensor normal(const std::vector<int64_t>& shape, double mean = 0.0, double std = 1.0, DType dtype = dtypes::float32,
              const std::string& device = default_device());
// A uniform random permutation of 0..n-1 (int64 by default): the inside-out Fisher-Yates shuffle
// driven by Threefry words (uop/custom_kernels.h), one in-order kernel. bool is a DTypeError; a
// dtype that cannot hold 0..n-1 exactly a ShapeError.
Tensor randperm(int64_t n, DType dtype = dtypes::int64, const std::string& device = default_device());
// Indices (int64) drawn from each row of `probs` (1-D (n,) or 2-D (m, n); weights >= 0, not
// necessarily normalised). With replacement: inverse CDF, the count of running sums <= u * total.
// Without: the exponential race (the smallest E_i / p_i, E_i ~ Exp(1), taken in order).
// Realizes `probs` once to check it (no negative, inf or NaN weight; every row sums to > 0; enough
// non-zero weights without replacement), as torch does.
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement = false);
// 1 with probability p[i] (p in [0, 1], realized once to check), else 0; p's dtype (a float).
Tensor bernoulli(const Tensor& p);
// 1 with probability p (a number in [0, 1]) in the shape and dtype of `like`.
Tensor bernoulli(const Tensor& like, double p);
// Zeros each element with probability p and scales the others by 1/(1-p); x itself when not
// training or p == 0; x * 0 when p == 1 (torch). x must be float.
Tensor dropout(const Tensor& x, double p = 0.5, bool training = true);
// *_like: the shape and device of t; the dtype of t unless given.
Tensor rand_like(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor randn_like(const Tensor& t, std::optional<DType> dtype = std::nullopt);
Tensor randint_like(const Tensor& t, int64_t low, int64_t high, std::optional<DType> dtype = std::nullopt);

}  // namespace onegrad
