#include "runtime/cpu_device.h"

#include <dlfcn.h>
#include <elf.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "runtime/cpu_compiler.h"
#include "runtime/inline_launch.h"
#include "runtime/thread_pool.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

using KernelFn = void (*)(void**, const int64_t*);
using ThreadedKernelFn = void (*)(void**, const int64_t*, int64_t);

// A dlopen'ed kernel. The handle is closed with the program: the memory cache keeps programs alive
// as long as anyone may launch them.
class CpuProgram final : public Program {
 public:
  CpuProgram(const ProgramSpec& spec, std::string device, void* handle, KernelFn fn)
      : Program(spec, std::move(device)), handle_(handle), fn_(fn) {}
  ~CpuProgram() override { dlclose(handle_); }

  std::optional<bool> runs_inline() const override {
    if (threads() == 0 || inline_.mode() == InlineLaunch::Mode::Timing) return std::nullopt;
    return inline_.mode() == InlineLaunch::Mode::Inline;
  }

 protected:
  void launch(void** bufs, const int64_t* vars) const override {
    if (threads() == 0) return fn_(bufs, vars);
    // the symbol was looked up as a KernelFn; a threaded kernel's entry takes the thread index too
    auto threaded = reinterpret_cast<ThreadedKernelFn>(reinterpret_cast<void*>(fn_));
    auto in_a_row = [&] {
      for (int64_t t = 0; t < threads(); t++) threaded(bufs, vars, t);
    };
    switch (inline_.mode()) {
      case InlineLaunch::Mode::Pool:
        cpu_thread_pool().run(threads(), [&](int64_t t) { threaded(bufs, vars, t); });
        return;
      case InlineLaunch::Mode::Inline:
        return in_a_row();
      case InlineLaunch::Mode::Timing: {
        int64_t limit = InlineLaunch::limit_ns();
        if (limit == 0 || cpu_thread_pool().threads() == 1) {  // nothing to decide
          inline_.use_pool();
          return launch(bufs, vars);
        }
        auto start = std::chrono::steady_clock::now();
        in_a_row();
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
        inline_.record(int64_t(ns), limit);
        return;
      }
    }
  }

 private:
  void* handle_;
  KernelFn fn_;
  mutable InlineLaunch inline_;
};

// Whether the file at `path` holds a whole 64-bit ELF object: every program header, load segment
// and the section table inside the file. dlopen maps segments without checking that the file is
// long enough, and touching a page past the end of a truncated file kills the process (SIGBUS), so
// a truncated object must be caught before dlopen sees it. Returns the reason when it is not whole.
std::string elf_problem(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  uint64_t size = bytes.size();
  Elf64_Ehdr eh;
  if (size < sizeof eh) return "shorter than an ELF header";
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
    return "not a 64-bit ELF object";
  auto fits = [&](uint64_t off, uint64_t len) { return off <= size && len <= size - off; };
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || !fits(eh.e_phoff, uint64_t(eh.e_phnum) * sizeof(Elf64_Phdr)))
    return "program headers past the end of the file";
  for (int i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, bytes.data() + eh.e_phoff + uint64_t(i) * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD && !fits(ph.p_offset, ph.p_filesz)) return "a segment past the end of the file";
  }
  if (eh.e_shnum != 0 && !fits(eh.e_shoff, uint64_t(eh.e_shnum) * eh.e_shentsize))
    return "section headers past the end of the file";
  return "";
}

std::string dl_message() {
  const char* err = dlerror();
  return err != nullptr ? err : "unknown dlopen error";
}

}  // namespace

std::shared_ptr<Program> CpuProgramLoader::load(const std::filesystem::path& object, const ProgramSpec& spec,
                                                const RuntimeDevice& device) const {
  if (std::string why = elf_problem(object); !why.empty())
    throw DeviceError("cannot load compiled kernel " + object.string() + ": " + why);
  // RTLD_LOCAL: kernels of different programs may share symbol names; each keeps its own.
  void* handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) throw DeviceError("cannot load compiled kernel " + object.string() + ": " + dl_message());
  dlerror();  // clear, so a null symbol can be told from an error
  void* sym = dlsym(handle, spec.name.c_str());
  if (sym == nullptr) {
    std::string why = dl_message();
    dlclose(handle);
    throw DeviceError("compiled kernel " + object.string() + " has no entry '" + spec.name + "': " + why);
  }
  return std::make_shared<CpuProgram>(spec, device.name(), handle, reinterpret_cast<KernelFn>(sym));
}

std::unique_ptr<RuntimeDevice> make_cpu_device(const std::string& name, int /*index*/) {
  return std::make_unique<RuntimeDevice>(name, std::make_unique<HostAllocator>(),
                                         std::make_unique<CpuCompiler>(CpuCompiler::default_command()),
                                         std::make_unique<CpuProgramLoader>());
}

}  // namespace onegrad
