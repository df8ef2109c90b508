#include "tensor/index_data.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "uop/buffer_storage.h"

namespace onegrad {

namespace {

// min and max of `count` integers of type T at p, in one branch-free pass the compiler vectorizes:
// it runs on every gather, index_select and getitem whose index is buffer data.
template <class T>
IndexValueRange range_of(const std::byte* p, size_t count) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i = 0; i < count; i++) {
    T t;
    std::memcpy(&t, p + i * sizeof(T), sizeof(T));
    int64_t v = std::is_same_v<T, uint64_t> ? int64_t(std::min<uint64_t>(uint64_t(t), uint64_t(INT64_MAX))) : int64_t(t);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return {lo, hi};
}

IndexValueRange range_of(const std::byte* p, size_t count, DType dt) {
  bool u = dt.is_unsigned();
  switch (dt.itemsize()) {
    case 1: return u ? range_of<uint8_t>(p, count) : range_of<int8_t>(p, count);
    case 2: return u ? range_of<uint16_t>(p, count) : range_of<int16_t>(p, count);
    case 4: return u ? range_of<uint32_t>(p, count) : range_of<int32_t>(p, count);
    default: return u ? range_of<uint64_t>(p, count) : range_of<int64_t>(p, count);
  }
}

}  // namespace

DeviceBytesHook& device_bytes_hook() {
  static DeviceBytesHook hook = nullptr;
  return hook;
}

bool is_buffer_data(const Tensor& t) {
  const UOp* u = t.uop().get();
  if (u->op == Ops::RESHAPE) u = u->src[0].get();
  return u->op == Ops::BUFFER && u->arg.get<BufferArg>().size == t.numel();
}

std::optional<IndexValueRange> index_value_range(const Tensor& idx) {
  if (!idx.dtype().is_int() || !is_buffer_data(idx) || idx.numel() == 0) return std::nullopt;
  const UOp* buf = idx.uop()->op == Ops::RESHAPE ? idx.uop()->src[0].get() : idx.uop().get();
  const BufferArg& arg = buf->arg.get<BufferArg>();
  size_t count = size_t(arg.size);
  {
    std::lock_guard lock(arg.storage->mu);  // host bytes not yet uploaded are read in place
    if (!arg.storage->host.empty()) return range_of(arg.storage->host.data(), count, arg.dtype);
  }
  DeviceBytesHook hook = device_bytes_hook();
  if (!hook) return std::nullopt;  // no engine linked: nothing reads device memory
  std::optional<IndexValueRange> r;
  if (!hook(buf, [&](const std::byte* p) { r = range_of(p, count, arg.dtype); }))
    r = IndexValueRange{0, 0};  // on neither side: a buffer never written reads as zeros (read_buffer)
  return r;
}

}  // namespace onegrad
