// onegrad._C.data: the files and data loading of src/nn (safetensors.h, idx_file.h,
// fashion_mnist.h, data_loader.h); onegrad/data.py and onegrad/safetensors.py give them Python's
// shapes (dicts, keyword arguments, iteration).
#include <pybind11/stl.h>

#include "bind.h"
#include "nn/data_loader.h"
#include "nn/fashion_mnist.h"
#include "nn/idx_file.h"
#include "nn/safetensors.h"

namespace onegrad::python {

void bind_data(py::module_& m) {
  py::module_ d = m.def_submodule("data", "safetensors, IDX files, Fashion-MNIST and the DataLoader (src/nn)");
  d.def("save_safetensors", &nn::save_safetensors, py::arg("path"), py::arg("tensors"), py::arg("metadata"));
  d.def("load_safetensors", [](const std::string& path) {
    nn::SafetensorsContents c = nn::load_safetensors_with_metadata(path);
    return std::make_pair(std::move(c.tensors), std::move(c.metadata));
  });
  d.def("load_idx", &nn::load_idx, py::arg("path"));
  d.def("load_fashion_mnist", [](bool train, const std::string& root) {
    nn::FashionMNIST f = nn::load_fashion_mnist(train, root);
    return std::make_pair(f.images, f.labels);
  });
  d.def("fashion_mnist_classes", [] {
    std::vector<std::string> names;
    for (std::string_view n : nn::fashion_mnist_classes()) names.emplace_back(n);
    return names;
  });
  d.attr("FASHION_MNIST_DEBIAN_DIR") = nn::kFashionMnistDebianDir;
  py::class_<nn::DataLoader>(d, "DataLoader")
      .def(py::init<const std::vector<Tensor>&, int64_t, bool, bool, uint64_t>(), py::arg("tensors"),
           py::arg("batch_size"), py::arg("shuffle"), py::arg("drop_last"), py::arg("seed"))
      .def(py::init([](bool train, const std::string& root, int64_t batch_size, bool shuffle, bool drop_last,
                       uint64_t seed) {
             nn::FashionMNISTArrays a = nn::read_fashion_mnist(train, root);
             std::vector<nn::HostArray> arrays;  // moved in (an initializer list would copy 47 MB)
             arrays.push_back(std::move(a.images));
             arrays.push_back(std::move(a.labels));
             return new nn::DataLoader(std::move(arrays), batch_size, shuffle, drop_last, seed);
           }),
           py::arg("fashion_mnist_train"), py::arg("root"), py::arg("batch_size"), py::arg("shuffle"),
           py::arg("drop_last"), py::arg("seed"))
      .def("__len__", &nn::DataLoader::size)
      .def_property_readonly("num_samples", &nn::DataLoader::num_samples)
      .def_property_readonly("batch_size", &nn::DataLoader::batch_size)
      .def("order", &nn::DataLoader::order)
      .def("batch", &nn::DataLoader::batch)
      .def_property("next_epoch", &nn::DataLoader::next_epoch, &nn::DataLoader::set_epoch)
      // A pass is the next epoch; the iterator keeps the loader alive.
      .def("__iter__", [](nn::DataLoader& l) { return py::make_iterator(l.begin(), l.end()); }, py::keep_alive<0, 1>());
}

}  // namespace onegrad::python
