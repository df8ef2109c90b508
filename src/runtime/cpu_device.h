// The CPU backend: host memory, the system C compiler, and dlopen to load kernels.
#pragma once
#include <memory>
#include <string>

#include "runtime/device.h"

namespace onegrad {

// The loader of the CPU's shared objects (dlopen + dlsym).
class CpuProgramLoader final : public ProgramLoader {
 public:
  std::shared_ptr<Program> load(const std::filesystem::path& object, const ProgramSpec& spec,
                                const RuntimeDevice& device) const override;
};

// The factory registered as "CPU". Every CPU index shares host memory; "CPU:1" exists so that
// multi-device code can be tested on one machine.
std::unique_ptr<RuntimeDevice> make_cpu_device(const std::string& name, int index);

}  // namespace onegrad
