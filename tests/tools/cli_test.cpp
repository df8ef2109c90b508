// The `onegrad` tool: outputs, error messages and exit codes, in-process and as a process.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../nn/file_testing.h"
#include "cli.h"
#include "cli_testing.h"
#include "uop/errors.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

using Result = onegrad::testing::CliResult;
Result run(const cli::Args& args) { return onegrad::testing::run_cli(args); }

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

UOpRef buffer(int64_t size) { return UOp::create(Ops::BUFFER, {}, BufferArg{7, size, dtypes::float32, Device("CPU")}); }

}  // namespace

TEST(CliSimplify, TheIssueExample) {
  Result r = run({"simplify", "(x*4+y)//4", "--var", "x:0:100", "--var", "y:0:3"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "x\n");
  EXPECT_EQ(r.err, "");
}

TEST(CliSimplify, Outputs) {
  EXPECT_EQ(run({"simplify", "x % 4 + x // 4 * 4", "--var", "x:0:100"}).out, "x\n");
  EXPECT_EQ(run({"simplify", "x < 200", "--var=x:0:100"}).out, "True\n");
  EXPECT_EQ(run({"simplify", "2 + 3 * 4"}).out, "14\n");
  EXPECT_EQ(run({"simplify", "-7 // 2"}).out, "-4\n");  // Python floor division
  EXPECT_EQ(run({"simplify", "-7 % 3"}).out, "2\n");
  EXPECT_EQ(run({"simplify", "x // 4", "--var", "x:0:3"}).out, "0\n");
  EXPECT_EQ(run({"simplify", "x", "--var", "x:-5:5"}).out, "x\n");
}

TEST(CliSimplify, TraceNamesTheRules) {
  Result r = run({"simplify", "x + 0", "--var", "x:0:9", "--trace"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "x\n");
  EXPECT_FALSE(r.err.empty());  // one line per rule that fired
}

TEST(CliSimplify, MalformedExpressionPointsAtTheColumn) {
  Result r = run({"simplify", "(x*4+", "--var", "x:0:100"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "onegrad simplify: column 6: expected an expression, found 'end of input'\n  (x*4+\n       ^\n");
  r = run({"simplify", "x + z", "--var", "x:0:100"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "onegrad simplify: column 5: unknown variable 'z' (declare it with --var z:MIN:MAX)\n  x + z\n      ^\n");
}

TEST(CliSimplify, UsageErrors) {
  EXPECT_EQ(run({"simplify", "x", "--var", "x:0"}).err, "onegrad simplify: --var expects NAME:MIN:MAX, got 'x:0'\n");
  EXPECT_EQ(run({"simplify", "x", "--var", "x:a:3"}).err,
            "onegrad simplify: --var 'x:a:3': MIN and MAX must be integers\n");
  EXPECT_EQ(run({"simplify", "x", "--var", "x:5:3"}).err, "onegrad simplify: --var 'x:5:3': MIN is greater than MAX\n");
  EXPECT_EQ(run({"simplify", "x", "--var", "1x:0:3"}).err,
            "onegrad simplify: --var '1x:0:3': '1x' is not a variable name\n");
  EXPECT_EQ(run({"simplify", "x", "--var", "x:0:3", "--var", "x:0:4"}).err,
            "onegrad simplify: --var: 'x' is declared twice\n");
  EXPECT_EQ(run({"simplify", "x", "--var"}).err, "onegrad simplify: --var needs NAME:MIN:MAX\n");
  EXPECT_EQ(run({"simplify", "x", "--bogus"}).err, "onegrad simplify: unknown option '--bogus'\n");
  EXPECT_EQ(run({"simplify"}).err,
            "onegrad simplify: expected one expression, got 0 (usage: onegrad simplify EXPR --var NAME:MIN:MAX ...)\n");
  for (auto args : std::vector<cli::Args>{{"simplify", "x", "--var", "x:0"}, {"simplify"}, {"bogus"}, {}})
    EXPECT_EQ(run(args).code, 2);
}

TEST(CliUop, PrintRoundTripsAValidGraph) {
  UOpRef b = buffer(12);
  UOpRef g = UOp::create(Ops::RESHAPE, {b, UOp::shape_operand(std::vector<int64_t>{4, 3})});
  g = UOp::create(Ops::REDUCE, {g}, ReduceArg{Ops::ADD, {1}});
  std::string text = print_graph(g);
  Result r = run({"uop", "print", temp_file("good.uop", text)});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, text);
}

TEST(CliUop, VerifyFailureNamesTheRule) {
  UOpRef bad = UOp::create(Ops::RESHAPE, {buffer(12), UOp::shape_operand(std::vector<int64_t>{5, 2})});
  std::string path = temp_file("bad.uop", print_graph(bad));
  Result r = run({"uop", "print", path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(path + ": verify: RESHAPE: reshape products differ"), std::string::npos) << r.err;
}

TEST(CliUop, ParseErrorGivesFileLineAndColumn) {
  std::string path = temp_file("broken.uop", "%0 = CONST index 4\n%1 = FROB index (%0)\n");
  Result r = run({"uop", "print", path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind(path + ":2:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("FROB"), std::string::npos) << r.err;
}

TEST(CliUop, UsageAndMissingFile) {
  Result r = run({"uop", "print", "/nonexistent/graph.uop"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "onegrad uop print: cannot read '/nonexistent/graph.uop'\n");
  r = run({"uop", "show"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "usage: onegrad uop print FILE   (FILE may be - for standard input)\n");
}

TEST(CliProcess, ExitCodesAndStreams) {
  auto status = [](const std::string& cmd) {
    int s = std::system((std::string(ONEGRAD_BIN) + " " + cmd + " >/dev/null 2>&1").c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  };
  EXPECT_EQ(status("simplify '(x*4+y)//4' --var x:0:100 --var y:0:3"), 0);
  EXPECT_EQ(status("simplify '(x*4+' --var x:0:100"), 2);
  EXPECT_EQ(status("help"), 0);
  EXPECT_EQ(status("nonsense"), 2);
  EXPECT_EQ(status("uop print /nonexistent"), 1);
  FILE* p = popen((std::string(ONEGRAD_BIN) + " simplify '(x*4+y)//4' --var x:0:100 --var y:0:3").c_str(), "r");
  char buf[64] = {0};
  ASSERT_NE(fgets(buf, sizeof buf, p), nullptr);
  pclose(p);
  EXPECT_STREQ(buf, "x\n");
}

// ---- onegrad train (tools/onegrad/train_command.cpp) on a tiny data set in Fashion-MNIST's layout

namespace {

// An IDX file of uint8 (magic 0x00 0x00 0x08 ndim, big-endian dims, the bytes).
void write_idx_u8(const std::string& path, const std::vector<uint32_t>& dims, const std::vector<uint8_t>& values) {
  std::ofstream f(path, std::ios::binary);
  f.put(0).put(0).put(0x08).put(char(dims.size()));
  for (uint32_t d : dims) f.put(char(d >> 24)).put(char(d >> 16)).put(char(d >> 8)).put(char(d));
  f.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size()));
}

// n images of class i % 10 whose brightness says the class, as split `prefix` ("train" or "t10k").
void write_split(const std::string& dir, const std::string& prefix, uint32_t n) {
  std::vector<uint8_t> pixels, labels;
  for (uint32_t i = 0; i < n; i++) {
    labels.push_back(uint8_t(i % 10));
    pixels.insert(pixels.end(), 28 * 28, uint8_t(25 * (i % 10)));
  }
  write_idx_u8(dir + "/" + prefix + "-images-idx3-ubyte", {n, 28, 28}, pixels);
  write_idx_u8(dir + "/" + prefix + "-labels-idx1-ubyte", {n}, labels);
}

}  // namespace

TEST(CliTrain, TrainsEvaluatesAndSavesACheckpoint) {
  onegrad::testing::TempDir tmp;  // unique per test and process: suites may run side by side
  std::string dir = tmp.str();
  write_split(dir, "train", 40);
  write_split(dir, "t10k", 20);
  std::string ck = dir + "/ck.safetensors";
  Result r = run({"train", "--data", dir, "--epochs", "2", "--batch", "8", "--lr", "0.01", "--checkpoint", ck});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Fashion-MNIST: 40 training and 20 test images"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("epoch 2: train loss"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("done: 2 epochs"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("epoch 1/2 ["), std::string::npos) << r.err;  // the progress bar
  EXPECT_NE(r.err.find("images/s"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(ck));
}

TEST(CliTrain, BadOptionsAndMissingDataAreReported) {
  Result r = run({"train", "--epochs", "0"});
  EXPECT_EQ(r.code, cli::kUsage);
  EXPECT_NE(r.err.find("must be positive"), std::string::npos) << r.err;
  r = run({"train", "--batch", "x"});
  EXPECT_EQ(r.code, cli::kUsage);
  EXPECT_NE(r.err.find("bad value 'x' for --batch"), std::string::npos) << r.err;
  r = run({"train", "--speed", "3"});
  EXPECT_EQ(r.code, cli::kUsage);
  EXPECT_NE(r.err.find("unknown option --speed"), std::string::npos) << r.err;
  r = run({"train", "--lr"});
  EXPECT_NE(r.err.find("--lr needs a value"), std::string::npos) << r.err;
  onegrad::testing::TempDir tmp;
  std::string empty = tmp.str();
  EXPECT_THROW(
      {
        try {
          run({"train", "--data", empty});
        } catch (const FileError& e) {
          EXPECT_NE(std::string(e.what()).find("apt-get install dataset-fashion-mnist"), std::string::npos) << e.what();
          throw;
        }
      },
      FileError);
}
