#include "tensor/device_name.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "uop/device_name.h"
#include "uop/errors.h"

namespace onegrad {

const std::vector<std::string>& known_device_kinds() {
  static const std::vector<std::string> kinds{"CPU", "CL"};
  return kinds;
}

namespace {

struct DefaultDevice {
  std::mutex mu;
  std::optional<std::string> name;  // unset until first asked: $DEV is read then
};

DefaultDevice& default_slot() {
  static DefaultDevice* d = new DefaultDevice();  // read by tensors that may outlive statics
  return *d;
}

}  // namespace

std::string default_device() {
  DefaultDevice& d = default_slot();
  std::lock_guard lock(d.mu);
  if (!d.name) {
    const char* env = std::getenv("DEV");
    d.name = env && *env ? canonical_device(env, "DEV") : "CPU";
  }
  return *d.name;
}

void set_default_device(std::string_view name) {
  std::string canonical = canonical_device(name, "Device.DEFAULT");
  DefaultDevice& d = default_slot();
  std::lock_guard lock(d.mu);
  d.name = canonical;
}

std::string canonical_device(std::string_view name, std::string_view op) {
  std::string who = op.empty() ? "" : std::string(op) + ": ";
  std::string kind = device_kind(name);
  const auto& kinds = known_device_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string known;
    for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k;
    throw DeviceError(who + "unknown device '" + std::string(name) + "' (known: " + known + ")");
  }
  return join_device_name(kind, device_index(name, who));
}

}  // namespace onegrad
