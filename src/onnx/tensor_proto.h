// ONNX TensorProto <-> onegrad Tensor: element types, the data fields protobuf fills (raw_data or the
// typed repeated fields) and external data files (docs/onnx.md "Initializers").
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onegrad::onnx {

// The onegrad dtype of an ONNX element type (TensorProto.DataType); UnsupportedError for string,
// complex and the types onegrad lacks. `what` names the value for the message.
DType dtype_of(int elem_type, const std::string& what);
// The ONNX element type of a dtype.
int elem_type_of(DType dtype);
// ONNX's name of an element type ("FLOAT", "INT64"), for messages.
std::string elem_type_name(int elem_type);

// The tensor a TensorProto holds, on `device`. External data is read from files relative to
// `base_dir` (the model's folder): FileError when one is missing, FormatError when its offset/length
// leave it or the data fields do not hold numel elements.
Tensor tensor_from_proto(const ::onnx::TensorProto& t, const std::string& base_dir, const std::string& device);

// A TensorProto file (the node tests' input_0.pb): FileError / FormatError as above.
Tensor read_tensor_file(const std::string& path, const std::string& device, std::string* name = nullptr);

}  // namespace onegrad::onnx
