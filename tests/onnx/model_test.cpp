// onegrad::onnx::Model on small models built in the test: values against hand computation, the
// typed errors for bad files and bad inputs (each message naming the node or input), external data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <unistd.h>

#include "model_builder.h"
#include "onnx/model.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

namespace fs = std::filesystem;

using test::parse;
using test::serialized;

template <class E>
std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error of the expected type";
  return "";
}

std::vector<float> mlp_reference(const std::vector<float>& x, int64_t batch) {
  const float w[3][2] = {{1, -1}, {2, 0.5f}, {-3, 1}}, b[2] = {0.25f, -0.5f};
  std::vector<float> y;
  for (int64_t r = 0; r < batch; ++r)
    for (int c = 0; c < 2; ++c) {
      float acc = b[c];
      for (int k = 0; k < 3; ++k) acc += x[size_t(r * 3 + k)] * w[k][c];
      y.push_back(std::max(acc, 0.f));
    }
  return y;
}

TEST(OnnxModel, RunsAnMlpAtEveryBatchSizeByNameAndPosition) {
  Model m = parse(test::mlp_model());
  ASSERT_EQ(m.inputs().size(), 1u);  // w and b are initializers, not inputs
  EXPECT_EQ(m.inputs()[0].type_str(), "FLOAT[batch, 3]");
  for (int64_t batch : {1, 4, 7}) {
    std::vector<float> x;
    for (int64_t i = 0; i < batch * 3; ++i) x.push_back(float((i * 7) % 5) - 2.f);
    Tensor xt = Tensor::from_vector(x, {batch, 3}, dtypes::float32);
    auto y = m.run({{"x", xt}}).at("y");
    EXPECT_EQ(y.shape(), (std::vector<int64_t>{batch, 2}));
    EXPECT_EQ(y.to_vector<float>(), mlp_reference(x, batch));
    EXPECT_EQ(m.run(std::vector<Tensor>{xt}).at(0).to_vector<float>(), mlp_reference(x, batch));
  }
}

TEST(OnnxModel, WrongInputDtypeShapeOrNameIsATypedErrorNamingTheInput) {
  Model m = parse(test::mlp_model());
  auto msg = message_of<DTypeError>([&] { m.run({{"x", Tensor::zeros({2, 3}, dtypes::int32)}}); });
  EXPECT_NE(msg.find("input 'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected FLOAT"), std::string::npos) << msg;
  msg = message_of<ShapeError>([&] { m.run({{"x", Tensor::zeros({2, 4})}}); });
  EXPECT_NE(msg.find("input 'x': expected FLOAT[batch, 3], got shape (2, 4)"), std::string::npos) << msg;
  msg = message_of<ShapeError>([&] { m.run({{"x", Tensor::zeros({3})}}); });
  EXPECT_NE(msg.find("rank 2"), std::string::npos) << msg;
  msg = message_of<ArgumentError>([&] { m.run({{"y", Tensor::zeros({2, 3})}}); });
  EXPECT_NE(msg.find("no input named 'y' (inputs: x)"), std::string::npos) << msg;
  msg = message_of<ArgumentError>([&] { m.run(std::map<std::string, Tensor>{}); });
  EXPECT_NE(msg.find("input 'x' (FLOAT[batch, 3]) is missing"), std::string::npos) << msg;
}

TEST(OnnxModel, ASymbolicDimBoundToTwoSizesIsAShapeError) {
  auto p = test::mlp_model();
  test::add_value(p.mutable_graph()->add_input(), "x2", ::onnx::TensorProto::FLOAT, {"batch", "3"});
  auto* add = p.mutable_graph()->mutable_node(0);
  add->set_input(1, "w");
  Model m = parse(p);
  auto msg = message_of<ShapeError>([&] { m.run({{"x", Tensor::zeros({2, 3})}, {"x2", Tensor::zeros({5, 3})}}); });
  EXPECT_NE(msg.find("dim 'batch' is 5 here but 2 in an earlier input"), std::string::npos) << msg;
}

TEST(OnnxModel, AnUnsupportedOpNamesTheOpTheNodeAndTheOpset) {
  auto p = test::mlp_model(13);
  p.mutable_graph()->mutable_node(2)->set_op_type("FancyRelu");
  auto msg = message_of<UnsupportedError>([&] { parse(p).run({{"x", Tensor::zeros({1, 3})}}); });
  EXPECT_NE(msg.find("node 'relu0' (FancyRelu, opset 13): op FancyRelu is not supported"), std::string::npos) << msg;
  p.mutable_graph()->mutable_node(2)->set_op_type("Relu");
  p.mutable_graph()->mutable_node(2)->set_domain("com.example");
  auto* os = p.add_opset_import();
  os->set_domain("com.example");
  os->set_version(2);
  msg = message_of<UnsupportedError>([&] { parse(p).run({{"x", Tensor::zeros({1, 3})}}); });
  EXPECT_NE(msg.find("node 'relu0' (Relu, opset 2): op Relu of domain 'com.example' is not supported"), std::string::npos) << msg;
}

TEST(OnnxModel, AnErrorInsideANodeKeepsItsTypeAndNamesTheNode) {
  auto p = test::mlp_model();
  p.mutable_graph()->mutable_initializer(0)->clear_dims();
  p.mutable_graph()->mutable_initializer(0)->add_dims(2);
  p.mutable_graph()->mutable_initializer(0)->add_dims(3);  // (2, 3): x @ w no longer fits
  auto msg = message_of<ShapeError>([&] { parse(p).run({{"x", Tensor::zeros({1, 3})}}); });
  EXPECT_NE(msg.find("onnx node 'matmul0' (MatMul, opset 13): "), std::string::npos) << msg;
  auto q = test::mlp_model();
  q.mutable_graph()->mutable_node(1)->set_input(0, "nowhere");
  msg = message_of<FormatError>([&] { parse(q).run({{"x", Tensor::zeros({1, 3})}}); });
  EXPECT_NE(msg.find("node 'add0' (Add, opset 13): reads 'nowhere', which no earlier node"), std::string::npos) << msg;
}

TEST(OnnxModel, TruncatedOrCorruptedFilesAreFormatErrors) {
  std::string s = serialized(test::mlp_model());
  for (size_t cut : {size_t(1), size_t(7), s.size() / 2, s.size() - 3}) {
    auto msg = message_of<FormatError>([&] { Model::parse(s.data(), cut, ".", "cut.onnx"); });
    EXPECT_NE(msg.find("cut.onnx"), std::string::npos) << msg;
  }
  std::string junk = "this is not a protobuf at all \xff\xff\xff\xff";
  auto msg = message_of<FormatError>([&] { Model::parse(junk.data(), junk.size(), ".", "junk.onnx"); });
  EXPECT_NE(msg.find("not an ONNX ModelProto"), std::string::npos) << msg;
  // an initializer whose data does not fill its shape
  auto p = test::mlp_model();
  p.mutable_graph()->mutable_initializer(1)->add_float_data(9.f);
  msg = message_of<FormatError>([&] { parse(p); });
  EXPECT_NE(msg.find("tensor 'b': holds 12 bytes of data, but its shape and type float32 need 8"), std::string::npos) << msg;
  msg = message_of<FileError>([&] { Model::load("/nonexistent/model.onnx"); });
  EXPECT_NE(msg.find("/nonexistent/model.onnx"), std::string::npos) << msg;
}

TEST(OnnxModel, ExternalDataIsReadFromTheModelsFolderAndAMissingFileNamesIt) {
  fs::path dir = fs::temp_directory_path() / ("onegrad_onnx_ext_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto p = test::mlp_model();
  auto* w = p.mutable_graph()->mutable_initializer(0);
  std::vector<float> wv(w->float_data().begin(), w->float_data().end());
  w->clear_float_data();
  w->set_data_location(::onnx::TensorProto::EXTERNAL);
  auto kv = [&](const char* k, const std::string& v) {
    auto* e = w->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  kv("location", "weights.bin");
  kv("offset", "4");
  kv("length", std::to_string(wv.size() * 4));
  {
    std::ofstream f(dir / "weights.bin", std::ios::binary);
    float pad = 123.f;
    f.write(reinterpret_cast<const char*>(&pad), 4);
    f.write(reinterpret_cast<const char*>(wv.data()), std::streamsize(wv.size() * 4));
  }
  std::ofstream(dir / "model.onnx", std::ios::binary) << serialized(p);
  std::vector<float> x{1, 2, 3, -1, 0, 1};
  Model m = Model::load((dir / "model.onnx").string());
  EXPECT_EQ(m.run({{"x", Tensor::from_vector(x, {2, 3}, dtypes::float32)}}).at("y").to_vector<float>(), mlp_reference(x, 2));
  fs::remove(dir / "weights.bin");
  auto msg = message_of<FileError>([&] { Model::load((dir / "model.onnx").string()); });
  EXPECT_NE(msg.find("tensor 'w'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("weights.bin"), std::string::npos) << msg;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace onegrad::onnx
