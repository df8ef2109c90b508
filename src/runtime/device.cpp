#include "runtime/device.h"

#include <map>
#include <mutex>

#include "runtime/cpu_device.h"
#include "runtime/opencl/cl_device.h"
#include "uop/device_name.h"
#include "uop/errors.h"

namespace onegrad {

RuntimeDevice::RuntimeDevice(std::string name, std::unique_ptr<Allocator> allocator,
                             std::unique_ptr<Compiler> compiler, std::unique_ptr<ProgramLoader> loader, DeviceTraits traits)
    : name_(std::move(name)),
      allocator_(std::move(allocator)),
      compiler_(std::move(compiler)),
      loader_(std::move(loader)),
      traits_(std::move(traits)) {}

bool DeviceTraits::has_extension(std::string_view name) const {
  for (const std::string& e : extensions)
    if (e == name) return true;
  return false;
}

namespace {

struct Registry {
  std::mutex mu;
  std::map<std::string, DeviceFactory> factories;
  std::map<std::string, std::unique_ptr<RuntimeDevice>> devices;
};

// Built-in backends are registered here, not by static initialisers in their own files: a static
// library drops object files nothing references, and their registration would silently vanish.
Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry();  // never destroyed: devices outlive every static that may use them
    reg->factories["CPU"] = make_cpu_device;
    reg->factories["CL"] = make_cl_device;  // throws DeviceError, naming why, where OpenCL is absent
    return reg;
  }();
  return *r;
}

std::string known_kinds(const Registry& reg) {
  std::string out;
  for (const auto& [kind, _] : reg.factories) out += (out.empty() ? "" : ", ") + kind;
  return out;
}

// Splits "kind[:index]" and checks both; the registry's lock is held by the caller.
std::pair<std::string, int> parse_name(const Registry& reg, std::string_view name) {
  std::string kind = device_kind(name);
  if (!reg.factories.contains(kind))
    throw DeviceError("unknown device '" + std::string(name) + "'; known devices: " + known_kinds(reg));
  return {kind, device_index(name)};
}

}  // namespace

void register_device_kind(const std::string& kind, DeviceFactory factory) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  reg.factories[kind] = std::move(factory);
}

std::vector<std::string> device_kinds() {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  std::vector<std::string> out;
  for (const auto& [kind, _] : reg.factories) out.push_back(kind);
  return out;
}

std::string canonical_device_name(std::string_view name) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  auto [kind, index] = parse_name(reg, name);
  return join_device_name(kind, index);
}

RuntimeDevice& get_device(std::string_view name) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mu);
  auto [kind, index] = parse_name(reg, name);
  std::string canonical = join_device_name(kind, index);
  auto it = reg.devices.find(canonical);
  if (it == reg.devices.end()) {
    std::unique_ptr<RuntimeDevice> dev = reg.factories.at(kind)(canonical, index);
    if (dev == nullptr) throw InternalError("the factory of device kind " + kind + " returned no device");
    it = reg.devices.emplace(canonical, std::move(dev)).first;
  }
  return *it->second;
}

}  // namespace onegrad
