// The pieces of the onegrad._C module, one file each (module.cpp puts them together).
#pragma once
#include <pybind11/pybind11.h>

#include <utility>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::python {

namespace py = pybind11;

// C++ exceptions -> the Python classes of onegrad/errors.py (errors.cpp).
void bind_errors(py::module_& m);
// Raises onegrad.errors.<cls_name> with e's message and `attrs` set on it (for translators).
using ErrorAttributes = std::vector<std::pair<const char*, py::object>>;
void set_error(const char* cls_name, const std::exception& e, const ErrorAttributes& attrs = {});
// The _C.Tensor class: a thin, 1:1 mirror of tensor.h (tensor_bind.cpp). Everything Pythonic
// (operators, dtype inference, numpy) lives in onegrad/tensor.py, where it is easier to read.
void bind_tensor(py::module_& m);
// random: manual_seed, rand, randn, ... as module functions (random_bind.cpp)
void bind_random(py::module_& m);
// compose: matmul family, einsum, gather/scatter, constructors; _C.spec (compose_bind.cpp).
void bind_compose(py::module_& m);
void bind_autograd(py::module_& m);
// data: safetensors, IDX, Fashion-MNIST, DataLoader as _C.data (data_bind.cpp).
void bind_data(py::module_& m);
void bind_optim(py::module_& m);  // optimizers and schedules (src/nn)  // autograd: after the Tensor class it extends
void bind_nn(py::module_& m);  // modules: the layer math of src/nn (nn_bind.cpp)
void bind_function(py::module_& m);  // function: _C.TracedFunction, _C.engine_stats
void bind_kernel(py::module_& m);  // kernel inspection: _C.Kernel, _C.schedule_kernels
void bind_memory(py::module_& m);  // memory plan: _C.device_memory_stats, _C.reset_peak_memory
void bind_tir(py::module_& m);  // TIR: _C.tir (tir_bind.cpp), after bind_errors
void bind_settings(py::module_& m);  // settings: _C.setting, _C.SettingOverride (settings_bind.cpp)

// ---- conversions (convert.cpp)

// A Python bool, int or float as a ConstValue. ints outside the int64/uint64 range raise
// OverflowError; anything else raises TypeError.
ConstValue to_scalar(py::handle h);
// One index item: int, slice, None or Ellipsis (onegrad/tensor.py has already rejected the rest).
IndexItem to_index_item(py::handle h);
// A dtype name ("float32") as a DType; an unknown name raises onegrad.DTypeError.
DType to_dtype(const std::string& name);

}  // namespace onegrad::python
