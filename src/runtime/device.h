// The runtime's devices, found by name. A device bundles what a backend needs to run kernels: an
// allocator for buffers, a compiler, and a loader that turns compiled objects into Programs.
// Backends register a factory under their kind ("CPU", "CL"), so callers never name a
// backend's classes: adding one is a new factory, not a change to callers.
//
// (The class is RuntimeDevice because `Device` is already the UOp arg naming a device or tuple.)
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/allocator.h"
#include "runtime/compiler.h"
#include "runtime/program.h"

namespace onegrad {

class RuntimeDevice;

// Turns a compiled object on disk into a launchable Program of one device.
class ProgramLoader {
 public:
  virtual ~ProgramLoader() = default;
  // Throws DeviceError when the object does not load (corrupt file) or lacks the entry symbol.
  virtual std::shared_ptr<Program> load(const std::filesystem::path& object, const ProgramSpec& spec,
                                        const RuntimeDevice& device) const = 0;
};

// What a backend reports about its device: the facts a renderer's Capabilities are built from
// (render/device_target.h). The CPU reports none of them (its target is fixed); OpenCL queries them.
struct DeviceTraits {
  std::string description;              // in messages: "pthread-skylake (Portable Computing Language)"
  int64_t compute_units = 0;            // CL_DEVICE_MAX_COMPUTE_UNITS
  int64_t max_workgroup_size = 0;       // work items per workgroup
  std::vector<int64_t> max_work_items;  // per launch dim
  int64_t local_memory_bytes = 0;       // per workgroup
  std::vector<std::string> extensions;  // "cl_khr_fp64", "cl_khr_fp16", ...
  int64_t preferred_vector_bytes = 0;   // the vector the device prefers (CL: float lanes x 4); 0: unknown
  bool cpu = false;                     // CL_DEVICE_TYPE_CPU: a workgroup's work items run in turn on one core
  bool has_extension(std::string_view name) const;
};

class RuntimeDevice {
 public:
  RuntimeDevice(std::string name, std::unique_ptr<Allocator> allocator, std::unique_ptr<Compiler> compiler,
                std::unique_ptr<ProgramLoader> loader, DeviceTraits traits = {});
  RuntimeDevice(const RuntimeDevice&) = delete;
  RuntimeDevice& operator=(const RuntimeDevice&) = delete;

  const std::string& name() const { return name_; }  // canonical: "CPU", "CPU:1"
  std::string kind() const { return name_.substr(0, name_.find(':')); }  // "CPU"
  Allocator& allocator() const { return *allocator_; }
  const Compiler& compiler() const { return *compiler_; }
  const ProgramLoader& loader() const { return *loader_; }
  const DeviceTraits& traits() const { return traits_; }

 private:
  std::string name_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<Compiler> compiler_;
  std::unique_ptr<ProgramLoader> loader_;
  DeviceTraits traits_;
};

// Makes the device `name` (canonical) of a kind; `index` is the number after the colon (0 if none).
using DeviceFactory = std::function<std::unique_ptr<RuntimeDevice>(const std::string& name, int index)>;

// Registers a backend under `kind` (upper case, e.g. "CUDA"). Re-registering a kind replaces its
// factory for devices not yet created.
void register_device_kind(const std::string& kind, DeviceFactory factory);
// The registered kinds, sorted.
std::vector<std::string> device_kinds();

// The canonical form of a device name: kind upper-cased, ":0" dropped ("cpu:0" -> "CPU",
// "CPU:1" -> "CPU:1"). Throws DeviceError for an unknown kind (listing the known ones) or a
// malformed index.
std::string canonical_device_name(std::string_view name);

// The device called `name`, created on first use and alive until the process ends (Buffers and
// Programs keep plain references to it). Thread-safe. Throws as canonical_device_name does.
RuntimeDevice& get_device(std::string_view name);

}  // namespace onegrad
