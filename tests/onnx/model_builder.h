// Small ONNX models built in C++ with the generated protobuf classes, for the loader's tests.
#pragma once
#include <string>
#include <vector>

#include "onnx.pb.h"
#include "onnx/model.h"

namespace onegrad::onnx::test {

inline void add_value(::onnx::ValueInfoProto* v, const std::string& name, int elem, const std::vector<std::string>& dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* shape = tt->mutable_shape();
  for (const auto& d : dims) {
    auto* dim = shape->add_dim();
    if (!d.empty() && std::isdigit(static_cast<unsigned char>(d[0]))) dim->set_dim_value(std::stoll(d));
    else dim->set_dim_param(d);
  }
}

// y = relu(x @ w + b): x FLOAT[batch, 3], w an initializer (3, 2), b (2,).
inline ::onnx::ModelProto mlp_model(int64_t opset = 13) {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name("mlp");
  add_value(g->add_input(), "x", ::onnx::TensorProto::FLOAT, {"batch", "3"});
  add_value(g->add_output(), "y", ::onnx::TensorProto::FLOAT, {"batch", "2"});
  auto* w = g->add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  w->add_dims(3);
  w->add_dims(2);
  for (float v : {1.f, -1.f, 2.f, 0.5f, -3.f, 1.f}) w->add_float_data(v);
  auto* b = g->add_initializer();
  b->set_name("b");
  b->set_data_type(::onnx::TensorProto::FLOAT);
  b->add_dims(2);
  for (float v : {0.25f, -0.5f}) b->add_float_data(v);
  auto* mm = g->add_node();
  mm->set_name("matmul0");
  mm->set_op_type("MatMul");
  mm->add_input("x");
  mm->add_input("w");
  mm->add_output("h");
  auto* add = g->add_node();
  add->set_name("add0");
  add->set_op_type("Add");
  add->add_input("h");
  add->add_input("b");
  add->add_output("z");
  auto* relu = g->add_node();
  relu->set_name("relu0");
  relu->set_op_type("Relu");
  relu->add_input("z");
  relu->add_output("y");
  return m;
}

inline std::string serialized(const ::onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return s;
}

inline Model parse(const ::onnx::ModelProto& m, const std::string& dir = ".") {
  std::string s = serialized(m);
  return Model::parse(s.data(), s.size(), dir);
}

}  // namespace onegrad::onnx::test
