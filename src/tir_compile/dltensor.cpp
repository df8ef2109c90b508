// DLTensor -> ArrayRef (tir_compile/dltensor.h).
#include "tir_compile/dltensor.h"

#include "tir/interpret/interpret_memory.h"

namespace onegrad::tir {

namespace {

bool is_power_of_two_width(int bits, int lo, int hi) {
  return bits >= lo && bits <= hi && (bits & (bits - 1)) == 0;
}

std::string dlpack_dtype_name(DLDataType t) {
  return "code " + std::to_string(t.code) + ", bits " + std::to_string(t.bits) + ", lanes " + std::to_string(t.lanes);
}

std::string device_name(DLDevice d) {
  return "device type " + std::to_string(static_cast<int>(d.device_type)) + " (id " + std::to_string(d.device_id) + ")";
}

}  // namespace

std::optional<DataType> dtype_from_dlpack(DLDataType t) {
  if (t.lanes < 1) return std::nullopt;
  const int lanes = t.lanes, bits = t.bits;
  switch (t.code) {
    case kDLInt:
      if (is_power_of_two_width(bits, 8, 64)) return DataType::int_(bits, lanes);
      return std::nullopt;
    case kDLUInt:
      if (bits == 1) return DataType::bool_(lanes);  // TVM's bool before kDLBool: still one byte each
      if (is_power_of_two_width(bits, 8, 64)) return DataType::uint(bits, lanes);
      return std::nullopt;
    case kDLFloat:
      if (is_power_of_two_width(bits, 16, 64)) return DataType::float_(bits, lanes);
      return std::nullopt;
    case kDLBfloat:
      if (bits == 16) return DataType{DataType::Code::BFloat, 16, lanes};
      return std::nullopt;
    case kDLBoolCode:
      if (bits == 8) return DataType::bool_(lanes);
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

ArrayRef array_from_dltensor(const DLTensor& t, const std::string& function, const std::string& parameter,
                             int line) {
  auto fail = [&](const std::string& what) { throw TirArgumentError(function, parameter, what, line); };
  if (t.device.device_type != kDLCPU)
    fail("the DLTensor is on " + device_name(t.device) + "; only CPU tensors (kDLCPU) can be passed");
  std::optional<DataType> dtype = dtype_from_dlpack(t.dtype);
  if (!dtype) fail("the DLTensor's dtype (" + dlpack_dtype_name(t.dtype) + ") is not a TIR dtype");
  if (t.ndim < 0) fail("the DLTensor's ndim is " + std::to_string(t.ndim));
  if (t.ndim > 0 && !t.shape) fail("the DLTensor has ndim " + std::to_string(t.ndim) + " but no shape (null)");
  ArrayRef a{t.data, *dtype, {}, {}, 0};
  for (int k = 0; k < t.ndim; ++k) {
    if (t.shape[k] < 0) fail("dimension " + std::to_string(k) + " of the DLTensor is " + std::to_string(t.shape[k]));
    a.shape.push_back(t.shape[k]);
  }
  if (t.strides) a.strides.assign(t.strides, t.strides + t.ndim);
  const auto size = static_cast<uint64_t>(element_bytes(*dtype));
  if (t.byte_offset % size != 0)
    fail("the DLTensor's byte_offset " + std::to_string(t.byte_offset) + " is not a multiple of the " +
         std::to_string(size) + "-byte size of " + dtype->name());
  a.elem_offset = static_cast<int64_t>(t.byte_offset / size);
  return a;
}

}  // namespace onegrad::tir
