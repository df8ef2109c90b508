#include "runtime/cache_dir.h"

#include <cstdlib>

#include "uop/errors.h"

namespace onegrad {

namespace {
const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}
}  // namespace

std::filesystem::path default_cache_dir() {
  if (const char* dir = env("ONEGRAD_CACHE_DIR")) return dir;
  if (const char* xdg = env("XDG_CACHE_HOME")) return std::filesystem::path(xdg) / "onegrad";
  if (const char* home = env("HOME")) return std::filesystem::path(home) / ".cache" / "onegrad";
  throw DeviceError("no folder for the compile cache: set ONEGRAD_CACHE_DIR (or HOME)");
}

}  // namespace onegrad
