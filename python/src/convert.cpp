// Python values -> the C++ value types of tensor.h. The Python layer normalizes first (numpy
// scalars become Python ones), so only builtin types arrive here.
#include <climits>
#include <limits>

#include "bind.h"
#include "uop/errors.h"

namespace onegrad::python {

namespace {

// A Python int clamped into int64: slice bounds past the int64 range mean "to the end" anyway,
// and clamping keeps resolve()'s arithmetic in range.
int64_t clamped_int64(py::handle h) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow > 0) return std::numeric_limits<int64_t>::max() / 4;
  if (overflow < 0) return std::numeric_limits<int64_t>::min() / 4;
  return v;
}

std::optional<int64_t> slice_part(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!PyLong_Check(h.ptr())) throw py::type_error("slice indices must be integers or None");
  return clamped_int64(h);
}

}  // namespace

ConstValue to_scalar(py::handle h) {
  // bool first: Python's bool is a subclass of int.
  if (PyBool_Check(h.ptr())) return ConstValue::from_bool(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow == 0) return ConstValue::from_int(i128(v));
    // Past int64: uint64 still fits (ConstValue holds ints in an i128).
    if (overflow > 0) {
      unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!(u == (unsigned long long)-1 && PyErr_Occurred())) return ConstValue::from_int(i128(u));
      PyErr_Clear();
    }
    throw py::value_error("scalar " + py::repr(h).cast<std::string>() +
                          " does not fit any onegrad integer type (int64 or uint64)");
  }
  if (PyFloat_Check(h.ptr())) return ConstValue::from_float(PyFloat_AsDouble(h.ptr()));
  throw py::type_error("expected a bool, int or float scalar, got " +
                       py::str(py::type::of(h).attr("__name__")).cast<std::string>());
}

IndexItem to_index_item(py::handle h) {
  if (h.is_none()) return NewAxis{};
  if (h.is(py::ellipsis())) return Ellipsis{};
  if (py::isinstance<py::slice>(h)) {
    Slice s;
    s.start = slice_part(h.attr("start"));
    s.stop = slice_part(h.attr("stop"));
    s.step = slice_part(h.attr("step")).value_or(1);
    return s;
  }
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) return clamped_int64(h);
  if (py::isinstance<Tensor>(h)) return h.cast<Tensor>();  // advanced indexing (indexing area)
  throw py::type_error("only integers, slices, None, ... and tensors are valid indices, got " +
                       py::str(py::type::of(h).attr("__name__")).cast<std::string>());
}

DType to_dtype(const std::string& name) {
  DType dt = parse_dtype(name);  // throws DTypeError for unknown names
  if (dt.is_ptr || dt.is_void() || dt.is_index())
    throw DTypeError("dtype '" + name + "' is not a tensor element type");
  return dt;
}

}  // namespace onegrad::python
