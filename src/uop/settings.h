// Settings: integers read from environment variables (DEBUG=2), with scoped overrides in code
// (DESIGN decision 9) so a test or a benchmark can change one for a block without touching the
// process environment.
#pragma once
#include <cstdint>
#include <string>

namespace onegrad {

// The value of setting `name`: an override if one is active, else the environment variable, else
// `fallback`. A variable that is not an integer counts as `fallback`.
int64_t setting(const std::string& name, int64_t fallback = 0);

// A number that changes whenever a ScopedSetting starts or ends: a value derived from settings
// can be cached while it stays the same (the environment itself is read once per such cache).
uint64_t settings_generation();

// The DEBUG level (docs/debugging.md): 1 schedule, 2 kernel times, 4 source, 5 graphs.
inline int64_t debug_level() { return setting("DEBUG", 0); }

// Overrides a setting until destroyed (nesting restores the outer value).
class ScopedSetting {
 public:
  ScopedSetting(std::string name, int64_t value);
  ~ScopedSetting();
  ScopedSetting(const ScopedSetting&) = delete;
  ScopedSetting& operator=(const ScopedSetting&) = delete;

 private:
  std::string name_;
  bool had_previous_;
  int64_t previous_;
};

}  // namespace onegrad
