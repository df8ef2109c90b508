// `onegrad tir check | print | run` (tools/onegrad/tir_*.cpp): outputs, messages and exit codes,
// in-process and through the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../tir/corpus.h"
#include "cli.h"
#include "cli_testing.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"

using namespace onegrad;

namespace {

using Result = onegrad::testing::CliResult;
Result run(const cli::Args& args) { return onegrad::testing::run_cli(args); }

// A program in a file of its own (unique per process and object: suites may run side by side),
// removed at the end of the test.
struct Program {
  std::string path;
  explicit Program(const std::string& text, const std::string& name = "prog.py") {
    static int count = 0;
    path = (std::filesystem::temp_directory_path() /
            ("onegrad_tir_cli_" + std::to_string(::getpid()) + "_" + std::to_string(count++) + "_" + name))
               .string();
    std::ofstream(path) << text;
  }
  ~Program() { std::filesystem::remove(path); }
  Program(const Program&) = delete;
};

std::string programs_dir() { return ONEGRAD_TIR_PROGRAMS; }

const char* kTiny = R"(from tvm.script import tir as T

@T.prim_func
def tiny(A: T.Buffer((3,), "int32"), B: T.Buffer((1, 2), "float32")) -> T.int32:
    A[0] = 1
    A[1] = -2
    A[2] = 300
    B[0, 0] = T.float32(0.5)
    B[0, 1] = T.float32(-1) / T.float32(3)
    return A[2] + 5
)";

const char* kDivide = R"(from tvm.script import tir as T

@T.prim_func
def divide(A: T.Buffer((4,), "int32"), k: T.int32):
    A[0] = A[1] // k
    assert k < 5, "k is small"
)";

const char* kTwoFunctions = R"(from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def first(A: T.Buffer((2,), "int32")):
        A[0] = 1

    @T.prim_func
    def second(a: T.handle, s: T.float32):
        n = T.int32()
        A = T.match_buffer(a, (n,), "float32")
        for i in range(n):
            A[i] = A[i] * s
)";

}  // namespace

// ---- check

TEST(CliTirCheck, CorpusIsOkExceptTheIllTypedOnPurpose) {
  for (const auto& [file, text] : tir::testing::corpus()) {
    std::string path = programs_dir() + "/" + file;
    Result r = run({"tir", "check", path});
    if (file == "explicit_ops.py") {
      EXPECT_EQ(r.code, 1);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err.rfind(path + ":10:101: CmpOp: GE operands have different dtypes", 0), 0u) << r.err;
      // Mod of floats is what TVM accepts and the spec refuses: a warning, not one of the errors
      EXPECT_NE(r.err.find("\n" + path + ":11:37: warning: BinaryOp: Mod needs integer operands"), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.code, 0) << file << ": " << r.err;
      EXPECT_EQ(r.out, path + ": ok\n");
      EXPECT_EQ(r.err, "");
    }
  }
}

TEST(CliTirCheck, ListsEveryErrorWithLineColumnAndRule) {
  Program bad(R"(from tvm.script import tir as T

@T.prim_func
def bad(A: T.Buffer((4,), "float32"), n: T.int32):
    T.evaluate(T.Select(n, n, 2))
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            A[i] = T.float32(1)
    T.evaluate(T.int8(128))
)");
  Program good(kTiny, "good.py");
  Result r = run({"tir", "check", good.path, bad.path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, good.path + ": ok\n");
  EXPECT_EQ(r.err, bad.path + ":5:16: Select: the condition must be bool, not int32\n" + bad.path +
                       ":9:13: BlockVars: Loop iterator var i is defined outside of any block, but is used inside the "
                       "non-opaque current block \"b\".\n" +
                       bad.path + ":10:16: IntImm: the value 128 is out of the range of int8\n");
}

// check_well_formed=False skips only the check TVM's parser would run: `run` runs the function,
// `check` (the verifier) still reports it.
TEST(CliTirCheck, CheckWellFormedFalseIsStillVerified) {
  Program p(R"(from tvm.script import tir as T

@T.prim_func(check_well_formed=False)
def f(A: T.Buffer((4,), "int32")):
    for i in range(4):
        with T.block("b"):
            vi = T.axis.spatial(4, i)
            A[i] = vi * 2
)");
  Result r = run({"tir", "check", p.path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, p.path + ":8:13: BlockVars: Loop iterator var i is defined outside of any block, but is used inside the "
                            "non-opaque current block \"b\".\n");
  r = run({"tir", "run", p.path, "--interpret"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("A: int32[4]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out, run({"tir", "run", p.path}).out);
}

TEST(CliTirCheck, SyntaxErrorMissingFileAndUsage) {
  Program syntax("from tvm.script import tir as T\n\n@T.prim_func\ndef s(A: T.Buffer((4,), \"float32\")):\n    A[0] = * 1\n");
  Result r = run({"tir", "check", syntax.path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, syntax.path + ":5:12: syntax: expected an expression, found '*'\n");
  r = run({"tir", "check", "/nonexistent/prog.py"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "onegrad tir check: cannot read '/nonexistent/prog.py'\n");
  for (cli::Args args : std::vector<cli::Args>{{"tir"}, {"tir", "check"}, {"tir", "frob"}, {"tir", "print"}}) {
    r = run(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("usage: onegrad tir check [--strict] FILE...\n", 0), 0u) << r.err;
  }
  r = run({"tir", "--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("usage: onegrad tir check [--strict] FILE...\n", 0), 0u) << r.out;
}

// ---- --strict: what TVM accepts and the spec refuses (an integer `if` condition here) is a
// warning on standard error by default, an error under --strict, for check, run and print alike.

TEST(CliTirStrict, WarningByDefaultErrorUnderStrict) {
  Program p(R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32")):
    for i in range(8):
        if A[i] % 3:
            B[i] = 1
)");
  const std::string error = p.path + ":6:9: IfThenElse: the condition must be a bool scalar, not int32";
  const std::string warning = p.path + ":6:9: warning: IfThenElse: the condition must be a bool scalar, not int32 [spec rule "
                                       "Statements 9 refuses this, TVM accepts it; an error under --strict / strict=True]\n";
  Result r = run({"tir", "check", p.path});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, p.path + ": ok\n");
  EXPECT_EQ(r.err, warning);
  for (const cli::Args& args : {cli::Args{"tir", "check", "--strict", p.path}, cli::Args{"tir", "check", p.path, "--strict"}}) {
    r = run(args);
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, error + "\n");
  }

  r = run({"tir", "run", p.path});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, warning);
  EXPECT_EQ(r.out, run({"tir", "run", p.path, "--interpret"}).out);  // compiled as interpreted
  EXPECT_NE(r.out.find("B: int32[8] hash="), std::string::npos) << r.out;
  r = run({"tir", "run", p.path, "--strict"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, error + "\n");

  r = run({"tir", "print", p.path});  // printing checks nothing unless asked to
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("if A[i] % 3:"), std::string::npos) << r.out;
  r = run({"tir", "print", "--strict", p.path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, error + "\n");
  Program good(kTiny, "good.py");
  r = run({"tir", "print", "--strict", good.path});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, run({"tir", "print", good.path}).out);
}

// ---- print

TEST(CliTirPrint, PrintsTheParsedProgramBack) {
  for (const char* file : {"matmul_blocks.py", "module.py", "signature_forms.py"}) {
    std::string path = programs_dir() + "/" + file;
    Result r = run({"tir", "print", path});
    EXPECT_EQ(r.code, 0) << r.err;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(r.out, tir::print_script(tir::parse_script(text.str())));
    Program printed(r.out);  // the printed text reads back to itself
    EXPECT_EQ(run({"tir", "print", printed.path}).out, r.out);
  }
  Program syntax("from tvm.script import tir as T\n\n@T.prim_func\ndef s(:\n");
  Result r = run({"tir", "print", syntax.path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.rfind(syntax.path + ":4:7: syntax: ", 0), 0u) << r.err;
  EXPECT_EQ(run({"tir", "print", "/nonexistent.py"}).err, "onegrad tir print: cannot read '/nonexistent.py'\n");
}

// ---- run

TEST(CliTirRun, TinyProgramGivesTheHandComputedDigest) {
  Program tiny(kTiny);
  Result r = run({"tir", "run", tiny.path, "--interpret"});
  EXPECT_EQ(r.code, 0) << r.err;
  // Python: fnv1a(struct.pack('<iii', 1, -2, 300)) and fnv1a(b'5.0000e-01;-3.3333e-01;')
  EXPECT_EQ(r.out,
            "A: int32[3] hash=d138c7a1bb0bcd62 sum=299 min=-2 max=300\n"
            "B: float32[1, 2] hash=69b425e81e4eff68 sum=0.16667 min=-0.33333 max=0.5\n"
            "ret: int32 305\n");
  EXPECT_EQ(r.err, "");
}

TEST(CliTirRun, SameSeedSameDigestOtherSeedOther) {
  std::string path = programs_dir() + "/interp_kernels.py";
  cli::Args args = {"tir", "run", path, "--func", "matmul", "--interpret", "--seed", "11"};
  Result a = run(args), b = run(args);
  args[7] = "12";
  Result c = run(args);
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  std::istringstream la(a.out), lc(c.out);
  std::string x, y;
  int lines = 0;
  while (std::getline(la, x) && std::getline(lc, y)) {  // every array differs
    EXPECT_NE(x, y);
    ++lines;
  }
  EXPECT_EQ(lines, 3);
  EXPECT_EQ(a.out.rfind("A: float32[4, 5] hash=", 0), 0u) << a.out;
  // --seed=N spells the same
  EXPECT_EQ(run({"tir", "run", path, "--func=matmul", "--interpret", "--seed=11"}).out, a.out);
}

TEST(CliTirRun, VariablesTakeVarOrTheDefault) {
  Program two(kTwoFunctions);
  Result r = run({"tir", "run", two.path, "--func", "second", "--interpret", "--var", "n=5", "--var=s=0.5"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("var n = 5\nvar s = 0.5\nA: float32[5] hash=", 0), 0u) << r.out;
  r = run({"tir", "run", two.path, "--func", "second", "--interpret"});
  EXPECT_EQ(r.out.rfind("var n = 8\nvar s = 8\nA: float32[8] hash=", 0), 0u) << r.out;
  // s = 0 zeroes A, negative draws to -0, which the digest writes as 0:
  // Python: fnv1a(b'0.0000e+00;' * 3)
  r = run({"tir", "run", two.path, "--func", "second", "--interpret", "--var", "s=0", "--var", "n=3"});
  EXPECT_EQ(r.out, "var n = 3\nvar s = 0\nA: float32[3] hash=25438581466c6306 sum=0 min=0 max=0\n");
}

const char* kScale = R"(from tvm.script import tir as T

@T.prim_func
def scale(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), C: T.Buffer((4,), "int32")):
    for i in range(16):
        B[i] = A[i] * T.float32(3) + T.float32(1)
    for j in range(4):
        C[j] = C[j] * 7 - j
)";

// Compiled code (the default) and the interpreter leave the same digests for the same seed.
TEST(CliTirRun, CompiledRunMatchesTheInterpreter) {
  Program scale(kScale);
  Result compiled = run({"tir", "run", scale.path, "--seed", "5"});
  Result interpreted = run({"tir", "run", scale.path, "--seed", "5", "--interpret"});
  EXPECT_EQ(compiled.code, 0) << compiled.err;
  EXPECT_EQ(compiled.err, "");
  EXPECT_EQ(compiled.out, interpreted.out);
  EXPECT_EQ(std::count(compiled.out.begin(), compiled.out.end(), '\n'), 3) << compiled.out;
}

// A function the compiler does not lower yet (a while loop) runs through the interpreter, with a
// note naming the construct and its line.
TEST(CliTirRun, NotLowerableFunctionRunsInterpretedWithANote) {
  Program loop(R"(from tvm.script import tir as T

@T.prim_func
def count(A: T.Buffer((1,), "int32")):
    A[0] = 0
    while A[0] < 10:
        A[0] = A[0] + 3
)");
  Result r = run({"tir", "run", loop.path});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, loop.path + ":6: note: While cannot be compiled (a kernel's loops have bounds known when they start); running the interpreter\n");
  EXPECT_EQ(r.out, run({"tir", "run", loop.path, "--interpret"}).out);
}

TEST(CliTirRun, ProgramErrorsGiveFileAndLine) {
  Program div(kDivide);
  Result r = run({"tir", "run", div.path, "--interpret", "--var", "k=0"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, div.path + ":5: FloorDiv: integer division by zero (" + "5 / 0, int32)\n");
  r = run({"tir", "run", div.path, "--interpret", "--var", "k=7"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, div.path + ":6: assertion failed: k is small\n");
  Program ill("from tvm.script import tir as T\n\n@T.prim_func\ndef f(n: T.int32):\n    T.evaluate(T.Select(n, n, 2))\n");
  r = run({"tir", "run", ill.path, "--interpret"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, ill.path + ":5:16: Select: the condition must be bool, not int32\n");
}

TEST(CliTirRun, UsageErrors) {
  Program two(kTwoFunctions);
  Program div(kDivide);
  auto expect = [](cli::Args args, int code, const std::string& err) {
    Result r = run(args);
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_EQ(r.err, err);
    EXPECT_EQ(r.out, "");
  };
  std::string p = two.path;
  expect({"tir", "run", p, "--interpret"}, 2,
         "onegrad tir run: " + p + " has 2 functions (first, second): choose one with --func\n");
  expect({"tir", "run", p, "--func", "third"}, 2,
         "onegrad tir run: " + p + " has no function 'third' (functions: first, second)\n");
  expect({"tir", "run", p, "--func", "second", "--var", "n"}, 2, "onegrad tir run: --var expects NAME=VALUE, got 'n'\n");
  expect({"tir", "run", p, "--func", "second", "--var", "n=abc"}, 2,
         "onegrad tir run: --var 'n=abc': the value is not a number\n");
  expect({"tir", "run", p, "--func", "second", "--var", "n=1", "--var", "n=2"}, 2,
         "onegrad tir run: --var: 'n' is given twice\n");
  expect({"tir", "run", p, "--func", "second", "--interpret", "--var", "m=3"}, 2,
         "onegrad tir run: second: unknown variable 'm' (the function's variables: n, s)\n");
  expect({"tir", "run", p, "--func", "second", "--interpret", "--var", "n=-2"}, 2,
         "onegrad tir run: second: dimension 0 of buffer A is -2, negative\n");
  expect({"tir", "run", div.path, "--interpret", "--var", "k=0.5"}, 2,
         "onegrad tir run: divide: variable k is int32, not a float\n");
  expect({"tir", "run", p, "--seed", "x"}, 2, "onegrad tir run: --seed expects a non-negative integer, got 'x'\n");
  expect({"tir", "run", p, "--seed"}, 2, "onegrad tir run: --seed needs a value\n");
  expect({"tir", "run", p, "--fast"}, 2, "onegrad tir run: unknown option '--fast'\n");
  expect({"tir", "run", p, "--fast=1"}, 2, "onegrad tir run: unknown option '--fast'\n");
  expect({"tir", "run", p, "--strict=1"}, 2, "onegrad tir run: --strict takes no value\n");
  expect({"tir", "run", p, p}, 2, "onegrad tir run: expected one FILE, got '" + p + "' and '" + p + "'\n");
  expect({"tir", "run"}, 2, "onegrad tir run: expected a FILE\n");
  expect({"tir", "run", "/nonexistent.py"}, 1, "onegrad tir run: cannot read '/nonexistent.py'\n");
  std::string sig = programs_dir() + "/signature_forms.py";
  expect({"tir", "run", sig, "--interpret"}, 2,
         "onegrad tir run: signature_forms: parameter p is a handle without a buffer: no argument can be made for it\n");
}

TEST(CliTirProcess, ExitCodesAndOutput) {
  Program tiny(kTiny);
  Program div(kDivide);
  auto status = [](const std::string& cmd) {
    int s = std::system((std::string(ONEGRAD_BIN) + " " + cmd + " >/dev/null 2>&1").c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  };
  EXPECT_EQ(status("tir check " + tiny.path), 0);
  EXPECT_EQ(status("tir check " + programs_dir() + "/explicit_ops.py"), 1);
  EXPECT_EQ(status("tir print " + tiny.path), 0);
  EXPECT_EQ(status("tir run " + tiny.path + " --interpret"), 0);
  EXPECT_EQ(status("tir run " + tiny.path), 0);  // compiled, or interpreted with a note where it cannot be
  EXPECT_EQ(status("tir run " + div.path + " --interpret --var k=0"), 1);
  EXPECT_EQ(status("tir run " + div.path + " --interpret --var q=0"), 2);
  FILE* p = popen((std::string(ONEGRAD_BIN) + " tir run " + tiny.path + " --interpret").c_str(), "r");
  char buf[128] = {0};
  ASSERT_NE(fgets(buf, sizeof buf, p), nullptr);
  pclose(p);
  EXPECT_STREQ(buf, "A: int32[3] hash=d138c7a1bb0bcd62 sum=299 min=-2 max=300\n");
}
