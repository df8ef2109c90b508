// device, addrspace and axis (spec: Derived Properties, the device column and the axis paragraph;
// addrspace from uop-dialect.md).
#include <algorithm>

#include "uop/property_rules.h"

namespace onegrad::props {

namespace {

// The product of a shape's leading `n` dims when they are all constant.
std::optional<int64_t> prefix_product(const Shape& s, size_t n) {
  int64_t p = 1;
  for (size_t i = 0; i < n; i++) {
    if (!s[i]->is_const()) return std::nullopt;
    p *= int64_t(s[i]->const_value().as_int());
  }
  return p;
}

}  // namespace

Device infer_device(const UOp* u, const SourceProps& sp) {
  auto first_non_null = [&]() -> Device {
    for (const UOpProps* p : sp)
      if (!p->device.is_null()) return p->device;
    return Device();
  };
  switch (u->op) {
    case Ops::BUFFER: return u->arg.is<BufferArg>() ? u->arg.get<BufferArg>().device : Device();
    case Ops::PARAM: return u->arg.is<ParamArg>() ? u->arg.get<ParamArg>().device : Device();
    case Ops::CONST: case Ops::BINARY: case Ops::RANGE: case Ops::SPECIAL: return Device();
    case Ops::COPY: return u->arg.is<Device>() ? u->arg.get<Device>() : Device();
    case Ops::LOAD:
      if (auto* l = u->arg.get_if<LoadArg>(); l && !l->device.is_null()) return l->device;
      break;
    case Ops::FUNCTION: case Ops::CALL:
      return sp.size() > 1 ? sp[1]->device : Device();  // spec: src[1].device
    default:
      break;
  }
  if (sp.empty()) return Device();
  // spec: src[0].device. A CONST has no device and broadcasts anywhere, so when src[0] has none
  // the first source that has one decides (a refinement: the table's value when src[0] has one).
  if (!sp[0]->device.is_null()) return sp[0]->device;
  return first_non_null();
}

std::optional<AddrSpace> infer_addrspace(const UOp* u, const SourceProps& sp) {
  switch (u->op) {
    case Ops::BUFFER: return u->arg.is<BufferArg>() ? std::optional(u->arg.get<BufferArg>().addrspace) : std::nullopt;
    case Ops::PARAM:
      if (auto* p = u->arg.get_if<ParamArg>(); p && p->addrspace) return p->addrspace;
      return u->dtype.is_ptr ? std::optional(u->dtype.addrspace) : std::nullopt;
    case Ops::LOAD: return u->arg.is<LoadArg>() ? std::optional(u->arg.get<LoadArg>().addrspace) : std::nullopt;
    case Ops::COPY: return AddrSpace::GLOBAL;
    default: break;
  }
  OpGroup g = op_group(u->op);
  bool passes = g == OpGroup::Movement || g == OpGroup::Marker || u->op == Ops::AFTER || u->op == Ops::STORE;
  if (passes && !sp.empty()) return sp[0]->addrspace;
  return std::nullopt;
}

// spec: axis tracks the multi-device sharding dimension.
std::optional<int64_t> infer_axis(const UOp* u, const SourceProps& sp, const ShapeResult& sh) {
  std::optional<int64_t> a0 = sp.empty() ? std::nullopt : sp[0]->axis;
  switch (u->op) {
    case Ops::BUFFER:
      if (u->arg.is<BufferArg>() && u->arg.get<BufferArg>().device.is_tuple) return 0;  // the device dim
      return std::nullopt;
    case Ops::RESHAPE: {
      // Keep the shard boundary: the new axis has the same number of elements before it and is not
      // a size-1 axis.
      if (!a0 || !sp[0]->has_shape || !sh.has) return std::nullopt;
      auto before = prefix_product(sp[0]->shape, size_t(*a0));
      if (!before) return std::nullopt;
      for (size_t k = 0; k < sh.shape.size(); k++) {
        auto p = prefix_product(sh.shape, k);
        if (p && *p == *before && !is_one(sh.shape[k])) return int64_t(k);
        if (!p || *p > *before) break;
      }
      return std::nullopt;
    }
    case Ops::PERMUTE: {
      if (!a0 || !u->arg.is<Arg::Ints>()) return std::nullopt;
      const auto& perm = u->arg.get<Arg::Ints>();
      for (size_t i = 0; i < perm.size(); i++)
        if (perm[i] == *a0) return int64_t(i);
      return std::nullopt;
    }
    case Ops::REDUCE: {
      if (!a0 || !u->arg.is<ReduceArg>()) return a0;
      const auto& axes = u->arg.get<ReduceArg>().axes;
      return std::find(axes.begin(), axes.end(), *a0) != axes.end() ? std::nullopt : a0;
    }
    case Ops::REPLICATED: {
      if (!a0 || !u->arg.is<Arg::Ints>()) return a0;
      const auto& axes = u->arg.get<Arg::Ints>();
      return std::find(axes.begin(), axes.end(), *a0) != axes.end() ? std::nullopt : a0;
    }
    case Ops::COPY:
      // spec: COPY → NULL; "COPY to an n-tuple device reshards with axis = 0".
      return u->arg.is<Device>() && u->arg.get<Device>().is_tuple ? std::optional<int64_t>(0) : std::nullopt;
    case Ops::LOAD:  // LOAD replaces COPY: onto a tuple device it shards on axis 0, else inherits
      if (auto* l = u->arg.get_if<LoadArg>(); l && !l->device.is_null())
        return l->device.is_tuple ? std::optional<int64_t>(0) : std::nullopt;
      return a0;
    case Ops::STACK:  // a new leading axis: the shard axis moves one to the right
      return a0 ? std::optional<int64_t>(*a0 + 1) : std::nullopt;
    case Ops::INDEX: {
      // dims removed in front of the shard axis shift it; indexing the shard axis itself ends it
      if (!a0) return std::nullopt;
      int64_t removed = 0;
      for (size_t k = 1; k < u->src.size(); k++) {
        if (int64_t(k - 1) == *a0) return std::nullopt;
        if (sp[k]->has_shape && sp[k]->shape.empty()) removed++;
      }
      return *a0 - removed;
    }
    default:
      break;
  }
  OpGroup g = op_group(u->op);
  if (is_alu(u->op)) {  // ALU ops inherit from their sources
    for (const UOpProps* p : sp)
      if (p->axis) return p->axis;
    return std::nullopt;
  }
  if (g == OpGroup::Movement || g == OpGroup::Marker || u->op == Ops::AFTER) return a0;
  return std::nullopt;
}

}  // namespace onegrad::props
