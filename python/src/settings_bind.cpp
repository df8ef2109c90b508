// Settings (uop/settings.h) from Python: _C.setting(name, fallback) reads one as C++ does (an
// override, else the environment variable, else the fallback), and _C.SettingOverride is a
// ScopedSetting for onegrad.settings.override, a context manager (python/onegrad/settings.py).
#include <memory>

#include "bind.h"
#include "uop/settings.h"

namespace onegrad::python {

namespace {

// The override lives from __enter__ to __exit__ (a with block), as ScopedSetting lives in a C++ scope.
struct SettingOverride {
  std::string name;
  int64_t value;
  std::unique_ptr<ScopedSetting> active;
};

}  // namespace

void bind_settings(py::module_& m) {
  m.def("setting", &setting, py::arg("name"), py::arg("fallback") = 0);
  py::class_<SettingOverride>(m, "SettingOverride")
      .def(py::init([](std::string name, int64_t value) { return SettingOverride{std::move(name), value, nullptr}; }))
      .def("__enter__", [](SettingOverride& s) { s.active = std::make_unique<ScopedSetting>(s.name, s.value); })
      .def("__exit__", [](SettingOverride& s, py::args) { s.active.reset(); });
}

}  // namespace onegrad::python
