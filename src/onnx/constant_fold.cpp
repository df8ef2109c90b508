#include "onnx/constant_fold.h"

#include <cstring>
#include <optional>
#include <set>

#include "onnx.pb.h"
#include "uop/errors.h"

namespace onegrad::onnx {

const std::vector<Tensor>* ConstantFolds::find(const ::onnx::NodeProto* node, const std::string& device) const {
  auto it = folded_.find({node, device});
  return it == folded_.end() ? nullptr : &it->second;
}

const std::vector<Tensor>& ConstantFolds::keep(const ::onnx::NodeProto* node, const std::string& device, std::vector<Tensor> outs) {
  std::vector<Tensor*> ptrs;
  for (Tensor& t : outs) ptrs.push_back(&t);
  Tensor::realize_all(ptrs);
  for (Tensor& t : outs) t = const_if_scalar(t);
  return folded_.insert_or_assign({node, device}, std::move(outs)).first->second;
}

const Tensor* ConstantFolds::find_derived(const ::onnx::NodeProto* node, const std::string& device, int slot) const {
  auto it = derived_.find({node, device, slot});
  return it == derived_.end() ? nullptr : &it->second;
}

Tensor ConstantFolds::keep_derived(const ::onnx::NodeProto* node, const std::string& device, int slot, Tensor t) {
  t.realize();
  return derived_.insert_or_assign({node, device, slot}, const_if_scalar(t)).first->second;
}

bool foldable_op(const ::onnx::NodeProto& node) {
  static const std::set<std::string> random{"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                                            "Bernoulli", "Multinomial", "Dropout"};
  if (random.count(node.op_type())) return false;
  for (const auto& a : node.attribute())
    if (a.has_g() || a.graphs_size() > 0) return false;
  return true;
}

namespace {

template <class T>
T first_of(const std::vector<std::byte>& b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

// The element's value read from its bytes (no kernel), for the dtypes models hold as scalars.
std::optional<Scalar> scalar_value(const Tensor& t) {
  DType dt = t.dtype();
  if (dt != dtypes::float32 && dt != dtypes::float64 && dt != dtypes::int64 && dt != dtypes::int32 && dt != dtypes::bool_)
    return std::nullopt;
  auto b = t.to_bytes();
  if (dt == dtypes::float32) return ConstValue::from_float(first_of<float>(b));
  if (dt == dtypes::float64) return ConstValue::from_float(first_of<double>(b));
  if (dt == dtypes::int64) return ConstValue::from_int(first_of<int64_t>(b));
  if (dt == dtypes::int32) return ConstValue::from_int(first_of<int32_t>(b));
  return ConstValue::from_bool(first_of<uint8_t>(b) != 0);
}

}  // namespace

Tensor const_if_scalar(const Tensor& t) {
  if (t.numel() != 1) return t;
  auto v = scalar_value(t);
  if (!v) return t;
  try {
    return Tensor::full(t.shape(), *v, t.dtype(), t.device());
  } catch (const Error&) {
    return t;  // a value full() does not take as a literal stays in its buffer
  }
}

}  // namespace onegrad::onnx
