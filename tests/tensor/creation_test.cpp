// Creation, devices, casts and contiguous(): the graph form of docs/tensor.md.
#include <cstring>

#include "tensor/device_name.h"
#include "tensor/realize_hook.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(TensorCreate, FromDataIsReshapeOfBufferHoldingTheBytes) {
  std::vector<float> v{1, 2, 3, 4, 5, 6};
  Tensor t = verified(Tensor::from_vector(v, {2, 3}, dtypes::float32));
  EXPECT_EQ(t.shape(), (Dims{2, 3}));
  EXPECT_EQ(t.ndim(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.dtype(), dtypes::float32);
  EXPECT_EQ(t.device(), "CPU");
  ASSERT_EQ(t.uop()->op, Ops::RESHAPE);
  const UOpRef& buf = t.uop()->src[0];
  ASSERT_EQ(buf->op, Ops::BUFFER);
  const BufferArg& arg = buf->arg.get<BufferArg>();
  EXPECT_EQ(arg.size, 6);
  EXPECT_EQ(arg.dtype, dtypes::float32);
  EXPECT_EQ(arg.device, Device("CPU"));
  EXPECT_EQ(arg.addrspace, AddrSpace::GLOBAL);
  // With the engine linked the data is copied once, straight onto the device: no host copy stays.
  EXPECT_TRUE(arg.storage->host.empty());
  EXPECT_TRUE(arg.storage->device_buffer);
  std::vector<std::byte> got(24);
  realize_hooks().read(buf.get(), got.data(), got.size());
  EXPECT_EQ(std::memcmp(got.data(), v.data(), 24), 0);
}

TEST(TensorCreate, FromDataOneDimAndZeroDimAreStillReshapes) {
  int32_t x = 7;
  Tensor s = verified(Tensor::from_data(&x, 4, {}, dtypes::int32));
  EXPECT_EQ(s.shape(), Dims{});
  EXPECT_EQ(s.uop()->op, Ops::RESHAPE);
  EXPECT_EQ(s.uop()->src[0]->arg.get<BufferArg>().size, 1);
  Tensor v = verified(Tensor::from_vector(std::vector<int32_t>{1, 2, 3}, {3}, dtypes::int32));
  EXPECT_EQ(v.uop()->op, Ops::RESHAPE);
  EXPECT_EQ(v.shape(), Dims{3});
}

TEST(TensorCreate, EachBufferHasItsOwnIdentity) {
  Tensor a = data({4}), b = data({4});
  EXPECT_NE(a.uop(), b.uop());
  EXPECT_NE(a.uop()->src[0]->arg.get<BufferArg>().id, b.uop()->src[0]->arg.get<BufferArg>().id);
}

TEST(TensorCreate, FromDataSizeMismatch) {
  std::vector<float> v(5);
  EXPECT_THROW_MSG(Tensor::from_vector(v, {2, 3}, dtypes::float32), ShapeError,
                   "from_data: 20 bytes given for shape (2, 3) of float32 (24 bytes)");
  EXPECT_THROW_MSG(Tensor::from_vector(v, {-1, 5}, dtypes::float32), ShapeError, "from_data: negative dim -1");
}

TEST(TensorCreate, EmptyHasNoHostBytes) {
  Tensor t = verified(Tensor::empty({0, 3}, dtypes::int16));
  EXPECT_EQ(t.shape(), (Dims{0, 3}));
  EXPECT_EQ(t.numel(), 0);
  ASSERT_EQ(t.uop()->op, Ops::RESHAPE);
  const BufferArg& arg = t.uop()->src[0]->arg.get<BufferArg>();
  EXPECT_EQ(arg.size, 0);
  EXPECT_TRUE(arg.storage->host.empty());
  Tensor e = Tensor::empty({2, 2});
  EXPECT_EQ(e.uop()->src[0]->arg.get<BufferArg>().size, 4);
  EXPECT_TRUE(e.uop()->src[0]->arg.get<BufferArg>().storage->host.empty());
}

TEST(TensorCreate, FullIsConstReshapedAndExpanded) {
  Tensor t = verified(Tensor::full({2, 3}, fval(1.5), dtypes::float32));
  EXPECT_EQ(t.shape(), (Dims{2, 3}));
  ASSERT_EQ(t.uop()->op, Ops::EXPAND);
  const UOpRef& r = t.uop()->src[0];
  ASSERT_EQ(r->op, Ops::RESHAPE);
  EXPECT_EQ(r->static_shape(), (Dims{1, 1}));
  ASSERT_EQ(r->src[0]->op, Ops::CONST);
  EXPECT_EQ(r->src[0]->const_value(), fval(1.5));
  EXPECT_EQ(t.device(), "CPU");
}

TEST(TensorCreate, ZerosOnesScalar) {
  Tensor z = verified(Tensor::zeros({3}, dtypes::int32));
  EXPECT_EQ(z.dtype(), dtypes::int32);
  EXPECT_EQ(z.uop()->src[0]->src[0]->const_value(), ival(0));
  Tensor o = verified(Tensor::ones({2, 1}, dtypes::bool_));
  EXPECT_EQ(o.dtype(), dtypes::bool_);
  EXPECT_EQ(o.shape(), (Dims{2, 1}));
  Tensor s = verified(Tensor::scalar(ival(3), dtypes::uint8));
  EXPECT_EQ(s.uop()->op, Ops::CONST);
  EXPECT_EQ(s.shape(), Dims{});
  // A (1, 1) full needs no EXPAND; a 0-d one is the CONST alone.
  EXPECT_EQ(Tensor::ones({1, 1}).uop()->op, Ops::RESHAPE);
  EXPECT_EQ(Tensor::ones({}).uop()->op, Ops::CONST);
  Tensor empty = verified(Tensor::zeros({0, 2}));
  EXPECT_EQ(empty.shape(), (Dims{0, 2}));
}

TEST(TensorCreate, BadDtypes) {
  EXPECT_THROW_MSG(Tensor::zeros({2}, dtypes::index), DTypeError, "zeros: index is not a tensor dtype");
  EXPECT_THROW_MSG(Tensor::empty({2}, dtypes::void_), DTypeError, "empty: void is not a tensor dtype");
}

TEST(TensorDevice, NamesAreCanonical) {
  EXPECT_EQ(canonical_device("cpu"), "CPU");
  EXPECT_EQ(canonical_device("CPU:0"), "CPU");
  EXPECT_EQ(canonical_device("Cpu:1"), "CPU:1");
  EXPECT_EQ(Tensor::zeros({2}, dtypes::float32, "cpu").device(), "CPU");
  EXPECT_EQ(Tensor::empty({2}, dtypes::float32, "cpu:0").device(), "CPU");
  Tensor t = Tensor::empty({2}, dtypes::float32, "CPU:1");
  EXPECT_EQ(t.device(), "CPU:1");
  EXPECT_EQ(t.uop()->src[0]->arg.get<BufferArg>().device, Device("CPU:1"));
}

TEST(TensorDevice, UnknownDevice) {
  EXPECT_THROW_MSG(Tensor::zeros({2}, dtypes::float32, "TPU"), DeviceError, "zeros: unknown device 'TPU' (known: CPU, CL)");
  EXPECT_THROW_MSG(Tensor::empty({2}, dtypes::float32, "gpu:0"), DeviceError, "empty: unknown device 'gpu:0' (known: CPU, CL)");
  EXPECT_THROW_MSG(Tensor::scalar(ival(1), dtypes::int32, "CPU:x"), DeviceError, "bad device name 'CPU:x'");
  int x = 0;
  EXPECT_THROW_MSG(Tensor::from_data(&x, 4, {1}, dtypes::int32, "TPU"), DeviceError, "from_data: unknown device 'TPU'");
}

TEST(TensorDevice, ConstantsRememberTheirDevice) {
  Tensor c = Tensor::full({2}, ival(1), dtypes::int32, "CPU:1");
  EXPECT_TRUE(c.uop()->device().is_null());  // a CONST has no device in the spec
  EXPECT_EQ(c.device(), "CPU:1");
  EXPECT_EQ(c.add(ival(1)).reshape({2, 1}).sum().device(), "CPU:1");
  EXPECT_EQ(Tensor(c.uop()).device(), "CPU");  // a bare constant graph defaults to CPU
  Tensor b = Tensor::empty({2}, dtypes::float32, "CPU:1");
  EXPECT_EQ(Tensor(b.uop()).device(), "CPU:1");
}

TEST(TensorDevice, BinaryOpsOnDifferentDevicesThrow) {
  Tensor a = Tensor::empty({2}), b = Tensor::empty({2}, dtypes::float32, "CPU:1");
  EXPECT_THROW_MSG(a.add(b), DeviceError, "add: tensors on different devices: CPU and CPU:1");
  EXPECT_THROW_MSG(a.lt(Tensor::zeros({2}, dtypes::float32, "CPU:1")), DeviceError, "lt: tensors on different devices");
  EXPECT_THROW_MSG(a.where(a, b), DeviceError, "where: tensors on different devices");
  EXPECT_THROW_MSG(Tensor::cat({a, b}), DeviceError, "cat: tensors on different devices");
  EXPECT_THROW_MSG(a.reshape({1, 2}).matmul(b.reshape({2, 1})), DeviceError, "matmul: tensors on different devices");
}

TEST(TensorCast, CastEmitsCastOnlyWhenTheDtypeChanges) {
  Tensor t = data({2, 3});
  EXPECT_EQ(t.cast(dtypes::float32).uop(), t.uop());
  Tensor c = verified(t.cast(dtypes::int8));
  EXPECT_EQ(c.uop()->op, Ops::CAST);
  EXPECT_EQ(c.dtype(), dtypes::int8);
  EXPECT_EQ(c.shape(), (Dims{2, 3}));
  EXPECT_THROW_MSG(t.cast(dtypes::index), DTypeError, "cast: index is not a tensor dtype");
}

TEST(TensorCast, BitcastNeedsTheSameItemsize) {
  Tensor t = data({4}, dtypes::int32);
  Tensor b = verified(t.bitcast(dtypes::float32));
  EXPECT_EQ(b.uop()->op, Ops::BITCAST);
  EXPECT_EQ(b.dtype(), dtypes::float32);
  EXPECT_EQ(b.uop()->arg.get<DType>(), dtypes::float32);
  EXPECT_EQ(verified(data({2}, dtypes::bool_).bitcast(dtypes::uint8)).dtype(), dtypes::uint8);
  EXPECT_EQ(t.bitcast(dtypes::int32).uop(), t.uop());
  EXPECT_THROW_MSG(t.bitcast(dtypes::float16), DTypeError,
                   "bitcast: cannot bitcast int32 (4 bytes) to float16 (2 bytes): itemsizes differ");
}

TEST(TensorContiguous, IsALoadIntoGlobalMemory) {
  Tensor t = data({2, 3}, dtypes::float16).permute({1, 0});
  Tensor c = verified(t.contiguous());
  ASSERT_EQ(c.uop()->op, Ops::LOAD);
  EXPECT_EQ(c.uop()->src[0], t.uop());
  EXPECT_EQ(c.uop()->arg.get<LoadArg>(), (LoadArg{Device("CPU"), AddrSpace::GLOBAL}));
  EXPECT_EQ(c.dtype(), dtypes::float16);
  EXPECT_EQ(c.shape(), (Dims{3, 2}));
  // A constant graph has no device: the LOAD names the Tensor's.
  Tensor k = verified(Tensor::ones({2}, dtypes::float32, "CPU:1").contiguous());
  EXPECT_EQ(k.uop()->device(), Device("CPU:1"));
}
