// Every function of the TIR corpus (tests/tir/programs) that the compiler lowers runs compiled and
// interpreted on the same random inputs and must agree; the rest must be refused with
// TirNotLowerable (never another error). The test prints which were refused and why.
#include <gtest/gtest.h>

#include <iostream>

#include "compile_test_util.h"
#include "tir/corpus.h"
#include "tir/interpret/interpret_errors.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {
namespace {

using testing::HostArray;
using testing::TestArg;

// Arguments for f: random arrays for buffer parameters (symbolic extents 5), small scalars.
// nullopt when a buffer's shape is not literals and Vars.
std::optional<std::vector<TestArg>> arguments(const PrimFuncNode& f, std::mt19937& rng) {
  std::vector<TestArg> args;
  for (const Var& p : f.params) {
    Buffer b = f.buffer_of(p);
    if (!b) {
      if (p->dtype.is_float()) args.emplace_back(0.75);
      else if (p->dtype.is_handle()) return std::nullopt;
      else args.emplace_back(int64_t(3));
      continue;
    }
    if (!b->strides.empty()) return std::nullopt;
    std::vector<int64_t> shape;
    for (const PrimExpr& d : b->shape) {
      if (const IntImmNode* k = as_int_imm(d)) shape.push_back(k->value);
      else if (d->kind == ExprKind::Var) shape.push_back(5);
      else return std::nullopt;
    }
    args.emplace_back(testing::random_array(b->dtype, shape, rng));
  }
  return args;
}

TEST(TirCompileCorpus, CompiledFunctionsMatchTheInterpreter) {
  std::mt19937 rng(20261125);
  int compiled = 0, refused = 0, faulted = 0;
  for (const auto& [file, text] : testing::corpus()) {
    IRModule m = parse_script(text);
    for (const auto& [name, f] : m.functions) {
      std::shared_ptr<const CompiledPrimFunc> c;
      try {
        c = compile_prim_func(m, name);
      } catch (const TirNotLowerable& e) {
        refused++;
        std::cout << "  not lowered: " << file << " " << name << ": " << e.what() << "\n";
        continue;
      }
      auto args = arguments(*f, rng);
      if (!args) continue;
      std::vector<TestArg> want = *args, got = *args;
      std::optional<RuntimeValue> want_value;
      std::string fault;  // a fault compiled code reports too: the same message
      try {
        want_value = interpret(m, name, testing::interpreter_args(want));
      } catch (const TirDivisionByZero& e) {
        fault = e.what();
      } catch (const TirAssertionError& e) {
        fault = e.what();
      } catch (const TirRuntimeError&) {
        continue;  // random inputs the program rejects (out of bounds)
      }
      compiled++;
      BoundCall call = testing::bind_for_test(*f, got);
      const std::string label = file + " " + name;
      if (!fault.empty()) {
        faulted++;
        try {
          c->run(call);
          ADD_FAILURE() << label << ": no fault, the interpreter raised " << fault;
        } catch (const TirRuntimeError& e) {
          EXPECT_EQ(std::string(e.what()), fault) << label;
        }
      } else {
        testing::expect_same_return(want_value, c->run_returning(call), label, 1e-3);
      }
      testing::expect_same_arrays(want, got, label, 1e-3);
    }
  }
  std::cout << "  " << compiled << " functions compiled and compared (" << faulted << " raising the same fault), " << refused
            << " not lowered\n";
  EXPECT_GE(compiled, 10);
}

}  // namespace
}  // namespace onegrad::tir
