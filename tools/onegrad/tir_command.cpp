// onegrad tir check FILE... | tir print FILE | tir run FILE [...] (docs/tir.md "Command line").
#include <ostream>

#include "cli.h"
#include "tir/print/printer.h"
#include "tir_source.h"

namespace onegrad::cli {

namespace {

constexpr const char* kTirUsage =
    "usage: onegrad tir check [--strict] FILE...\n"
    "       onegrad tir print [--strict] FILE\n"
    "       onegrad tir run FILE [--strict] [--func NAME] [--interpret] [--seed N] [--var NAME=VALUE]...\n"
    "--strict: the spec's typing rules to the letter (what TVM accepts and the spec refuses is an error,\n"
    "          not a warning; docs/tir.md \"Where the spec and TVM disagree\")\n";

// Parse, type check and well-formedness of each file: "FILE: ok" on standard output (after its
// warnings, if any), or every finding as FILE:line:column: rule: message on standard error.
int check(Args files, std::ostream& out, std::ostream& err) {
  tir::SpecMode spec = take_strict_flag(files);
  if (files.empty()) {
    err << kTirUsage;
    return kUsage;
  }
  int code = kOk;
  for (const std::string& path : files) {
    std::optional<tir::IRModule> m = load_tir("check", path, err);
    if (m && report_tir_issues(path, *m, err, tir::WellFormedness::Verify, spec)) {
      out << path << ": ok\n";
    } else {
      code = kFailed;
    }
  }
  return code;
}

// Prints what parses; under --strict only a program that follows the spec to the letter (checked
// first, as `check --strict` does).
int print(Args args, std::ostream& out, std::ostream& err) {
  tir::SpecMode spec = take_strict_flag(args);
  if (args.size() != 1) {
    err << kTirUsage;
    return kUsage;
  }
  std::optional<tir::IRModule> m = load_tir("print", args[0], err);
  if (!m) return kFailed;
  if (spec == tir::SpecMode::Strict && !report_tir_issues(args[0], *m, err, tir::WellFormedness::Verify, spec)) return kFailed;
  out << tir::print_script(*m);
  return kOk;
}

}  // namespace

int run_tir(const Args& args, std::ostream& out, std::ostream& err) {
  Args rest(args.empty() ? args.end() : args.begin() + 1, args.end());
  if (!args.empty() && args[0] == "check") return check(rest, out, err);
  if (!args.empty() && args[0] == "print") return print(rest, out, err);
  if (!args.empty() && args[0] == "run") return run_tir_function(rest, out, err);
  if (!args.empty() && (args[0] == "help" || args[0] == "--help" || args[0] == "-h")) {
    out << kTirUsage;
    return kOk;
  }
  err << kTirUsage;
  return kUsage;
}

}  // namespace onegrad::cli
