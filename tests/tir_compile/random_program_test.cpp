// Random imperative programs over two small int32 buffers and a local one (loops of every serial
// kind, ifs on loaded values, break and continue, lets, loads and stores at computed indices), compiled and compared
// with the interpreter: the memory-ordering edges (docs/tir.md, "Ordering through memory") must
// keep every program's result, whatever its mix of read-after-write, write-after-read and
// loop-carried accesses, vector (Ramp) loads and stores and if_then_else arms. With `stops`, the
// programs also divide by loaded values, assert, return, and index out of bounds (in loops, in
// vector lanes, in conditional arms) (docs/tir.md, "Faults", "Returns", "Bounds"): the first fault
// or return must leave memory, the error (the same access and index) and the returned value as
// the interpreter does.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "compile_test_util.h"

namespace onegrad::tir {
namespace {

class ProgramGenerator {
 public:
  explicit ProgramGenerator(uint32_t seed, bool stops = false) : rng_(seed), stops_(stops) {}

  std::string program() {
    out_.str("");
    out_ << "from tvm.script import tir as T\n\n@T.prim_func\n"
            "def f(A: T.Buffer((8,), \"int32\"), B: T.Buffer((8,), \"int32\"))" << (stops_ ? " -> T.int32" : "") << ":\n"
            "    L = T.alloc_buffer((8,), \"int32\", scope=\"local\")\n"
            "    for z in range(8):\n        L[z] = z\n";
    statements(1, 0, 2 + pick(4));
    return out_.str();
  }

 private:
  int pick(int n) { return int(rng_() % uint32_t(n)); }
  std::string buffer() { return std::string(1, "ABL"[pick(3)]); }
  std::string pad(int depth) { return std::string(size_t(4 * depth), ' '); }

  // An affine form of the variables in scope floor-mod `m`: an index in [0, m). With stops, one
  // in six is in [-1, 9): out of bounds of the 8-element buffers on either side.
  std::string affine(int m) {
    std::string e = std::to_string(pick(8));
    for (const std::string& v : vars_)
      if (pick(2)) e += " + " + v + (pick(2) ? " * " + std::to_string(1 + pick(3)) : "");
    if (stops_ && pick(6) == 0) return "(" + e + ") % 10 - 1";
    return "(" + e + ") % " + std::to_string(m);
  }
  std::string index() { return affine(8); }
  // Four lanes from a base in [0, 5) with stride 1, or (with stops) any base and stride 1..2.
  std::string ramp() {
    if (stops_ && pick(3) == 0) return "T.Ramp(" + affine(8) + ", " + std::to_string(1 + pick(2)) + ", 4)";
    return "T.Ramp(" + affine(5) + ", 1, 4)";
  }
  std::string load() { return buffer() + "[" + index() + "]"; }
  std::string value() {
    switch (pick(stops_ ? 7 : 5)) {
      case 4: return "T.if_then_else(" + load() + " > " + std::to_string(pick(4)) + ", " + load() + ", " + load() + ")";
      case 5: return load() + " // " + load();
      case 6: return "T.truncmod(" + load() + ", " + load() + ")";
      case 0: return load() + " + " + std::to_string(pick(5));
      case 1: return load() + " - " + load();
      case 2: return load() + " * " + std::to_string(pick(3)) + " + " + (vars_.empty() ? "1" : vars_[size_t(pick(int(vars_.size())))]);
      default: return "T.max(" + load() + ", " + load() + ")";
    }
  }

  void statements(int depth, int loops, int count) {
    for (int k = 0; k < count; k++) statement(depth, loops);
  }

  void statement(int depth, int loops) {
    int kind = pick(depth < 4 ? 6 : 2);
    if (stops_ && pick(12) == 0) {
      out_ << pad(depth) << "assert " << load() << " < 6, \"small\"\n";
    } else if (stops_ && pick(14) == 0) {
      out_ << pad(depth) << "if " << load() << " > " << pick(5) << ":\n" << pad(depth + 1) << "return " << value() << "\n";
    } else if (loops > 0 && pick(8) == 0) {  // leave the iteration or the loop on a loaded value
      out_ << pad(depth) << "if " << load() << " > " << pick(5) << ":\n" << pad(depth + 1) << (pick(2) ? "break" : "continue") << "\n";
    } else if (kind <= 1 && pick(5) == 0) {  // a vector store of a vector load, lane by lane
      out_ << pad(depth) << buffer() << "[" << ramp() << "] = " << buffer() << "[" << ramp() << "] + T.Broadcast(" << pick(3) << ", 4)\n";
    } else if (kind <= 1) {
      out_ << pad(depth) << buffer() << "[" << index() << "] = " << value() << "\n";
    } else if (kind <= 3 && loops < 3) {
      std::string v = "i" + std::to_string(next_var_++);
      int lo = pick(2), extent = 1 + pick(4);
      const char* forms[] = {"range(%d, %d)", "T.serial(%d, %d)", "T.unroll(%d, %d)", "T.vectorized(%d, %d)"};
      int form = pick(4);
      char header[64];
      if (form == 3) lo = 0;  // vectorized loops start at 0
      std::snprintf(header, sizeof header, forms[form], lo, lo + extent);
      out_ << pad(depth) << "for " << v << " in " << header << ":\n";
      vars_.push_back(v);
      statements(depth + 1, loops + 1, 1 + pick(3));
      vars_.pop_back();
    } else if (kind == 4) {
      out_ << pad(depth) << "if " << load() << " > " << pick(3) << ":\n";
      statements(depth + 1, loops, 1 + pick(2));
      if (pick(2)) {
        out_ << pad(depth) << "else:\n";
        statements(depth + 1, loops, 1 + pick(2));
      }
    } else {
      std::string v = "x" + std::to_string(next_var_++);
      out_ << pad(depth) << v << " = " << value() << "\n";
      vars_.push_back(v);
      statements(depth, loops, 1 + pick(2));
      vars_.pop_back();
    }
  }

  std::mt19937 rng_;
  bool stops_;
  std::ostringstream out_;
  std::vector<std::string> vars_;
  int next_var_ = 0;
};

// TIR_RANDOM_PROGRAMS=N runs seeds 1..N instead of 1..40 (a longer search after a change to the
// lowering or the codegen passes).
uint32_t program_count() { return testing::case_count("TIR_RANDOM_PROGRAMS", 40); }
// How many of the programs must show a feature (5 of the default 40, in proportion for fewer).
int expected_at_least() { return std::max(1, int(5 * program_count() / 40)); }

TEST(TirCompileRandomPrograms, MatchTheInterpreter) {
  const DataType i32 = DataType::int_(32);
  std::mt19937 data(7);
  int breaks = 0, continues = 0;
  for (uint32_t seed = 1; seed <= program_count(); seed++) {
    std::string text = ProgramGenerator(seed).program();
    breaks += text.find("break") != std::string::npos;
    continues += text.find("continue") != std::string::npos;
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + text);
    testing::expect_same_as_interpreter(text, "f", {testing::random_array(i32, {8}, data), testing::random_array(i32, {8}, data)});
    if (HasFailure()) break;  // one program's listing is enough to debug
  }
  EXPECT_GE(breaks, expected_at_least());
  EXPECT_GE(continues, expected_at_least());
}

TEST(TirCompileRandomPrograms, FaultsAndReturnsMatchTheInterpreter) {
  const DataType i32 = DataType::int_(32);
  std::mt19937 data(11);
  int faults = 0, returns = 0, out_of_bounds = 0;
  for (uint32_t seed = 1; seed <= program_count(); seed++) {
    std::string text = ProgramGenerator(seed, true).program();
    SCOPED_TRACE(text);
    IRModule m = parse_script(text);
    std::vector<testing::TestArg> args{testing::random_array(i32, {8}, data), testing::random_array(i32, {8}, data)};
    std::vector<testing::TestArg> want = args, got = args;
    std::optional<RuntimeValue> want_value;
    std::string error;
    try {
      want_value = interpret(m, "f", testing::interpreter_args(want));
    } catch (const TirRuntimeError& e) {
      error = e.what();
      out_of_bounds += dynamic_cast<const TirIndexError*>(&e) != nullptr;
    }
    auto f = compile_prim_func(m, "f");
    BoundCall call = testing::bind_for_test(*m.find("f"), got);
    if (error.empty()) {
      returns += want_value.has_value();
      testing::expect_same_return(want_value, f->run_returning(call), "f");
    } else {
      faults++;
      try {
        f->run(call);
        ADD_FAILURE() << "no error; the interpreter raised " << error;
      } catch (const TirRuntimeError& e) {
        EXPECT_EQ(std::string(e.what()), error);
      }
    }
    testing::expect_same_arrays(want, got, "f");
    if (HasFailure()) break;
  }
  EXPECT_GE(faults, expected_at_least());
  EXPECT_GE(returns, expected_at_least());
  EXPECT_GE(out_of_bounds, expected_at_least());
}

}  // namespace
}  // namespace onegrad::tir
