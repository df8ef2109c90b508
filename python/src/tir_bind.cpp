// TIR: _C.tir, the machinery of onegrad/tir.py. Arrays reach the interpreter and compiled
// code without a copy: numpy (and anything with the buffer protocol) through its buffer, other
// arrays (torch) through __dlpack__, both checked by bind_arguments. TIR errors become the Tir*
// classes of onegrad/errors.py.
#include <dlpack/dlpack.h>
#include <pybind11/stl.h>

#include <memory>

#include "bind.h"
#include "tir/interpret/bind_arguments.h"
#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir_compile/compiled_func.h"
#include "tir_compile/dltensor.h"
#include "tir_compile/heap_arrays.h"
#include "tir_compile/not_lowerable.h"
#include "tir_compile/run_prim_func.h"

namespace onegrad::python {

namespace {

using namespace onegrad::tir;
using ModuleRef = std::shared_ptr<IRModule>;  // pybind11 holders cannot be shared_ptr<const T>

// The TIR dtype of a buffer-protocol format ("f", "<i8", "?"), or nullopt.
std::optional<DataType> dtype_of_format(std::string format, int64_t itemsize) {
  if (!format.empty() && (format[0] == '@' || format[0] == '=' || format[0] == '<')) format.erase(0, 1);
  if (format.size() != 1) return std::nullopt;
  const int bits = static_cast<int>(itemsize * 8);
  const char c = format[0];
  if (c == '?') return DataType::bool_();
  if (std::string_view("bhilq").find(c) != std::string_view::npos) return DataType::int_(bits);
  if (std::string_view("BHILQ").find(c) != std::string_view::npos) return DataType::uint(bits);
  if (std::string_view("efd").find(c) != std::string_view::npos) return DataType::float_(bits);
  return std::nullopt;
}

// Keeps what the arrays of one call borrow (buffer views, DLPack capsules) alive until it returns.
struct Borrowed {
  std::vector<std::unique_ptr<py::buffer_info>> buffers;
  std::vector<py::object> capsules;
};

ArrayRef array_of_buffer(py::handle obj, const std::string& fn, const std::string& param, int line, Borrowed& keep) {
  auto fail = [&](const std::string& what) { throw TirArgumentError(fn, param, what, line); };
  auto info = std::make_unique<py::buffer_info>(py::reinterpret_borrow<py::buffer>(obj).request());
  if (info->readonly) fail("the array is read-only; the function writes its arrays in place");
  std::optional<DataType> dtype = dtype_of_format(info->format, info->itemsize);
  if (!dtype) fail("the array's element format '" + info->format + "' is not a TIR dtype (byte order must be native)");
  ArrayRef a{info->ptr, *dtype, info->shape, {}, 0};
  for (size_t k = 0; k < info->strides.size(); ++k) {
    if (info->strides[k] % info->itemsize != 0)
      fail("stride " + std::to_string(k) + " of the array is " + std::to_string(info->strides[k]) +
           " bytes, not a multiple of its " + std::to_string(info->itemsize) + "-byte elements");
    a.strides.push_back(info->strides[k] / info->itemsize);
  }
  keep.buffers.push_back(std::move(info));
  return a;
}

ArrayRef array_of_dlpack(py::handle obj, const std::string& fn, const std::string& param, int line, Borrowed& keep) {
  py::object capsule = obj.attr("__dlpack__")();
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed) {
    PyErr_Clear();
    throw TirArgumentError(fn, param, "__dlpack__ did not return a DLPack capsule", line);
  }
  keep.capsules.push_back(capsule);  // not consumed: its producer's destructor frees it
  return array_from_dltensor(managed->dl_tensor, fn, param, line);
}

std::vector<Argument> arguments_of(const IRModule& m, const std::string& name, const py::tuple& args, Borrowed& keep) {
  const PrimFuncNode& f = find_function(m, name);
  std::vector<Argument> out;
  for (size_t i = 0; i < args.size(); ++i) {
    py::handle a = args[i];
    const std::string param = i < f.params.size() ? parameter_label(f, i) : "argument " + std::to_string(i);
    if (py::isinstance<py::bool_>(a) || py::isinstance<py::int_>(a)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(a.ptr(), &overflow);
      if (overflow)
        throw TirArgumentError(name, param, "the int " + std::string(py::str(a)) + " does not fit int64", f.loc.line);
      out.emplace_back(static_cast<int64_t>(v));
    } else if (py::isinstance<py::float_>(a)) {
      out.emplace_back(a.cast<double>());
    } else if (PyObject_CheckBuffer(a.ptr())) {
      out.emplace_back(array_of_buffer(a, name, param, f.loc.line, keep));
    } else if (py::hasattr(a, "__dlpack__")) {
      out.emplace_back(array_of_dlpack(a, name, param, f.loc.line, keep));
    } else {
      throw TirArgumentError(name, param,
                             "takes an int, a float or an array (numpy, or with __dlpack__), got " +
                                 std::string(py::str(py::type::of(a).attr("__name__"))),
                             f.loc.line);
    }
  }
  return out;
}

py::object value_of(const std::optional<RuntimeValue>& r) {
  if (!r) return py::none();
  auto lane = [&](int i) -> py::object {
    if (r->dtype.is_float()) return py::float_(r->floats[i]);
    if (r->dtype.is_bool()) return py::bool_(r->ints[i] != 0);
    if (r->dtype.is_uint() && r->dtype.bits == 64) return py::int_(static_cast<uint64_t>(r->ints[i]));
    return py::int_(r->ints[i]);
  };
  if (r->lanes() == 1) return lane(0);
  py::list lanes;
  for (int i = 0; i < r->lanes(); ++i) lanes.append(lane(i));
  return std::move(lanes);
}

py::object call(const IRModule& m, const std::string& name, const py::tuple& args, bool compiled) {
  Borrowed keep;
  std::vector<Argument> arguments = arguments_of(m, name, args, keep);
  // The GIL stays held, as for every binding (docs/python.md "Threads").
  return value_of(compiled ? run_compiled(m, name, arguments) : run_interpreted(m, name, arguments));
}

void translate_tir_errors(std::exception_ptr p) {
  if (!p) return;
  try {
    std::rethrow_exception(p);
  } catch (const TirSyntaxError& e) {
    set_error("TirSyntaxError", e);  // a ParseError: set_error gives it .line and .column
  } catch (const TirTypeError& e) {
    py::list issues;
    for (const TypeIssue& i : e.issues) issues.append(i.to_string());
    set_error("TirTypeError", e, {{"line", py::int_(e.line)}, {"column", py::int_(e.column)}, {"issues", issues}});
  } catch (const TirArgumentError& e) {
    set_error("TirArgumentError", e,
              {{"line", py::int_(e.line)}, {"function", py::str(e.function)}, {"parameter", py::str(e.parameter)}});
  } catch (const TirIndexError& e) {
    set_error("TirIndexError", e, {{"line", py::int_(e.line)}, {"buffer", py::str(e.buffer)}});
  } catch (const TirDivisionByZero& e) {
    set_error("TirDivisionByZero", e, {{"line", py::int_(e.line)}});
  } catch (const TirAssertionError& e) {
    set_error("TirAssertionError", e, {{"line", py::int_(e.line)}, {"assert_message", py::str(e.message)}});
  } catch (const TirRuntimeError& e) {
    set_error("TirRuntimeError", e, {{"line", py::int_(e.line)}});
  } catch (const TirNotLowerable& e) {
    set_error("TirNotLowerable", e, {{"line", py::int_(e.line)}, {"construct", py::str(e.construct)}});
  }
  // Anything else goes on to the translators of errors.cpp.
}

}  // namespace

void bind_tir(py::module_& m) {
  // Registered after bind_errors, so it is tried first (pybind11 runs translators newest first).
  py::register_local_exception_translator(translate_tir_errors);
  py::module_ tir = m.def_submodule("tir", "TIR (TVMScript) modules: onegrad/tir.py is the interface");
  py::class_<IRModule, ModuleRef>(tir, "Module")
      .def("function_names",
           [](const IRModule& mod) {
             std::vector<std::string> names;
             for (const auto& [name, f] : mod.functions) names.push_back(name);
             return names;
           })
      .def("script", [](const IRModule& mod) { return print_script(mod); })
      .def("function_script", [](const IRModule& mod, const std::string& name) {
        find_function(mod, name);
        return print_prim_func(name, mod.find(name));
      })
      // TirTypeError for the errors; the warnings (SpecMode::AsTvm) as text, for onegrad/tir.py to warn
      .def("check", [](const IRModule& mod, bool strict) {
        std::vector<std::string> warnings;
        for (const TypeIssue& i : check_module(mod, strict ? SpecMode::Strict : SpecMode::AsTvm))
          warnings.push_back(i.warning_string());
        return warnings;
      }, py::arg("strict"));
  tir.def("parse", [](const std::string& text) { return std::make_shared<IRModule>(parse_script(text)); });
  tir.def("source", [](const IRModule& mod, const std::string& name) { return compiled_source(mod, name); });
  tir.def("call", &call, py::arg("module"), py::arg("name"), py::arg("args"), py::arg("compiled"));
  // PrimFunc's compiled code, held across its calls (run_prim_func.h)
  py::class_<PrimFuncRunner, std::shared_ptr<PrimFuncRunner>>(tir, "Runner")
      .def(py::init([](const ModuleRef& m, const std::string& name) { return std::make_shared<PrimFuncRunner>(m, name); }))
      .def("call",
           [](PrimFuncRunner& r, const IRModule& m, const std::string& name, const py::tuple& args) {
             Borrowed keep;
             return value_of(r.run(arguments_of(m, name, args, keep)));
           })
      .def("compile", [](PrimFuncRunner& r) { r.compiled(); });
  tir.def("stats", [] {
    py::dict d;
    d["functions_compiled"] = functions_compiled_count();
    d["structures_compiled"] = structures_compiled_count();
    d["heap_arrays_allocated"] = heap_arrays_allocated_count();
    return d;
  });
}

}  // namespace onegrad::python
