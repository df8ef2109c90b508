// C++ exceptions become the Python classes defined in onegrad/errors.py. They are defined in
// Python, not here, because they need two bases (ShapeError is both onegrad.Error and ValueError),
// which is one line in Python. The class is looked up when an error happens, so the import order
// of onegrad/__init__.py does not matter.
#include "bind.h"
#include "codegen/capabilities.h"  // TargetError
#include "codegen/opt.h"
#include "tensor/literal_check.h"  // ValueRangeError
#include "uop/errors.h"
#include "uop/index_error.h"
#include "uop/unsupported_error.h"

namespace onegrad::python {

// Sets the Python error `cls_name` of onegrad.errors, carrying the C++ message unchanged.
void set_error(const char* cls_name, const std::exception& e, const ErrorAttributes& attrs) {
  py::object cls;
  try {
    cls = py::module_::import("onegrad.errors").attr(cls_name);
  } catch (py::error_already_set&) {
    // _C imported on its own (no package around it): still an exception, just a plainer one.
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return;
  }
  py::object exc = cls(e.what());
  if (auto* pe = dynamic_cast<const ParseError*>(&e)) {
    exc.attr("line") = pe->line;
    exc.attr("column") = pe->column;
  }
  for (const auto& [key, value] : attrs) exc.attr(key) = value;
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

void bind_errors(py::module_& m) {
  // Local: other pybind11 modules in the process keep their own translators.
  py::register_local_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const ShapeError& e) {
      set_error("ShapeError", e);
    } catch (const ValueRangeError& e) {  // before its base, DTypeError
      set_error("ValueRangeError", e);
    } catch (const DTypeError& e) {
      set_error("DTypeError", e);
    } catch (const DeviceError& e) {
      set_error("DeviceError", e);
    } catch (const CompileError& e) {
      set_error("CompileError", e);
    } catch (const VerifyError& e) {
      set_error("VerifyError", e);
    } catch (const ParseError& e) {
      set_error("ParseError", e);
    } catch (const RewriteError& e) {
      set_error("RewriteError", e);
    } catch (const ArgumentError& e) {  // reductions/losses
      set_error("ArgumentError", e);
    } catch (const FormatError& e) {  // data
      set_error("FormatError", e);
    } catch (const FileError& e) {  // data
      set_error("FileError", e);
    } catch (const UnsupportedError& e) {  // onnx: an op or opset onegrad does not run
      set_error("UnsupportedError", e);
    } catch (const FunctionError& e) {  // function
      set_error("FunctionError", e);
    } catch (const OptError& e) {  // kernel opts
      set_error("OptError", e);
    } catch (const TargetError& e) {  // a dtype or op the device lacks (codegen/capabilities.h)
      set_error("TargetError", e);
    } catch (const IndexError& e) {  // index faults (uop/index_error.h)
      set_error("IndexError", e);
    } catch (const InternalError& e) {
      set_error("InternalError", e);
    } catch (const Error& e) {
      set_error("Error", e);
    }
    // Anything else (std::bad_alloc, ...) falls through to pybind11's own translators.
  });
}

}  // namespace onegrad::python
