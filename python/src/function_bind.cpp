// function: _C.TracedFunction, the machinery of @onegrad.function (onegrad/function.py
// packs arguments and results; src/tensor/function.h does the tracing and caching), and
// _C.engine_stats(), the engine's cache counters the tests read to show a call compiled nothing.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bind.h"
#include "engine/realize_graph.h"
#include "runtime/program_cache.h"
#include "tensor/function.h"

namespace onegrad::python {

void bind_function(py::module_& m) {
  py::class_<TracedFunction>(m, "TracedFunction")
      .def(py::init([](std::string name, bool allow_implicit) {
             return TracedFunction(FunctionOptions{std::move(name), allow_implicit});
           }),
           py::arg("name"), py::arg("allow_implicit") = false)
      // trace(placeholders: list[_C.Tensor]) -> (outputs: list[_C.Tensor], structure: str)
      .def("call",
           [](const TracedFunction& f, const std::vector<Tensor>& args, const py::function& trace,
              const std::string& key) {
             auto run = [&](const std::vector<Tensor>& ps) {
               auto [outs, structure] = trace(ps).cast<std::pair<std::vector<Tensor>, std::string>>();
               return TraceResult{std::move(outs), std::move(structure)};
             };
             TraceResult r = f.call(args, run, key);
             return std::make_pair(r.outputs, r.structure);
           })
      .def_property_readonly("traces", &TracedFunction::traces)
      .def_property_readonly("name", [](const TracedFunction& f) { return f.options().name; });

  m.def("engine_stats", [] {
    EngineStats s = engine_stats();
    py::dict d;
    d["schedules_built"] = s.schedules_built;
    d["schedule_hits"] = s.schedule_hits;
    d["kernels_lowered"] = s.kernels_lowered;
    d["kernel_hits"] = s.kernel_hits;
    d["kernels_run"] = s.kernels_run;
    d["copies_run"] = s.copies_run;
    d["compiles"] = default_program_cache().stats().compiles;
    return d;
  });
}

}  // namespace onegrad::python
