#include "uop/device_name.h"

#include <algorithm>
#include <cctype>

#include "uop/errors.h"

namespace onegrad {

std::string device_kind(std::string_view name) {
  std::string kind(name.substr(0, name.find(':')));
  std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return char(std::toupper(c)); });
  return kind;
}

int device_index(std::string_view name, std::string_view who) {
  size_t colon = name.find(':');
  if (colon == std::string_view::npos) return 0;
  std::string_view digits = name.substr(colon + 1);
  bool ok = !digits.empty() && digits.size() <= 6 &&
            std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (!ok)
    throw DeviceError(std::string(who) + "bad device name '" + std::string(name) +
                      "': the index after ':' must be a number, as in " + device_kind(name) + ":1");
  return std::stoi(std::string(digits));
}

std::string join_device_name(const std::string& kind, int index) {
  return index == 0 ? kind : kind + ":" + std::to_string(index);
}

}  // namespace onegrad
