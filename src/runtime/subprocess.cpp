#include "runtime/subprocess.h"

#include <sys/wait.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "uop/errors.h"

namespace onegrad {

CommandResult run_command(const std::string& command) {
  // stderr joins stdout: compilers print their diagnostics on stderr and we want them in order.
  std::string full = command + " 2>&1";
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr)
    throw CompileError("cannot start a shell to run: " + command + " (" + std::strerror(errno) + ")");
  CommandResult result;
  std::array<char, 4096> chunk;
  size_t n;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) result.output.append(chunk.data(), n);
  int status = pclose(pipe);
  if (status == -1) result.exit_code = -1;
  else if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";  // close the quote, an escaped quote, reopen
    else out += c;
  }
  return out + "'";
}

}  // namespace onegrad
