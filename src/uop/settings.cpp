#include "uop/settings.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>

namespace onegrad {

namespace {

std::mutex& overrides_mu() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, int64_t>& overrides() {
  static std::map<std::string, int64_t> m;
  return m;
}

std::atomic<uint64_t> g_generation{0};

}  // namespace

uint64_t settings_generation() { return g_generation.load(std::memory_order_acquire); }

int64_t setting(const std::string& name, int64_t fallback) {
  {
    std::lock_guard<std::mutex> lock(overrides_mu());
    auto it = overrides().find(name);
    if (it != overrides().end()) return it->second;
  }
  const char* v = std::getenv(name.c_str());
  if (!v || !*v) return fallback;
  char* end = nullptr;
  long long x = std::strtoll(v, &end, 10);
  return *end == '\0' ? int64_t(x) : fallback;
}

ScopedSetting::ScopedSetting(std::string name, int64_t value) : name_(std::move(name)) {
  std::lock_guard<std::mutex> lock(overrides_mu());
  auto it = overrides().find(name_);
  had_previous_ = it != overrides().end();
  previous_ = had_previous_ ? it->second : 0;
  overrides()[name_] = value;
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

ScopedSetting::~ScopedSetting() {
  std::lock_guard<std::mutex> lock(overrides_mu());
  if (had_previous_) overrides()[name_] = previous_;
  else overrides().erase(name_);
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace onegrad
