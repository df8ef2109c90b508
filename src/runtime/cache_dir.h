// Where compiled objects live on disk.
#pragma once
#include <filesystem>

namespace onegrad {

// $ONEGRAD_CACHE_DIR if set, else $XDG_CACHE_HOME/onegrad, else $HOME/.cache/onegrad.
// Throws DeviceError when none of them is set.
std::filesystem::path default_cache_dir();

}  // namespace onegrad
