// Device memory (memory plan): _C.device_memory_stats and _C.reset_peak_memory, the
// allocator's exact accounting (runtime/allocator.h), so Python can measure a step's peak memory.
#include "bind.h"
#include "runtime/device.h"

namespace onegrad::python {

void bind_memory(py::module_& m) {
  m.def(
      "device_memory_stats",
      [](const std::string& device) {
        AllocatorStats s = get_device(device).allocator().stats();
        py::dict d;
        d["current_bytes"] = s.current_bytes;
        d["peak_bytes"] = s.peak_bytes;
        d["allocations"] = s.allocations;
        d["frees"] = s.frees;
        return d;
      },
      py::arg("device") = "CPU");
  m.def(
      "reset_peak_memory", [](const std::string& device) { get_device(device).allocator().reset_peak(); },
      py::arg("device") = "CPU");
}

}  // namespace onegrad::python
