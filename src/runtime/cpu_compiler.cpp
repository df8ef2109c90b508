#include "runtime/cpu_compiler.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <system_error>

#include "runtime/scratch_dir.h"
#include "runtime/subprocess.h"
#include "uop/errors.h"

namespace onegrad {
namespace fs = std::filesystem;

namespace {

// The shell's "command not found" status; the message then points at ONEGRAD_CC.
constexpr int kNotFound = 127;

std::string not_runnable(const std::string& cc, const CommandResult& r) {
  std::string why = r.exit_code == kNotFound ? "not found" : "failed (exit " + std::to_string(r.exit_code) + ")";
  return "C compiler '" + cc + "' " + why + ": " + r.output +
         "set ONEGRAD_CC to a working C compiler (cc, gcc or clang)";
}

// A name no other thread or process will pick: pid and a per-process counter.
std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  return std::to_string(getpid()) + "." + std::to_string(counter++);
}

}  // namespace

CpuCompiler::CpuCompiler(std::string cc) : cc_(std::move(cc)) {}

std::string CpuCompiler::default_command() {
  const char* env = std::getenv("ONEGRAD_CC");
  return env != nullptr && *env != '\0' ? env : "cc";
}

const std::string& CpuCompiler::cache_id() const {
  std::call_once(id_once_, [&] {
    CommandResult r = run_command(cc_ + " --version");
    if (r.exit_code != 0) throw CompileError(not_runnable(cc_, r));
    std::string version = r.output.substr(0, r.output.find('\n'));
    id_ = cc_ + " " + kFlags + " | " + version;
  });
  return id_;
}

void CpuCompiler::compile(std::string_view source, const fs::path& out) const {
  ScratchDir scratch("onegrad-cc-");
  fs::path src = scratch.path() / "kernel.c";
  {
    std::ofstream f(src, std::ios::binary);
    f.write(source.data(), std::streamsize(source.size()));
    if (!f) throw CompileError("cannot write the kernel source to " + src.string());
  }
  std::error_code ec;
  fs::create_directories(out.parent_path(), ec);
  if (ec) throw CompileError("cannot create the cache folder " + out.parent_path().string() + ": " + ec.message());
  // Written next to its final place (same file system), then renamed: rename is atomic, so another
  // process loading `out` sees either nothing or a whole object, never a partial write.
  fs::path tmp = out;
  tmp += ".tmp." + unique_suffix();
  std::string command = cc_ + " " + kFlags + " -o " + shell_quote(tmp.string()) + " " +
                        shell_quote(src.string()) + " -lm";
  CommandResult r = run_command(command);
  if (r.exit_code == kNotFound) throw CompileError(not_runnable(cc_, r));
  if (r.exit_code != 0) {
    fs::remove(tmp, ec);
    throw CompileError("C compile failed (exit " + std::to_string(r.exit_code) + ")\ncommand: " +
                       command + "\n" + r.output);
  }
  fs::rename(tmp, out, ec);
  if (ec) {
    std::string why = ec.message();
    fs::remove(tmp, ec);
    throw CompileError("cannot move the compiled object into the cache at " + out.string() + ": " + why);
  }
}

}  // namespace onegrad
