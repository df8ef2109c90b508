// Device names as the Tensor front end accepts them. The tensor layer sits upstream of the runtime
// and cannot ask its registry, so the kinds a Tensor may live on are listed here, in one place
// (device_name.cpp): adding CUDA is one entry there.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace onegrad {

// The device kinds tensors may be created on ("CPU", "CL").
const std::vector<std::string>& known_device_kinds();

// The canonical form of a device name, as the runtime spells it: the kind upper-cased and ":0"
// dropped ("cpu" -> "CPU", "CPU:0" -> "CPU", "cpu:1" -> "CPU:1"). Throws DeviceError for an
// unknown kind ("unknown device 'TPU' (known: CPU)") or an index that is not a number.
// With `op`, the message starts with it ("zeros: unknown device ...").
std::string canonical_device(std::string_view name, std::string_view op = {});

// The device tensors are made on when none is named: $DEV when set (DEV=CL), else "CPU"; canonical.
// Read from the environment at first use; an unknown $DEV throws DeviceError naming it.
std::string default_device();
// Changes the default (Python: onegrad.Device.DEFAULT = "CL"); DeviceError for an unknown device.
void set_default_device(std::string_view name);

}  // namespace onegrad
