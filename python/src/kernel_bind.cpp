// Kernel inspection: _C.schedule_kernels and _C.Kernel, the machinery of onegrad.kernels
// (onegrad/kernel.py turns opts into and out of the (op, axis, arg, target, top) tuples used here).
#include <pybind11/stl.h>

#include "bind.h"
#include "codegen/kernel_axes.h"
#include "engine/kernel_inspect.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"

namespace onegrad::python {

namespace {

using OptTuple = std::tuple<std::string, int64_t, int64_t, std::string, bool>;

OptTuple to_tuple(const Opt& o) {
  return {std::string(opt_op_name(o.op)), o.axis, o.arg, std::string(axis_type_name(o.target)), o.top};
}

Opt from_tuple(const OptTuple& t) {
  const auto& [op, axis, arg, target, top] = t;
  std::optional<OptOp> o = parse_opt_op(op);
  if (!o) throw OptError("unknown OptOp '" + op + "' (SPLIT, PADTO, SWAP, NOLOCALS, TC)");
  std::optional<AxisType> ty = parse_axis_type(target);
  if (!ty)
    throw OptError("unknown AxisType '" + target +
                   "' (GLOBAL, LOCAL, WARP, THREAD, LOOP, REDUCE, GROUP_REDUCE, UPCAST, UNROLL)");
  return Opt{*o, axis, arg, *ty, top};
}

std::vector<Opt> from_tuples(const std::vector<OptTuple>& ts) {
  std::vector<Opt> out;
  for (const OptTuple& t : ts) out.push_back(from_tuple(t));
  return out;
}

std::vector<OptTuple> to_tuples(const std::vector<Opt>& opts) {
  std::vector<OptTuple> out;
  for (const Opt& o : opts) out.push_back(to_tuple(o));
  return out;
}

}  // namespace

void bind_kernel(py::module_& m) {
  py::class_<ScheduledKernelView>(m, "Kernel")
      .def_readonly("name", &ScheduledKernelView::name)
      .def_readonly("reason", &ScheduledKernelView::reason)
      .def_readonly("device", &ScheduledKernelView::device)
      .def_readonly("copy_from", &ScheduledKernelView::copy_from)
      .def_readonly("copy_bytes", &ScheduledKernelView::copy_bytes)
      .def_property_readonly("shape", [](const ScheduledKernelView& k) { return kernel_shape(k.ast); })
      .def("default_opts", [](const ScheduledKernelView& k) { return to_tuples(default_opts(k.ast)); })
      // optimize(opts) -> shape after the opts (OptError when one does not apply)
      .def("optimize",
           [](const ScheduledKernelView& k, const std::vector<OptTuple>& opts) {
             Capabilities c = c_capabilities();  // the target lower() renders for
             return kernel_shape(apply_opts(k.ast, from_tuples(opts), &c));
           })
      // lower(opts) -> (opts, shape after them, C source)
      .def("lower", [](const ScheduledKernelView& k, const std::vector<OptTuple>& opts) {
        LoweredKernel lk = lower_kernel(k.ast, "", from_tuples(opts));
        return std::make_tuple(to_tuples(lk.opts), kernel_shape(lk.optimized), lk.spec.source);
      });
  m.def("schedule_kernels", [](const std::vector<Tensor>& outputs) {
    std::vector<UOpRef> uops;
    for (const Tensor& t : outputs) uops.push_back(t.uop());
    return schedule_kernels(uops);
  });
}

}  // namespace onegrad::python
