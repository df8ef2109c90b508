// Running a PrimFunc both ways: through the interpreter (the oracle) and compiled, on copies of the
// same random arrays, and comparing every output element (ints exactly, floats within a tolerance).
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "tir/interpret/bound_call.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir_compile/compiled_func.h"
#include "tir_compile/not_lowerable.h"
#include "uop/dtype.h"

namespace onegrad::tir::testing {

// A host array of one TIR dtype (bool: one byte per element).
struct HostArray {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;
  std::vector<int64_t> strides;  // in elements; empty: compact
  int64_t elem_offset = 0;
  // scalars held (a float32x4 element holds 4)
  int64_t count() const { return int64_t(bytes.size() / item()); }
  size_t item() const { return dtype.bits < 8 ? 1 : size_t(dtype.bits / 8); }
  ArrayRef ref() { return ArrayRef{bytes.data(), dtype, shape, strides, elem_offset}; }
  double at(int64_t i) const {
    const unsigned char* p = bytes.data() + size_t(i) * item();
    auto get = [&](auto v) { std::memcpy(&v, p, sizeof v); return double(v); };
    if (dtype.bits == 16 && dtype.is_float()) {
      uint16_t h;
      std::memcpy(&h, p, 2);
      return dtype.code == DataType::Code::BFloat ? bfloat16_bits_to_float(h) : half_bits_to_float(h);
    }
    if (dtype.is_float()) return dtype.bits == 64 ? get(double()) : get(float());
    if (dtype.is_bool()) return p[0] != 0;
    bool u = dtype.code == DataType::Code::UInt;
    switch (dtype.bits) {
      case 8: return u ? get(uint8_t()) : get(int8_t());
      case 16: return u ? get(uint16_t()) : get(int16_t());
      case 32: return u ? get(uint32_t()) : get(int32_t());
      default: return u ? get(uint64_t()) : get(int64_t());
    }
  }
};

// Random small values: ints in [-7, 7] (unsigned [0, 7]), floats in [-2, 2], bools.
// `storage` scalars (0: the shape's elements times lanes), for arrays with strides.
// How many random cases a fuzz-style test runs: the environment variable `name` when it is a
// positive number (a longer search after a change), else `fallback`.
inline uint32_t case_count(const char* name, uint32_t fallback) {
  const char* n = std::getenv(name);
  return n && std::atoi(n) > 0 ? uint32_t(std::atoi(n)) : fallback;
}

inline HostArray random_array(DataType t, std::vector<int64_t> shape, std::mt19937& rng, int64_t storage = 0) {
  HostArray a{t, std::move(shape), {}, {}};
  if (storage == 0) {
    storage = t.lanes;
    for (int64_t d : a.shape) storage *= d;
  }
  a.bytes.resize(size_t(storage) * a.item());
  for (int64_t i = 0; i < a.count(); i++) {
    unsigned char* p = a.bytes.data() + size_t(i) * a.item();
    auto put = [&](auto v) { std::memcpy(p, &v, sizeof v); };
    if (t.is_float()) {
      double x = std::uniform_real_distribution<double>(-2, 2)(rng);
      if (t.bits == 16) put(t.code == DataType::Code::BFloat ? float_to_bfloat16_bits(float(x)) : float_to_half_bits(float(x)));
      else if (t.bits == 64) put(x);
      else put(float(x));
    } else if (t.is_bool()) {
      p[0] = rng() % 2;
    } else {
      int64_t x = int64_t(rng() % 15) - (t.code == DataType::Code::UInt ? 0 : 7);
      if (x < 0 && t.code == DataType::Code::UInt) x = -x;
      switch (t.bits) {
        case 8: put(int8_t(x)); break;
        case 16: put(int16_t(x)); break;
        case 32: put(int32_t(x)); break;
        default: put(int64_t(x)); break;
      }
    }
  }
  return a;
}

// A one-function TVMScript program `f(sig)` with `body` (indented four spaces), returning `ret`
// (a dtype name; empty: no return type).
inline std::string prog(const std::string& sig, const std::string& body, const std::string& ret = "") {
  return "from tvm.script import tir as T\n\n@T.prim_func\ndef f(" + sig + ")" + (ret.empty() ? "" : " -> T." + ret) + ":\n" + body;
}

using TestArg = std::variant<int64_t, double, HostArray>;

// The spec's binding step for well-behaved test arguments: data pointers, scalar parameters, and
// the Vars of the buffers' shapes, strides and elem_offsets (no checks: bind_arguments has them).
inline BoundCall bind_for_test(const PrimFuncNode& f, std::vector<TestArg>& args) {
  BoundCall call;
  for (size_t p = 0; p < f.params.size(); p++) {
    const Var& v = f.params[p];
    if (auto* a = std::get_if<HostArray>(&args[p])) {
      call.data.push_back(a->bytes.data());
      Buffer b = f.buffer_of(v);
      std::vector<int64_t> strides = a->strides;
      if (strides.empty()) {
        strides.assign(a->shape.size(), 1);
        for (size_t k = a->shape.size(); k-- > 1;) strides[k - 1] = strides[k] * a->shape[k];
      }
      auto bind = [&](const PrimExpr& e, int64_t v) {
        if (e->kind == ExprKind::Var) call.vars[static_cast<const VarNode*>(e.get())] = RuntimeValue::of_int(e->dtype, v);
      };
      for (size_t k = 0; k < b->shape.size(); k++) bind(b->shape[k], a->shape[k]);
      for (size_t k = 0; k < b->strides.size(); k++) bind(b->strides[k], strides[k]);
      if (b->elem_offset) bind(b->elem_offset, a->elem_offset);
      continue;
    }
    call.data.push_back(nullptr);
    if (auto* i = std::get_if<int64_t>(&args[p])) call.vars[v.get()] = RuntimeValue::of_int(v->dtype, *i);
    else call.vars[v.get()] = RuntimeValue::of_float(v->dtype, std::get<double>(args[p]));
  }
  return call;
}

inline std::vector<Argument> interpreter_args(std::vector<TestArg>& args) {
  std::vector<Argument> out;
  for (TestArg& a : args) {
    if (auto* h = std::get_if<HostArray>(&a)) out.emplace_back(h->ref());
    else if (auto* i = std::get_if<int64_t>(&a)) out.emplace_back(*i);
    else out.emplace_back(std::get<double>(a));
  }
  return out;
}

// Every array of `got` equals its counterpart in `want` (ints exactly, floats within tol).
inline void expect_same_arrays(const std::vector<TestArg>& want, const std::vector<TestArg>& got, const std::string& name,
                               double tol = 1e-5) {
  for (size_t p = 0; p < want.size(); p++) {
    auto* w = std::get_if<HostArray>(&want[p]);
    if (!w) continue;
    const HostArray& g = std::get<HostArray>(got[p]);
    for (int64_t i = 0; i < w->count(); i++) {
      double a = w->at(i), b = g.at(i);
      if (w->dtype.is_float()) EXPECT_NEAR(b, a, tol * (1 + std::fabs(a))) << name << " param " << p << " element " << i;
      else EXPECT_EQ(b, a) << name << " param " << p << " element " << i;
    }
  }
}

// The compiled function returned what the interpreter returned: both nothing, or values of one
// dtype (ints exactly, floats within tol; NaN as NaN).
inline void expect_same_return(const std::optional<RuntimeValue>& want, const std::optional<RuntimeValue>& got,
                               const std::string& name, double tol = 1e-5) {
  ASSERT_EQ(got.has_value(), want.has_value()) << name << ": one of them returned a value";
  if (!want) return;
  ASSERT_EQ(got->dtype, want->dtype) << name << ": returned " << got->dtype.name() << ", expected " << want->dtype.name();
  if (!want->dtype.is_float()) {
    EXPECT_EQ(got->ints, want->ints) << name << " return value";
    return;
  }
  double a = want->floats.at(0), b = got->floats.at(0);
  if (std::isnan(a)) EXPECT_TRUE(std::isnan(b)) << name << " return value " << b;
  else if (std::isinf(a)) EXPECT_EQ(b, a) << name << " return value";
  else EXPECT_NEAR(b, a, tol * (1 + std::fabs(a))) << name << " return value";
}

// Runs `name` of `text` interpreted and compiled on copies of `args`; every array and the returned
// value must agree afterwards. Returns the compiled function (for source checks).
inline std::shared_ptr<const CompiledPrimFunc> expect_same_as_interpreter(const std::string& text, const std::string& name,
                                                                         std::vector<TestArg> args, double tol = 1e-5) {
  IRModule m = parse_script(text);
  std::vector<TestArg> want = args, got = args;
  std::optional<RuntimeValue> want_value = interpret(m, name, interpreter_args(want));
  auto f = compile_prim_func(m, name);
  BoundCall call = bind_for_test(*m.find(name), got);
  expect_same_return(want_value, f->run_returning(call), name, tol);
  expect_same_arrays(want, got, name, tol);
  return f;
}

// Compiles `name` of `text`; expects TirNotLowerable whose construct starts with `construct`, at
// `line`, with `why` in the message.
inline void expect_refused(const std::string& text, const std::string& construct, int line, const std::string& why,
                           const std::string& name = "f") {
  IRModule m = parse_script(text);
  try {
    compile_prim_func(m, name);
    ADD_FAILURE() << "compiled: " << construct;
  } catch (const TirNotLowerable& e) {
    EXPECT_EQ(e.construct.rfind(construct, 0), 0u) << e.construct;
    EXPECT_EQ(e.line, line) << e.what();
    EXPECT_NE(std::string(e.what()).find("line " + std::to_string(line) + ": " + construct), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

}  // namespace onegrad::tir::testing
