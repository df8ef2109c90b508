#include <gtest/gtest.h>

#include "runtime/device.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

std::string device_error(std::string_view name) {
  try {
    get_device(name);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RuntimeDevice, CpuByName) {
  RuntimeDevice& cpu = get_device("CPU");
  EXPECT_EQ(cpu.name(), "CPU");
  EXPECT_EQ(cpu.kind(), "CPU");
  EXPECT_EQ(cpu.compiler().object_extension(), ".so");
}

TEST(RuntimeDevice, NamesAreNormalised) {
  EXPECT_EQ(canonical_device_name("CPU:0"), "CPU");
  EXPECT_EQ(canonical_device_name("cpu"), "CPU");
  EXPECT_EQ(canonical_device_name("cpu:2"), "CPU:2");
  // One device per canonical name: CPU and CPU:0 are the same object, CPU:1 another.
  EXPECT_EQ(&get_device("CPU:0"), &get_device("CPU"));
  EXPECT_NE(&get_device("CPU:1"), &get_device("CPU"));
  EXPECT_EQ(get_device("CPU:1").name(), "CPU:1");
}

TEST(RuntimeDevice, UnknownDeviceNamesItAndListsKnownOnes) {
  std::string msg = device_error("TPU:3");
  EXPECT_NE(msg.find("unknown device 'TPU:3'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("known devices: CL, CPU"), std::string::npos) << msg;
  EXPECT_NE(device_error("").find("unknown device ''"), std::string::npos);
}

TEST(RuntimeDevice, MalformedIndexIsAnError) {
  for (const char* bad : {"CPU:", "CPU:x", "CPU:-1", "CPU:1:2", "CPU:99999999999"}) {
    std::string msg = device_error(bad);
    EXPECT_NE(msg.find("bad device name '" + std::string(bad) + "'"), std::string::npos) << bad << ": " << msg;
  }
}

TEST(RuntimeDevice, NewKindsRegisterWithoutTouchingCallers) {
  register_device_kind("FAKE", [](const std::string& name, int) {
    return std::make_unique<RuntimeDevice>(name, std::make_unique<HostAllocator>(), nullptr, nullptr);
  });
  EXPECT_EQ(get_device("fake:1").name(), "FAKE:1");
  auto kinds = device_kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "FAKE"), kinds.end());
  EXPECT_NE(device_error("TPU").find("known devices: CL, CPU, FAKE"), std::string::npos);
}

}  // namespace
}  // namespace onegrad
