// _C.from_dlpack: a copy of another library's tensor (torch, or anything with __dlpack__) as a new
// onegrad tensor, as torch.tensor(other) copies. The capsule is consumed (renamed "used_dltensor"
// and its deleter called) once the bytes are copied, as the DLPack Python protocol asks of a consumer.
#include <dlpack/dlpack.h>
#include <pybind11/stl.h>

#include <cstring>
#include <vector>

#include "bind.h"
#include "uop/errors.h"

namespace onegrad::python {

namespace {

// DLPack 0.8's kDLBool, missing from the 0.6 header Debian ships: one byte per element.
constexpr uint8_t kBoolCode = 6;

DType dtype_of(DLDataType t) {
  const std::string what = "code " + std::to_string(t.code) + ", " + std::to_string(t.bits) + " bits, " +
                           std::to_string(t.lanes) + " lanes";
  if (t.lanes == 1) {
    if (t.code == kBoolCode && t.bits == 8) return dtypes::bool_;
    if (t.code == kDLBfloat && t.bits == 16) return dtypes::bfloat16;
    static const std::pair<int, DType> ints[] = {{8, dtypes::int8}, {16, dtypes::int16}, {32, dtypes::int32}, {64, dtypes::int64}};
    static const std::pair<int, DType> uints[] = {{8, dtypes::uint8}, {16, dtypes::uint16}, {32, dtypes::uint32}, {64, dtypes::uint64}};
    static const std::pair<int, DType> floats[] = {{16, dtypes::float16}, {32, dtypes::float32}, {64, dtypes::float64}};
    auto find = [&](const auto& table) -> std::optional<DType> {
      for (auto [bits, dt] : table)
        if (bits == t.bits) return dt;
      return std::nullopt;
    };
    std::optional<DType> dt = t.code == kDLInt ? find(ints) : t.code == kDLUInt ? find(uints) : t.code == kDLFloat ? find(floats) : std::nullopt;
    if (dt) return *dt;
  }
  throw DTypeError("Tensor: a DLPack tensor of dtype (" + what + ") has no onegrad dtype");
}

// Copies the strided elements of `t` in row-major order into `out` (itemsize bytes each).
void gather(const DLTensor& t, size_t itemsize, std::vector<std::byte>& out) {
  const int nd = t.ndim;
  std::vector<int64_t> shape(t.shape, t.shape + nd), strides(nd);
  int64_t numel = 1;
  for (int d = nd - 1; d >= 0; --d) {
    strides[d] = t.strides ? t.strides[d] : numel;  // null strides: row-major (DLPack)
    numel *= shape[d];
  }
  out.resize(size_t(numel) * itemsize);
  if (numel == 0) return;
  const auto* base = static_cast<const std::byte*>(t.data) + t.byte_offset;
  std::vector<int64_t> idx(nd, 0);
  for (int64_t i = 0; i < numel; ++i) {
    int64_t off = 0;
    for (int d = 0; d < nd; ++d) off += idx[d] * strides[d];
    std::memcpy(out.data() + size_t(i) * itemsize, base + off * int64_t(itemsize), itemsize);
    for (int d = nd - 1; d >= 0 && ++idx[d] == shape[d]; --d) idx[d] = 0;
  }
}

Tensor from_dlpack(const py::capsule& capsule, const std::string& device) {
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed) {
    PyErr_Clear();
    throw DTypeError("Tensor: __dlpack__ did not return an unused DLPack capsule");
  }
  const DLTensor& t = managed->dl_tensor;
  if (t.device.device_type != kDLCPU)
    throw DeviceError("Tensor: the DLPack tensor is on device type " + std::to_string(t.device.device_type) +
                      ", not the CPU (copy it to the CPU first, e.g. t.cpu())");
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape)) throw DTypeError("Tensor: the DLPack tensor has no valid shape");
  DType dt = dtype_of(t.dtype);
  std::vector<std::byte> bytes;
  gather(t, size_t(dt.itemsize()), bytes);
  Tensor out = Tensor::from_data(bytes.data(), bytes.size(), std::vector<int64_t>(t.shape, t.shape + t.ndim), dt, device);
  // Consumed: the capsule's destructor must not free it again.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  if (managed->deleter) managed->deleter(managed);
  return out;
}

}  // namespace

void bind_dlpack(py::module_& m) { m.def("from_dlpack", &from_dlpack, py::arg("capsule"), py::arg("device")); }

}  // namespace onegrad::python
