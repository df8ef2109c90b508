// A private temporary folder, removed with everything in it when the object goes away: the C
// compiler's working folder, and the folder BEAM search compiles its candidates into.
#pragma once
#include <filesystem>
#include <string>

namespace onegrad {

class ScratchDir {
 public:
  // A new folder under the system's temporary folder named `prefix` + random letters. Throws
  // CompileError when it cannot be created.
  explicit ScratchDir(const std::string& prefix = "onegrad-");
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace onegrad
