// The op-dependent `arg` of a UOp. Small args live inline; larger ones sit in an immutable shared
// box so a node stays small. Args compare and hash by value (they are part of the interning key).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "uop/buffer_storage.h"
#include "uop/const_value.h"
#include "uop/dtype.h"
#include "uop/ops.h"

namespace onegrad {

// A device: none (NULL in the spec's table), one device ("CPU"), or an n-tuple of devices for
// multi-device tensors ("(CPU:0, CPU:1)").
struct Device {
  std::vector<std::string> names;
  bool is_tuple = false;

  Device() = default;
  Device(std::string name) : names{std::move(name)} {}  // NOLINT: a name is a device
  static Device tuple(std::vector<std::string> names) {
    Device d;
    d.names = std::move(names);
    d.is_tuple = true;
    return d;
  }
  bool is_null() const { return names.empty() && !is_tuple; }
  size_t count() const { return names.size(); }
  bool operator==(const Device&) const = default;
  std::string str() const;  // "CPU", "(CPU:0, CPU:1)", "NULL"
  uint64_t hash() const;
};

// REDUCE: the reducing op (ADD, MAX or MUL) and the axes it collapses (tensor level).
struct ReduceArg {
  Ops op;
  std::vector<int64_t> axes;
  bool operator==(const ReduceArg&) const = default;
};

// BUFFER: spec arg "size, dtype, device, addrspace", plus an identity so two buffers of the same
// size are different nodes (spec README: "arg carries size/dtype/device/addrspace and an identity").
// The storage rides along (buffer_storage.h) but is not part of the value: the id names it.
struct BufferArg {
  int64_t id;
  int64_t size;
  DType dtype;
  Device device;
  AddrSpace addrspace = AddrSpace::GLOBAL;
  std::shared_ptr<BufferStorage> storage = std::make_shared<BufferStorage>();
  bool operator==(const BufferArg& o) const {
    return id == o.id && size == o.size && dtype == o.dtype && device == o.device && addrspace == o.addrspace;
  }
};

// PARAM: spec arg "slot, dtype, device?, addrspace?". A named PARAM with bounds is a symbolic
// variable (a symbolic dim, or a variable of index math): its min_max comes from [vmin, vmax].
struct ParamArg {
  int64_t slot;
  DType dtype;
  Device device;
  std::optional<AddrSpace> addrspace;
  std::string name;  // empty for plain placeholders
  std::optional<ConstValue> vmin, vmax;
  // A bound variable (Variable.bind): the value the variable stands for in this tensor graph.
  // Callify strips it, so that kernels see the variable and take the value at launch.
  std::optional<int64_t> value = std::nullopt;
  bool operator==(const ParamArg&) const = default;
};

// LOAD: where the loaded value lives.
struct LoadArg {
  Device device;
  AddrSpace addrspace = AddrSpace::GLOBAL;
  bool operator==(const LoadArg&) const = default;
};

// RANGE: a loop's identity and its AxisType.
struct RangeArg {
  int64_t id;
  AxisType type;
  bool operator==(const RangeArg&) const = default;
};

// SLICE: spec arg "size, dtype".
struct SliceArg {
  int64_t size;
  DType dtype;
  bool operator==(const SliceArg&) const = default;
};

// Immutable shared payload compared by value.
template <class T>
struct Boxed {
  std::shared_ptr<const T> ptr;
  bool operator==(const Boxed& o) const { return ptr == o.ptr || *ptr == *o.ptr; }
  const T& operator*() const { return *ptr; }
};

class Arg {
 public:
  using Ints = std::vector<int64_t>;
  using Bools = std::vector<bool>;
  using Variant = std::variant<std::monostate, ConstValue, int64_t, DType, RangeArg, Boxed<Ints>, Boxed<Bools>,
                               Boxed<std::string>, Boxed<ReduceArg>, Boxed<BufferArg>, Boxed<ParamArg>,
                               Boxed<LoadArg>, Boxed<Device>, Boxed<SliceArg>>;

  Arg() = default;
  Arg(ConstValue v) : v_(v) {}       // NOLINT: implicit, so call sites read naturally
  Arg(int64_t v) : v_(v) {}          // NOLINT
  Arg(int v) : v_(int64_t(v)) {}     // NOLINT
  Arg(DType v) : v_(v) {}            // NOLINT
  Arg(RangeArg v) : v_(v) {}         // NOLINT
  Arg(Ints v) : v_(box(std::move(v))) {}         // NOLINT
  Arg(Bools v) : v_(box(std::move(v))) {}        // NOLINT
  Arg(std::string v) : v_(box(std::move(v))) {}  // NOLINT
  Arg(const char* v) : Arg(std::string(v)) {}    // NOLINT
  Arg(ReduceArg v) : v_(box(std::move(v))) {}    // NOLINT
  Arg(BufferArg v) : v_(box(std::move(v))) {}    // NOLINT
  Arg(ParamArg v) : v_(box(std::move(v))) {}     // NOLINT
  Arg(LoadArg v) : v_(box(std::move(v))) {}      // NOLINT
  Arg(Device v) : v_(box(std::move(v))) {}       // NOLINT
  Arg(SliceArg v) : v_(box(std::move(v))) {}     // NOLINT

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  template <class T>
  bool is() const {
    if constexpr (inline_type<T>()) return std::holds_alternative<T>(v_);
    else return std::holds_alternative<Boxed<T>>(v_);
  }
  // The arg as T; throws InternalError naming both types when it holds something else.
  template <class T>
  const T& get() const {
    if constexpr (inline_type<T>()) {
      if (auto* p = std::get_if<T>(&v_)) return *p;
    } else {
      if (auto* p = std::get_if<Boxed<T>>(&v_)) return **p;
    }
    bad_access(type_name<T>());
  }
  template <class T>
  const T* get_if() const {
    if constexpr (inline_type<T>()) return std::get_if<T>(&v_);
    else {
      auto* p = std::get_if<Boxed<T>>(&v_);
      return p ? p->ptr.get() : nullptr;
    }
  }

  const Variant& variant() const { return v_; }
  bool operator==(const Arg& o) const { return v_ == o.v_; }
  uint64_t hash() const;
  const char* kind_name() const;  // which alternative it holds, for messages

 private:
  template <class T>
  static constexpr bool inline_type() {
    return std::is_same_v<T, std::monostate> || std::is_same_v<T, ConstValue> || std::is_same_v<T, int64_t> ||
           std::is_same_v<T, DType> || std::is_same_v<T, RangeArg>;
  }
  template <class T>
  static Boxed<T> box(T v) {
    return Boxed<T>{std::make_shared<const T>(std::move(v))};
  }
  template <class T>
  static constexpr const char* type_name() {
    if constexpr (std::is_same_v<T, ConstValue>) return "ConstValue";
    else if constexpr (std::is_same_v<T, int64_t>) return "int";
    else if constexpr (std::is_same_v<T, DType>) return "DType";
    else if constexpr (std::is_same_v<T, RangeArg>) return "RangeArg";
    else if constexpr (std::is_same_v<T, Ints>) return "Ints";
    else if constexpr (std::is_same_v<T, Bools>) return "Bools";
    else if constexpr (std::is_same_v<T, std::string>) return "string";
    else if constexpr (std::is_same_v<T, ReduceArg>) return "ReduceArg";
    else if constexpr (std::is_same_v<T, BufferArg>) return "BufferArg";
    else if constexpr (std::is_same_v<T, ParamArg>) return "ParamArg";
    else if constexpr (std::is_same_v<T, LoadArg>) return "LoadArg";
    else if constexpr (std::is_same_v<T, Device>) return "Device";
    else if constexpr (std::is_same_v<T, SliceArg>) return "SliceArg";
    else return "none";
  }
  [[noreturn]] void bad_access(const char* wanted) const;
  Variant v_;
};

}  // namespace onegrad
