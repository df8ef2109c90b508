// _C.Tensor: tensor.h method for method. Arguments arrive already normalized by onegrad/tensor.py
// (axes as lists, dtypes as names, scalars as Python numbers), so each binding is one call; the
// checks that produce user-facing errors stay in C++, where the messages name the op and shapes.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/broadcast.h"
#include "uop/errors.h"
#include "uop/text/text.h"

namespace onegrad::python {

namespace {

using Dims = std::vector<int64_t>;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

// A C-contiguous view of a Python buffer (numpy array, bytes, bytearray), released on scope exit.
class BufferView {
 public:
  BufferView(py::handle obj, bool writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view_, flags) != 0) throw py::error_already_set();
  }
  ~BufferView() { PyBuffer_Release(&view_); }
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  void* data() const { return view_.buf; }
  size_t size() const { return size_t(view_.len); }

 private:
  Py_buffer view_{};
};

Tensor from_buffer(py::handle data, Dims shape, const std::string& dtype, const std::string& device) {
  BufferView v(data, false);
  return Tensor::from_data(v.data(), v.size(), std::move(shape), to_dtype(dtype), device);
}

// Realizes (runs the kernels) and copies the elements into `out`, a writable C-contiguous buffer
// of exactly numel*itemsize bytes. The GIL stays held: the engine's caches are not documented as
// thread-safe, and a second Python thread must not enter them meanwhile.
void copy_out(const Tensor& t, py::handle out) {
  BufferView v(out, true);
  t.copy_out(v.data(), v.size());
}

void realize_all(const py::list& ts) {
  std::vector<Tensor*> ptrs;
  for (py::handle h : ts) ptrs.push_back(&h.cast<Tensor&>());
  Tensor::realize_all(ptrs);
}

Tensor getitem(const Tensor& t, const py::tuple& index) {
  std::vector<IndexItem> items;
  for (py::handle h : index) items.push_back(to_index_item(h));
  return t.getitem(items);
}

}  // namespace

// One-line bindings: `name(tensor)` and `name()` calls of the same name.
#define ONEGRAD_BINARY(name) .def(#name, [](const Tensor& a, const Tensor& b) { return a.name(b); })
#define ONEGRAD_UNARY(name) .def(#name, [](const Tensor& a) { return a.name(); })
#define ONEGRAD_REDUCE(name)                                                                        \
  .def(#name, [](const Tensor& a, const Dims& axes, bool keepdim) { return a.name(axes, keepdim); }, \
       py::arg("axes"), py::arg("keepdim") = false)

void bind_tensor(py::module_& m) {
  py::class_<Tensor>(m, "Tensor")
      // ---- creation (dtypes by name; onegrad/dtype.py holds the Python objects)
      .def_static("empty", [](const Dims& s, const std::string& dt, const std::string& dev) {
        return Tensor::empty(s, to_dtype(dt), dev);
      })
      .def_static("zeros", [](const Dims& s, const std::string& dt, const std::string& dev) {
        return Tensor::zeros(s, to_dtype(dt), dev);
      })
      .def_static("ones", [](const Dims& s, const std::string& dt, const std::string& dev) {
        return Tensor::ones(s, to_dtype(dt), dev);
      })
      .def_static("full", [](const Dims& s, py::handle v, const std::string& dt, const std::string& dev) {
        return Tensor::full(s, to_scalar(v), to_dtype(dt), dev);
      })
      .def_static("scalar", [](py::handle v, const std::string& dt, const std::string& dev) {
        return Tensor::scalar(to_scalar(v), to_dtype(dt), dev);
      })
      .def_static("scalar_operand", [](const std::string& op, const Tensor& t, py::handle v) {
        return scalar_operand(op, t, to_scalar(v), PyBool_Check(v.ptr()));
      })
      .def_static("arange", [](int64_t start, int64_t stop, int64_t step, const std::string& dt,
                               const std::string& dev) { return Tensor::arange(start, stop, step, to_dtype(dt), dev); })
      .def_static("from_buffer", &from_buffer, py::arg("data"), py::arg("shape"), py::arg("dtype"),
                  py::arg("device"))
      // ---- what it is
      .def_property_readonly("shape", &Tensor::shape)
      .def_property_readonly("ndim", &Tensor::ndim)
      .def_property_readonly("numel", &Tensor::numel)
      .def_property_readonly("dtype", [](const Tensor& t) { return t.dtype().name(); })
      .def_property_readonly("device", &Tensor::device)
      .def("graph_text", [](const Tensor& t) { return print_graph(t.uop()); })
      // ---- movement
      .def("reshape", &Tensor::reshape)
      .def("permute", &Tensor::permute)
      .def("transpose", &Tensor::transpose)
      .def("expand", &Tensor::expand)
      .def("pad", [](const Tensor& t, const Pairs& p, py::handle v) { return t.pad(p, to_scalar(v)); })
      .def("shrink", &Tensor::shrink)
      .def("flip", &Tensor::flip)
      .def("unsqueeze", &Tensor::unsqueeze)
      .def("squeeze", py::overload_cast<std::optional<int64_t>>(&Tensor::squeeze, py::const_))
      .def("flatten", &Tensor::flatten)
      .def("getitem", &getitem)
      // ---- indexing: setitem
      .def("setitem", [](Tensor& t, const py::tuple& index, const Tensor& v) {
        std::vector<IndexItem> items;
        for (py::handle h : index) items.push_back(to_index_item(h));
        t.setitem(items, v);
      })
      .def("setitem_scalar", [](Tensor& t, const py::tuple& index, py::handle v) {
        std::vector<IndexItem> items;
        for (py::handle h : index) items.push_back(to_index_item(h));
        t.setitem(items, to_scalar(v));
      })
      // ---- end indexing: setitem
      .def_static("stack", &Tensor::stack)
      .def_static("cat", &Tensor::cat)
      // ---- shape ops (src/tensor/shape_ops.cpp, pad_modes.cpp)
      .def("T", &Tensor::T)
      .def("mT", &Tensor::mT)
      .def("squeeze_dims", [](const Tensor& t, const Dims& dims) { return t.squeeze(dims); })
      .def("unflatten", &Tensor::unflatten)
      .def("movedim", &Tensor::movedim)
      .def("split", &Tensor::split)
      .def("split_with_sizes", &Tensor::split_with_sizes)
      .def("chunk", &Tensor::chunk)
      .def("unbind", &Tensor::unbind)
      .def("repeat", &Tensor::repeat)
      .def("tile", &Tensor::tile)
      .def("repeat_interleave", &Tensor::repeat_interleave)
      .def("roll", &Tensor::roll)
      .def("pad_mode", [](const Tensor& t, const Pairs& p, const std::string& mode, py::handle v) {
        static const std::pair<const char*, Tensor::PadMode> modes[] = {
            {"constant", Tensor::PadMode::constant}, {"reflect", Tensor::PadMode::reflect},
            {"replicate", Tensor::PadMode::replicate}, {"circular", Tensor::PadMode::circular}};
        for (auto [name, m] : modes)
          if (mode == name) return t.pad(p, m, to_scalar(v));
        throw ShapeError("pad: unknown mode '" + mode + "' (known: constant, reflect, replicate, circular)");
      })
      // ---- end shape ops
      // ---- elementwise
      ONEGRAD_BINARY(add) ONEGRAD_BINARY(sub) ONEGRAD_BINARY(mul) ONEGRAD_BINARY(div)
      ONEGRAD_BINARY(idiv) ONEGRAD_BINARY(mod) ONEGRAD_BINARY(maximum) ONEGRAD_BINARY(minimum)
      ONEGRAD_BINARY(pow) ONEGRAD_BINARY(lt) ONEGRAD_BINARY(le) ONEGRAD_BINARY(gt) ONEGRAD_BINARY(ge)
      ONEGRAD_BINARY(eq) ONEGRAD_BINARY(ne) ONEGRAD_BINARY(bitwise_and) ONEGRAD_BINARY(bitwise_or)
      ONEGRAD_BINARY(bitwise_xor) ONEGRAD_BINARY(lshift) ONEGRAD_BINARY(rshift) ONEGRAD_BINARY(matmul)
      .def("where", &Tensor::where)
      ONEGRAD_UNARY(neg) ONEGRAD_UNARY(recip) ONEGRAD_UNARY(trunc) ONEGRAD_UNARY(logical_not)
      ONEGRAD_UNARY(bitwise_not) ONEGRAD_UNARY(relu) ONEGRAD_UNARY(exp) ONEGRAD_UNARY(exp2)
      ONEGRAD_UNARY(log) ONEGRAD_UNARY(log2) ONEGRAD_UNARY(sqrt) ONEGRAD_UNARY(sin) ONEGRAD_UNARY(abs)
      // ---- math built on the primitives (src/tensor/math.cpp, activations.cpp)
      ONEGRAD_UNARY(cos) ONEGRAD_UNARY(tan) ONEGRAD_UNARY(rsqrt) ONEGRAD_UNARY(square) ONEGRAD_UNARY(sign)
      ONEGRAD_UNARY(floor) ONEGRAD_UNARY(ceil) ONEGRAD_UNARY(round) ONEGRAD_UNARY(erf) ONEGRAD_UNARY(log1p)
      ONEGRAD_UNARY(expm1) ONEGRAD_UNARY(isnan) ONEGRAD_UNARY(isinf) ONEGRAD_UNARY(isfinite)
      ONEGRAD_UNARY(sigmoid) ONEGRAD_UNARY(tanh) ONEGRAD_UNARY(silu) ONEGRAD_UNARY(mish)
      ONEGRAD_UNARY(hardswish) ONEGRAD_UNARY(hardsigmoid)
      ONEGRAD_BINARY(logical_and) ONEGRAD_BINARY(logical_or) ONEGRAD_BINARY(logical_xor)
      .def("clamp", &Tensor::clamp)
      .def("leaky_relu", &Tensor::leaky_relu)
      .def("elu", &Tensor::elu)
      .def("gelu", &Tensor::gelu)
      .def("softplus", &Tensor::softplus)
      ONEGRAD_UNARY(contiguous)
      .def("cast", [](const Tensor& t, const std::string& dt) { return t.cast(to_dtype(dt)); })
      .def("bitcast", [](const Tensor& t, const std::string& dt) { return t.bitcast(to_dtype(dt)); })
      // ---- reductions
      ONEGRAD_REDUCE(sum) ONEGRAD_REDUCE(max) ONEGRAD_REDUCE(min) ONEGRAD_REDUCE(prod) ONEGRAD_REDUCE(mean)
      .def("softmax", &Tensor::softmax)
      // ---- reductions/losses: src/tensor/reduce_stats.cpp, scan.cpp, loss.cpp
      .def("var", &Tensor::var, py::arg("axes"), py::arg("correction") = 1.0, py::arg("keepdim") = false)
      .def("std", &Tensor::std, py::arg("axes"), py::arg("correction") = 1.0, py::arg("keepdim") = false)
      .def("var_mean", &Tensor::var_mean, py::arg("axes"), py::arg("correction") = 1.0, py::arg("keepdim") = false)
      .def("std_mean", &Tensor::std_mean, py::arg("axes"), py::arg("correction") = 1.0, py::arg("keepdim") = false)
      .def("argmax", &Tensor::argmax, py::arg("axis") = py::none(), py::arg("keepdim") = false)
      .def("argmin", &Tensor::argmin, py::arg("axis") = py::none(), py::arg("keepdim") = false)
      ONEGRAD_REDUCE(any) ONEGRAD_REDUCE(all) ONEGRAD_REDUCE(logsumexp)
      .def("log_softmax", &Tensor::log_softmax)
      .def("cumsum", &Tensor::cumsum)
      .def("cumprod", &Tensor::cumprod)
      .def("cummax", &Tensor::cummax)
      .def("cummin", &Tensor::cummin)
      .def("one_hot", [](const Tensor& t, int64_t n) { return n == -1 ? t.one_hot() : t.one_hot(n); })
      .def("nll_loss", &Tensor::nll_loss)
      .def("cross_entropy", &Tensor::cross_entropy)
      .def("mse_loss", &Tensor::mse_loss)
      .def("l1_loss", &Tensor::l1_loss)
      .def("binary_cross_entropy", &Tensor::binary_cross_entropy)
      .def("binary_cross_entropy_with_logits", &Tensor::binary_cross_entropy_with_logits)
      // ---- end reductions/losses
      // ---- neural-net ops (nn ops area: src/tensor/{pool,conv,norm,attention,interpolate}.cpp); the
      // Python side (onegrad/tensor.py, onegrad/nn/functional.py) turns ints into per-axis lists.
      .def("pool_windows", &Tensor::pool_windows)
      .def("conv", py::overload_cast<const Tensor&, const std::optional<Tensor>&, Dims, Dims, Dims, int64_t>(
                       &Tensor::conv, py::const_))
      .def("conv_mode", py::overload_cast<const Tensor&, const std::optional<Tensor>&, Dims, const std::string&,
                                          Dims, int64_t>(&Tensor::conv, py::const_))
      .def("conv_transpose", &Tensor::conv_transpose)
      .def("max_pool", &Tensor::max_pool)
      .def("max_pool_indices", &Tensor::max_pool_indices)
      .def("avg_pool", &Tensor::avg_pool)
      .def("adaptive_avg_pool", &Tensor::adaptive_avg_pool)
      .def("adaptive_max_pool", &Tensor::adaptive_max_pool)
      .def("adaptive_max_pool_indices", &Tensor::adaptive_max_pool_indices)
      .def("batch_norm", &Tensor::batch_norm)
      .def("layer_norm", &Tensor::layer_norm)
      .def("group_norm", &Tensor::group_norm)
      .def("scaled_dot_product_attention", &Tensor::scaled_dot_product_attention)
      .def("interpolate", &Tensor::interpolate)
      // ---- end of neural-net ops
      // ---- realization (mutates this handle: its graph becomes a view of the realized buffer)
      .def("realize", [](Tensor& t) { t.realize(); })
      .def("assign", [](Tensor& t, const Tensor& v) { t.assign(v); })
      .def_static("realize_all", &realize_all)
      .def("copy_out", &copy_out);
}

#undef ONEGRAD_BINARY
#undef ONEGRAD_UNARY
#undef ONEGRAD_REDUCE

}  // namespace onegrad::python
