// Running the `onegrad` tool in-process for the CLI tests: the exit code and both streams.
#pragma once
#include <sstream>
#include <string>

#include "cli.h"

namespace onegrad::testing {

struct CliResult {
  int code;
  std::string out, err;
};

inline CliResult run_cli(const cli::Args& args) {
  std::ostringstream out, err;
  int code = cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace onegrad::testing
