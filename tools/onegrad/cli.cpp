// The dispatch of `onegrad` subcommands.
#include <ostream>

#include "cli.h"
#include "uop/errors.h"

namespace onegrad::cli {

namespace {

constexpr const char* kUsageText = R"(usage: onegrad COMMAND [ARGS]

commands:
  simplify EXPR [--var NAME:MIN:MAX]... [--trace]
      simplify an index expression (Python syntax: + - * // % < <= > >= == != min max,
      'a if c else b'); each variable needs bounds. --trace lists the rules that fired.
  uop print FILE
      parse a UOp graph in the text form (FILE or - for stdin), verify it, print it back
  train [--epochs N] [--batch N] [--lr X] [--seed N] [--limit N] [--data DIR] [--checkpoint FILE]
      train a small CNN on Fashion-MNIST on the CPU, evaluate it and save a checkpoint
  tir check FILE...
      parse, type check and check the well-formedness of TVMScript files: 'FILE: ok', or every
      problem as FILE:line:column: rule: message (exit 1)
  tir print FILE
      parse a TVMScript file and print it back
  tir run FILE [--func NAME] [--interpret] [--seed N] [--var NAME=VALUE]...
      run a TIR function on seeded random arrays and print a digest of each array afterwards
  onnx info MODEL
      an ONNX model's inputs, outputs (types and dims), ops and opsets
  onnx run MODEL [--input NAME=FILE.npy]... [--device D] [--bench N] [--save DIR]
      run an ONNX model (inputs not given: seeded random values of their declared shape); print
      each output's dtype, shape and first values; --bench N: median time of N more runs
  help
      this text
)";

}  // namespace

int run(const Args& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << kUsageText;
    return kUsage;
  }
  const std::string& cmd = args[0];
  Args rest(args.begin() + 1, args.end());
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    out << kUsageText;
    return kOk;
  }
  if (cmd == "simplify") return run_simplify(rest, out, err);
  if (cmd == "uop") return run_uop(rest, out, err);
  if (cmd == "train") return run_train(rest, out, err);
  if (cmd == "tir") return run_tir(rest, out, err);
  if (cmd == "onnx") return run_onnx(rest, out, err);
  err << "onegrad: unknown command '" << cmd << "'\n\n" << kUsageText;
  return kUsage;
}

}  // namespace onegrad::cli
