// Dims as real exporters write them: paddle2onnx (the PaddleOCR models) declares a dim it does not
// know as dim_value -1 or dim_param "?"; both accept any size, and two "?" are not one shared dim.
#include <gtest/gtest.h>

#include "model_builder.h"
#include "onnx/model.h"
#include "uop/errors.h"

namespace onegrad::onnx {
namespace {

Model parse(const ::onnx::ModelProto& m) {
  std::string s;
  m.SerializeToString(&s);
  return Model::parse(s.data(), s.size(), ".");
}

// y = relu(x) over x FLOAT[-1, 3, ?, ?], the way paddle2onnx declares an image batch.
::onnx::ModelProto paddle_style_relu() {
  ::onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(12);
  auto* g = m.mutable_graph();
  g->set_name("relu");
  test::add_value(g->add_input(), "x", ::onnx::TensorProto::FLOAT, {"batch", "3", "?", "?"});
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-1);
  test::add_value(g->add_output(), "y", ::onnx::TensorProto::FLOAT, {"?", "3", "?", "?"});
  auto* relu = g->add_node();
  relu->set_name("relu0");
  relu->set_op_type("Relu");
  relu->add_input("x");
  relu->add_output("y");
  return m;
}

TEST(OnnxExporterDims, MinusOneAndQuestionMarkDimsAcceptAnySize) {
  Model m = parse(paddle_style_relu());
  EXPECT_EQ(m.inputs().at(0).type_str(), "FLOAT[?, 3, ?, ?]");
  for (std::vector<int64_t> shape : {std::vector<int64_t>{1, 3, 2, 5}, {2, 3, 4, 4}}) {
    Tensor x = Tensor::full(shape, Scalar::from_float(-1), dtypes::float32);
    auto y = m.run({{"x", x}}).at("y");
    EXPECT_EQ(y.shape(), shape);
    EXPECT_EQ(y.to_vector<float>(), std::vector<float>(size_t(x.numel()), 0.f));
  }
}

TEST(OnnxExporterDims, AFixedDimStillChecksItsSize) {
  Model m = parse(paddle_style_relu());
  try {
    m.run({{"x", Tensor::zeros({1, 4, 2, 2})}});
    ADD_FAILURE() << "no ShapeError";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x': expected FLOAT[?, 3, ?, ?], got shape (1, 4, 2, 2) (axis 1)"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace onegrad::onnx
