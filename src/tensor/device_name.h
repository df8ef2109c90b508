// Device names as the Tensor front end accepts them. The tensor layer sits upstream of the runtime
// and cannot ask its registry, so the kinds a Tensor may live on are listed here, in one place
// (device_name.cpp): adding CUDA is one entry there.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace onegrad {

// The device kinds tensors may be created on ("CPU").
const std::vector<std::string>& known_device_kinds();

// The canonical form of a device name, as the runtime spells it: the kind upper-cased and ":0"
// dropped ("cpu" -> "CPU", "CPU:0" -> "CPU", "cpu:1" -> "CPU:1"). Throws DeviceError for an
// unknown kind ("unknown device 'TPU' (known: CPU)") or an index that is not a number.
std::string canonical_device(std::string_view name);

}  // namespace onegrad
