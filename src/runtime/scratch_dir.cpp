#include "runtime/scratch_dir.h"

#include <stdlib.h>

#include <system_error>

#include "uop/errors.h"

namespace onegrad {
namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& prefix) {
  std::string tmpl = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr)
    throw CompileError("cannot create a temporary folder in " + fs::temp_directory_path().string());
  path_ = tmpl;
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace onegrad
