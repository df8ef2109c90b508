// onegrad._C.optim: the optimizers and schedules of src/nn (optimizer.h, lr_scheduler.h);
// onegrad/optim.py gives them torch's signatures (param groups as dicts, betas as a pair).
#include <pybind11/stl.h>

#include "bind.h"
#include "nn/lr_scheduler.h"
#include "nn/optimizer.h"

namespace onegrad::python {

namespace {

using nn::ParamGroup;
using Groups = std::vector<std::pair<std::vector<Tensor>, std::map<std::string, double>>>;

std::vector<ParamGroup> groups_of(const Groups& gs) {
  std::vector<ParamGroup> out;
  for (const auto& [params, options] : gs) out.push_back({params, options});
  return out;
}

// OptimizerState as plain containers ({index: (step, [(name, tensor)])}, [(options, [index])]):
// onegrad/optim.py turns them into torch's {"state": ..., "param_groups": ...}.
using StateLists = std::map<int64_t, std::pair<int64_t, std::vector<std::pair<std::string, Tensor>>>>;
using GroupLists = std::vector<std::pair<std::map<std::string, double>, std::vector<int64_t>>>;

std::pair<StateLists, GroupLists> state_of(const nn::Optimizer& opt) {
  nn::OptimizerState s = opt.state_dict();
  StateLists state;
  for (auto& [i, ps] : s.state) state[i] = {ps.step, ps.tensors};
  GroupLists groups;
  for (size_t g = 0; g < s.group_options.size(); g++) groups.emplace_back(s.group_options[g], s.group_params[g]);
  return {state, groups};
}

void load_state(nn::Optimizer& opt, const StateLists& state, const GroupLists& groups) {
  nn::OptimizerState s;
  for (const auto& [i, st] : state) s.state[i] = {st.first, st.second};
  for (const auto& [options, params] : groups) s.group_options.push_back(options), s.group_params.push_back(params);
  opt.load_state_dict(s);
}

}  // namespace

void bind_optim(py::module_& m) {
  py::module_ o = m.def_submodule("optim", "optimizers and learning-rate schedules (src/nn)");
  py::class_<nn::Optimizer>(o, "Optimizer")
      .def("step", &nn::Optimizer::step)
      .def("zero_grad", &nn::Optimizer::zero_grad, py::arg("set_to_none") = false)
      .def("lr", &nn::Optimizer::lr, py::arg("group") = 0)
      .def("set_lr", &nn::Optimizer::set_lr, py::arg("lr"), py::arg("group") = 0)
      .def("num_groups", [](nn::Optimizer& opt) { return opt.param_groups().size(); })
      .def("group_options", [](nn::Optimizer& opt, size_t i) { return opt.param_groups().at(i).options; })
      .def("state_dict", &state_of)
      .def("load_state_dict", &load_state)
      .def("set_group_option", [](nn::Optimizer& opt, size_t i, const std::string& k, double v) {
        opt.param_groups().at(i).options[k] = v;
      });
  py::class_<nn::SGD, nn::Optimizer>(o, "SGD").def(
      py::init([](const Groups& g, double lr, double momentum, double dampening, double wd, bool nesterov,
                  bool maximize) { return new nn::SGD(groups_of(g), lr, momentum, dampening, wd, nesterov, maximize); }));
  py::class_<nn::Adam, nn::Optimizer>(o, "Adam").def(
      py::init([](const Groups& g, double lr, double b1, double b2, double eps, double wd, bool amsgrad, bool maximize,
                  bool decoupled) { return new nn::Adam(groups_of(g), lr, b1, b2, eps, wd, amsgrad, maximize, decoupled); }));
  py::class_<nn::RMSprop, nn::Optimizer>(o, "RMSprop").def(
      py::init([](const Groups& g, double lr, double alpha, double eps, double wd, double momentum, bool centered,
                  bool maximize) { return new nn::RMSprop(groups_of(g), lr, alpha, eps, wd, momentum, centered, maximize); }));
  py::class_<nn::Adagrad, nn::Optimizer>(o, "Adagrad").def(
      py::init([](const Groups& g, double lr, double lr_decay, double wd, double initial_accumulator_value, double eps,
                  bool maximize) {
        return new nn::Adagrad(groups_of(g), lr, lr_decay, wd, initial_accumulator_value, eps, maximize);
      }));
  py::class_<nn::LRScheduler>(o, "LRScheduler")
      .def("step", &nn::LRScheduler::step)
      .def("get_last_lr", &nn::LRScheduler::get_last_lr)
      .def_property_readonly("last_epoch", &nn::LRScheduler::last_epoch);
  // a schedule keeps a reference to its optimizer: keep_alive ties their lifetimes
  py::class_<nn::StepLR, nn::LRScheduler>(o, "StepLR")
      .def(py::init<nn::Optimizer&, int64_t, double>(), py::keep_alive<1, 2>());
  py::class_<nn::MultiStepLR, nn::LRScheduler>(o, "MultiStepLR")
      .def(py::init<nn::Optimizer&, std::vector<int64_t>, double>(), py::keep_alive<1, 2>());
  py::class_<nn::ExponentialLR, nn::LRScheduler>(o, "ExponentialLR")
      .def(py::init<nn::Optimizer&, double>(), py::keep_alive<1, 2>());
  py::class_<nn::CosineAnnealingLR, nn::LRScheduler>(o, "CosineAnnealingLR")
      .def(py::init<nn::Optimizer&, int64_t, double>(), py::keep_alive<1, 2>());
  py::class_<nn::LinearLR, nn::LRScheduler>(o, "LinearLR")
      .def(py::init<nn::Optimizer&, double, double, int64_t>(), py::keep_alive<1, 2>());
}

}  // namespace onegrad::python
