#include "tensor/device_name.h"

#include <algorithm>

#include "uop/device_name.h"
#include "uop/errors.h"

namespace onegrad {

const std::vector<std::string>& known_device_kinds() {
  static const std::vector<std::string> kinds{"CPU", "CL"};
  return kinds;
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
