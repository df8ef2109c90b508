// A backend's compiler: source text in, a loadable object on disk out. The CPU's runs the system C
// compiler; a CUDA one would run NVRTC and write a cubin. The program cache only sees this interface.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace onegrad {

class Compiler {
 public:
  virtual ~Compiler() = default;
  // Everything besides the source that decides the compiled bytes: command, flags and version.
  // It is mixed into cache keys so a compiler upgrade never reuses stale objects.
  // Throws CompileError when the compiler cannot be run.
  virtual const std::string& cache_id() const = 0;
  // The file extension of compiled objects (".so").
  virtual std::string_view object_extension() const = 0;
  // Compiles `source` into the object file `out`. The file appears atomically (written under a
  // temporary name, then renamed), so a concurrent reader never sees half an object.
  // Throws CompileError with the compiler's message.
  virtual void compile(std::string_view source, const std::filesystem::path& out) const = 0;
};

}  // namespace onegrad
