// Running a shell command and capturing what it prints: how the runtime drives external compilers.
#pragma once
#include <string>
#include <string_view>

namespace onegrad {

struct CommandResult {
  int exit_code = 0;   // the exit status; 128 + signal number when killed by a signal
  std::string output;  // stdout and stderr together, in the order printed
};

// Runs `command` with /bin/sh. Throws CompileError only if the shell itself cannot be started.
CommandResult run_command(const std::string& command);

// `s` quoted for /bin/sh, so paths with spaces or quotes pass through unchanged.
std::string shell_quote(std::string_view s);

}  // namespace onegrad
