// Stable content hashes for cache keys: the same bytes give the same key in every process and on
// every run (unlike std::hash), so keys can name files in the on-disk cache.
#pragma once
#include <string>
#include <string_view>

namespace onegrad {

class Compiler;

// 128-bit FNV-1a of `bytes`, as 32 lowercase hex digits. 128 bits make an accidental collision
// (which would load the wrong kernel) practically impossible; this is not a defence against
// someone crafting collisions on purpose.
std::string content_hash(std::string_view bytes);

// The cache key of a kernel known only by its source: source + compiler command, flags and version.
// The pipeline passes a kernel's structural key instead once it has one; either way the program
// cache mixes the compiler's identity into the on-disk name.
std::string program_key(std::string_view source, const Compiler& compiler);

}  // namespace onegrad
