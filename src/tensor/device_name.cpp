#include "tensor/device_name.h"

#include <algorithm>
#include <cctype>

#include "uop/errors.h"

namespace onegrad {

const std::vector<std::string>& known_device_kinds() {
  static const std::vector<std::string> kinds{"CPU"};
  return kinds;
}

std::string canonical_device(std::string_view name) {
  std::string_view kind_part = name.substr(0, name.find(':'));
  std::string kind(kind_part);
  std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  const auto& kinds = known_device_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string known;
    for (const auto& k : kinds) known += (known.empty() ? "" : ", ") + k;
    throw DeviceError("unknown device '" + std::string(name) + "' (known: " + known + ")");
  }
  if (kind_part.size() == name.size()) return kind;
  std::string_view digits = name.substr(kind_part.size() + 1);
  bool ok = !digits.empty() && digits.size() <= 6 &&
            std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!ok)
    throw DeviceError("bad device name '" + std::string(name) + "': the index after ':' must be a number, as in " +
                      kind + ":1");
  int index = std::stoi(std::string(digits));
  return index == 0 ? kind : kind + ":" + std::to_string(index);
}

}  // namespace onegrad
