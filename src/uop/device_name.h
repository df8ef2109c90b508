// Device names, "kind[:index]" ("CPU", "cpu:0", "CPU:1"): split and joined in one place for the
// tensor layer (which checks names against the kinds tensors may live on) and the runtime (which
// checks them against its registered backends). Which kinds exist is the caller's business.
#pragma once
#include <string>
#include <string_view>

namespace onegrad {

// The kind, upper-cased: "cpu:1" -> "CPU".
std::string device_kind(std::string_view name);

// The index after ':' (0 when there is none). Throws DeviceError "<who>bad device name 'CPU:x': the
// index after ':' must be a number, as in CPU:1" for anything but up to six digits.
int device_index(std::string_view name, std::string_view who = {});

// The canonical spelling: ":0" dropped ("CPU", "CPU:1").
std::string join_device_name(const std::string& kind, int index);

}  // namespace onegrad
