// Derived properties, row by row from the spec's table (uop-dialect.tex, "Derived Properties";
// addrspace from uop-dialect.md). Properties are computed for a node once all its sources have
// theirs: compute_props walks the unfinished part of the graph with an explicit stack, so a chain of
// a million nodes needs no deep recursion. Results are published with a compare-and-swap and never
// change afterwards, so concurrent readers are safe.
//
// Where onegrad is more precise than the table, the comment says so; every refinement is sound
// (the interval still contains every value the node can take). docs/uop.md lists them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "uop/errors.h"
#include "uop/uop.h"

namespace onegrad {

// ---- dtype -----------------------------------------------------------------------------------

std::optional<DType> infer_dtype(Ops op, std::span<const UOpRef> src, const Arg& arg) {
  auto src0 = [&]() -> std::optional<DType> {
    if (src.empty()) return std::nullopt;
    return src[0]->dtype;
  };
  switch (op) {
    case Ops::BUFFER: return arg.is<BufferArg>() ? std::optional(arg.get<BufferArg>().dtype) : std::nullopt;
    case Ops::PARAM: return arg.is<ParamArg>() ? std::optional(arg.get<ParamArg>().dtype) : std::nullopt;
    case Ops::CONST: return std::nullopt;  // spec: "value, dtype": the dtype is given
    case Ops::BINARY: return dtypes::uint8;
    case Ops::CAST:
    case Ops::BITCAST: return arg.is<DType>() ? std::optional(arg.get<DType>()) : std::nullopt;
    case Ops::SLICE: return arg.is<SliceArg>() ? std::optional(arg.get<SliceArg>().dtype) : std::nullopt;
    case Ops::CMPLT: case Ops::CMPNE: case Ops::CMPGT: case Ops::CMPGE: case Ops::CMPLE: case Ops::CMPEQ:
      return dtypes::bool_;
    case Ops::WHERE:
      if (src.size() < 2) return std::nullopt;
      return src[1]->dtype;
    case Ops::RANGE: case Ops::SPECIAL: return dtypes::index;
    case Ops::STORE: case Ops::END: case Ops::GROUP: case Ops::SINK: case Ops::LINEAR: case Ops::TUPLE:
    case Ops::BARRIER: case Ops::IF: case Ops::ENDIF: case Ops::ATOMICADD: case Ops::PROGRAM: case Ops::SOURCE:
    case Ops::CUSTOMFUNCTION:
      return dtypes::void_;
    case Ops::GETADDR: return dtypes::uint64;
    case Ops::WMMA:
      if (src.size() < 3) return std::nullopt;
      return src[2]->dtype;
    case Ops::GETTUPLE: {
      if (src.empty() || !arg.is<int64_t>()) return std::nullopt;
      const UOp* t = src[0].get();
      if ((t->op == Ops::FUNCTION || t->op == Ops::CALL) && !t->src.empty()) t = t->src[0].get();
      int64_t i = arg.get<int64_t>();
      if (t->op != Ops::TUPLE || i < 0 || size_t(i) >= t->src.size()) return std::nullopt;
      return t->src[i]->dtype;
    }
    case Ops::STACK:
      if (src.empty()) return std::nullopt;  // an empty STACK needs its dtype given
      return src0();
    case Ops::CUSTOM: case Ops::INS: return std::nullopt;
    default:
      // movement, REDUCE, FUNCTION/CALL, LOAD/COPY, AFTER, INDEX, markers, ALU: src[0].dtype
      return src0();
  }
}

// ---- shape helpers ---------------------------------------------------------------------------

namespace {

struct ShapeResult {
  bool ok = true;
  bool has = true;
  Shape shape;
  std::string error;
};

ShapeResult no_shape() { return {true, false, {}, {}}; }
ShapeResult shape_of(Shape s) { return {true, true, std::move(s), {}}; }
ShapeResult shape_fail(const UOp* u, std::string rule) {
  return {false, false, {}, std::string(op_name(u->op)) + ": " + rule};
}

bool is_one(const UOpRef& d) { return d->is_const() && d->const_value().as_int() == 1 && !d->const_value().is_float(); }

// The dims carried by a shape operand (a STACK of index values).
std::optional<Shape> operand_dims(const UOpRef& s) {
  if (s->op != Ops::STACK) return std::nullopt;
  return Shape(s->src.begin(), s->src.end());
}

// spec: broadcast: right-align shapes, element-wise max; each axis must be equal or 1.
ShapeResult broadcast(const UOp* u, const std::vector<const UOpProps*>& srcs) {
  size_t nd = 0;
  for (const UOpProps* p : srcs) {
    if (!p->has_shape) return shape_fail(u, "source has no shape" + (p->shape_error.empty() ? "" : " (" + p->shape_error + ")"));
    nd = std::max(nd, p->shape.size());
  }
  Shape out(nd, UOp::index(1));
  for (const UOpProps* p : srcs) {
    size_t off = nd - p->shape.size();
    for (size_t i = 0; i < p->shape.size(); i++) {
      const UOpRef& d = p->shape[i];
      UOpRef& o = out[off + i];
      if (is_one(d) || d == o) continue;
      if (is_one(o)) {
        o = d;
        continue;
      }
      std::string shapes;
      for (const UOpProps* q : srcs) shapes += (shapes.empty() ? "" : " and ") + shape_str(q->shape);
      return shape_fail(u, "broadcast rule: shapes " + shapes + " differ at axis " + std::to_string(off + i) +
                               " and neither is 1");
    }
  }
  return shape_of(std::move(out));
}

// Replace, inside the small index expression `e`, every node found in `subst`.
UOpRef substitute(const UOpRef& e, const std::unordered_map<const UOp*, UOpRef>& subst) {
  if (subst.empty()) return e;
  std::unordered_map<const UOp*, UOpRef> done;
  for (const UOp* n : e->toposort()) {
    if (auto it = subst.find(n); it != subst.end()) {
      done[n] = it->second;
      continue;
    }
    std::vector<UOpRef> new_src;
    bool changed = false;
    for (const UOpRef& s : n->src) {
      new_src.push_back(done.at(s.get()));
      changed |= new_src.back() != s;
    }
    done[n] = changed ? n->with_src(std::move(new_src)) : n->ref();
  }
  return done.at(e.get());
}

ShapeResult infer_shape(const UOp* u, const std::vector<const UOpProps*>& sp) {
  auto src_shape = [&](size_t i) -> const Shape* { return i < sp.size() && sp[i]->has_shape ? &sp[i]->shape : nullptr; };
  const Shape* s0 = src_shape(0);
  auto need0 = [&]() { return s0 ? ShapeResult{} : shape_fail(u, "source 0 has no shape"); };

  switch (u->op) {
    case Ops::BUFFER: {
      if (!u->arg.is<BufferArg>()) return shape_fail(u, "arg must be a BufferArg");
      const BufferArg& b = u->arg.get<BufferArg>();
      int64_t n = b.device.is_tuple ? int64_t(b.device.count()) : 1;
      return shape_of({UOp::index(n * b.size)});  // spec: (n*size,) on an n-tuple device
    }
    case Ops::CONST: return shape_of({});
    case Ops::PARAM:
      if (u->src.empty()) return shape_of({});
      if (auto d = operand_dims(u->src[0])) return shape_of(*d);
      return shape_fail(u, "src[0] must be a shape operand (STACK of index)");
    case Ops::BINARY:
      return shape_of({UOp::index(u->arg.is<std::string>() ? int64_t(u->arg.get<std::string>().size()) : 0)});

    case Ops::PERMUTE: {
      if (!s0) return need0();
      if (!u->arg.is<Arg::Ints>()) return shape_fail(u, "arg must be the axis order");
      const auto& perm = u->arg.get<Arg::Ints>();
      std::vector<bool> seen(s0->size(), false);
      if (perm.size() != s0->size()) return shape_fail(u, "permutation of length " + std::to_string(perm.size()) +
                                                              " for shape " + shape_str(*s0));
      Shape out;
      for (int64_t a : perm) {
        if (a < 0 || size_t(a) >= s0->size() || seen[a])
          return shape_fail(u, "axis order is not a permutation of the axes of " + shape_str(*s0));
        seen[a] = true;
        out.push_back((*s0)[a]);
      }
      return shape_of(std::move(out));
    }
    case Ops::FLIP:
      if (!s0) return need0();
      return shape_of(*s0);
    case Ops::RESHAPE:
    case Ops::EXPAND:
      if (!s0) return need0();
      if (u->src.size() != 2) return shape_fail(u, "expects (T, shape)");
      if (auto d = operand_dims(u->src[1])) return shape_of(*d);
      return shape_fail(u, "src[1] must be a shape operand (STACK of index)");
    case Ops::PAD:
    case Ops::SHRINK:
      if (!s0) return need0();
      if (u->src.size() != 3) return shape_fail(u, "expects (T, offsets, shape)");
      if (auto d = operand_dims(u->src[2])) return shape_of(*d);
      return shape_fail(u, "src[2] must be a shape operand (STACK of index)");
    case Ops::INDEX: {
      if (!s0) return need0();
      if (u->src.size() - 1 > s0->size())
        return shape_fail(u, std::to_string(u->src.size() - 1) + " indices for shape " + shape_str(*s0));
      Shape out;
      for (size_t k = 1; k < u->src.size(); k++) {
        const Shape* ik = src_shape(k);
        if (!ik) return shape_fail(u, "index " + std::to_string(k - 1) + " has no shape");
        if (ik->empty()) continue;  // ()-shaped index removes the dim
        if (ik->size() != 1)
          return shape_fail(u, "index " + std::to_string(k - 1) + " must have shape () or (k,), not " + shape_str(*ik));
        out.push_back((*ik)[0]);  // (k,)-shaped index makes the dim k
      }
      out.insert(out.end(), s0->begin() + (u->src.size() - 1), s0->end());
      return shape_of(std::move(out));
    }
    case Ops::STACK: {
      Shape inner;
      for (size_t i = 0; i < u->src.size(); i++) {
        const Shape* si = src_shape(i);
        if (!si) return shape_fail(u, "source " + std::to_string(i) + " has no shape");
        if (i == 0) inner = *si;
        else if (*si != inner)
          return shape_fail(u, "all shapes must match: " + shape_str(inner) + " vs " + shape_str(*si));
      }
      Shape out{UOp::index(int64_t(u->src.size()))};
      out.insert(out.end(), inner.begin(), inner.end());
      return shape_of(std::move(out));
    }
    case Ops::REPLICATED:
    case Ops::REDUCE: {
      if (!s0) return need0();
      const Arg::Ints* axes = u->op == Ops::REDUCE ? (u->arg.is<ReduceArg>() ? &u->arg.get<ReduceArg>().axes : nullptr)
                                                   : u->arg.get_if<Arg::Ints>();
      if (!axes) return shape_fail(u, "arg must name the axes");
      Shape out = *s0;
      for (int64_t a : *axes) {
        if (a < 0 || size_t(a) >= out.size())
          return shape_fail(u, "axis " + std::to_string(a) + " out of range for shape " + shape_str(*s0));
        out[a] = UOp::index(1);  // spec: collapse axes to 1
      }
      return shape_of(std::move(out));
    }
    case Ops::SLICE:
      if (!u->arg.is<SliceArg>()) return shape_fail(u, "arg must be (size, dtype)");
      return shape_of({UOp::index(u->arg.get<SliceArg>().size)});

    case Ops::FUNCTION: case Ops::CALL: case Ops::TUPLE:
      return no_shape();  // a tuple of values has no one shape: GETTUPLE has each element's
    case Ops::GETTUPLE: {
      if (u->src.empty() || !u->arg.is<int64_t>()) return shape_fail(u, "expects (T,) and an index");
      const UOp* t = u->src[0].get();
      const UOp* fn = (t->op == Ops::FUNCTION || t->op == Ops::CALL) ? t : nullptr;
      const UOp* body = fn ? (fn->src.empty() ? nullptr : fn->src[0].get()) : t;
      int64_t idx = u->arg.get<int64_t>();
      if (!body || body->op != Ops::TUPLE || idx < 0 || size_t(idx) >= body->src.size())
        return shape_fail(u, "index " + std::to_string(idx) + " is not an element of a TUPLE");
      const UOpProps& ep = body->src[idx]->props();
      if (!ep.has_shape) return shape_fail(u, "element " + std::to_string(idx) + " has no shape");
      if (!fn) return shape_of(ep.shape);
      // spec: FUNCTION/CALL: substitute PARAM shapes. Symbolic dims of PARAM k's shape take the
      // values of argument k's dims.
      std::unordered_map<const UOp*, UOpRef> subst;
      for (const UOp* n : body->toposort()) {
        if (n->op != Ops::PARAM || n->src.empty() || !n->arg.is<ParamArg>()) continue;
        int64_t slot = n->arg.get<ParamArg>().slot;
        if (slot < 0 || size_t(slot) + 1 >= fn->src.size()) continue;
        const UOpProps& ap = fn->src[slot + 1]->props();
        const UOpProps& pp = n->props();
        if (!ap.has_shape || !pp.has_shape || ap.shape.size() != pp.shape.size()) continue;
        for (size_t i = 0; i < pp.shape.size(); i++)
          if (!pp.shape[i]->is_const()) subst[pp.shape[i].get()] = ap.shape[i];
      }
      Shape out;
      for (const UOpRef& d : ep.shape) out.push_back(substitute(d, subst));
      return shape_of(std::move(out));
    }
    case Ops::LOAD: case Ops::COPY: case Ops::AFTER: case Ops::BITCAST: case Ops::CAST:
    case Ops::CONTIGUOUS: case Ops::CONTIGUOUSBACKWARD: case Ops::DETACH:
      if (!s0) return need0();
      return shape_of(*s0);
    case Ops::STORE: case Ops::RANGE: case Ops::END: case Ops::GROUP: case Ops::SINK: case Ops::LINEAR:
      return shape_of({});
    default:
      break;
  }
  if (is_alu(u->op)) return broadcast(u, sp);
  return shape_of({});  // codegen ops work on scalars
}

// ---- device, addrspace, axis -----------------------------------------------------------------

Device infer_device(const UOp* u, const std::vector<const UOpProps*>& sp) {
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

std::optional<AddrSpace> infer_addrspace(const UOp* u, const std::vector<const UOpProps*>& sp) {
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

// The product of a shape's leading `n` dims when they are all constant.
std::optional<int64_t> prefix_product(const Shape& s, size_t n) {
  int64_t p = 1;
  for (size_t i = 0; i < n; i++) {
    if (!s[i]->is_const()) return std::nullopt;
    p *= int64_t(s[i]->const_value().as_int());
  }
  return p;
}

// spec: axis tracks the multi-device sharding dimension.
std::optional<int64_t> infer_axis(const UOp* u, const std::vector<const UOpProps*>& sp, const ShapeResult& sh) {
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

// ---- min_max ---------------------------------------------------------------------------------

struct Interval {
  ConstValue lo, hi;
};

Interval dtype_range(DType dt) {
  if (dt.is_float()) {
    double inf = std::numeric_limits<double>::infinity();
    return {ConstValue::from_float(-inf), ConstValue::from_float(inf)};
  }
  if (dt.is_int() || dt.is_bool()) return {ConstValue::from_int(dt.int_min()), ConstValue::from_int(dt.int_max())};
  return {ConstValue::from_int(0), ConstValue::from_int(0)};  // void, pointers: "—"
}

bool le(const ConstValue& a, const ConstValue& b) {
  if (a.is_int() && b.is_int()) return a.as_int() <= b.as_int();
  return a.as_double() <= b.as_double();
}
bool lt(const ConstValue& a, const ConstValue& b) {
  if (a.is_int() && b.is_int()) return a.as_int() < b.as_int();
  return a.as_double() < b.as_double();
}

// For fixed-width ints an interval past the dtype's range means the value may wrap: fall back to
// the dtype range. index is unbounded (math integers), floats saturate to inf.
Interval fit(Interval v, DType dt) {
  if (dt.is_int() && !dt.is_index()) {
    Interval r = dtype_range(dt);
    if (lt(v.lo, r.lo) || lt(r.hi, v.hi)) return r;
  }
  if (dt.is_float()) {
    if (std::isnan(v.lo.as_double()) || std::isnan(v.hi.as_double())) return dtype_range(dt);
    return {ConstValue::from_float(v.lo.as_double()), ConstValue::from_float(v.hi.as_double())};
  }
  return v;
}

ConstValue add(const ConstValue& a, const ConstValue& b, bool is_float) {
  if (is_float) return ConstValue::from_float(a.as_double() + b.as_double());
  return ConstValue::from_int(sat_add(a.as_int(), b.as_int()));
}
ConstValue mul(const ConstValue& a, const ConstValue& b, bool is_float) {
  if (is_float) {
    double x = a.as_double(), y = b.as_double();
    // 0 * inf is NaN; for bounds the product is 0 (one factor is exactly zero)
    if (x == 0 || y == 0) return ConstValue::from_float(0.0);
    return ConstValue::from_float(x * y);
  }
  return ConstValue::from_int(sat_mul(a.as_int(), b.as_int()));
}

Interval hull(std::initializer_list<ConstValue> vs) {
  ConstValue lo = *vs.begin(), hi = *vs.begin();
  for (const ConstValue& v : vs) {
    if (lt(v, lo)) lo = v;
    if (lt(hi, v)) hi = v;
  }
  return {lo, hi};
}

// Floor division of ints, Python semantics.
i128 floordiv(i128 a, i128 b) {
  i128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
  return q;
}

Interval bool_interval(bool can_false, bool can_true) {
  return {ConstValue::from_bool(!can_false), ConstValue::from_bool(can_true)};
}

Interval infer_min_max(const UOp* u, const std::vector<const UOpProps*>& sp) {
  DType dt = u->dtype;
  bool fl = dt.is_float();
  auto s = [&](size_t i) { return Interval{sp[i]->vmin, sp[i]->vmax}; };
  switch (u->op) {
    case Ops::CONST:  // spec: [v, v]; a CONST without a value (the verifier rejects it) has the dtype range
      if (const ConstValue* v = u->arg.get_if<ConstValue>()) return {*v, *v};
      return dtype_range(dt);
    case Ops::PARAM:
      if (auto* p = u->arg.get_if<ParamArg>(); p && p->vmin && p->vmax) return {*p->vmin, *p->vmax};
      return dtype_range(dt);  // spec: from src or dtype range
    case Ops::RANGE:
    case Ops::SPECIAL: {
      // spec: [0, n-1]
      if (sp.empty()) return dtype_range(dt);
      return {ConstValue::from_int(0), ConstValue::from_int(std::max<i128>(0, sat_add(sp[0]->vmax.as_int(), -1)))};
    }
    case Ops::CAST: {
      // spec: clamped to dtype. An int source that does not fit a narrower int wraps, so then the
      // dtype range; float targets hold the clamped source interval.
      if (sp.empty()) return dtype_range(dt);
      Interval r = dtype_range(dt);
      Interval v = s(0);
      if (dt.is_bool()) {
        bool can_false = le(v.lo, ConstValue::from_int(0)) && le(ConstValue::from_int(0), v.hi);
        bool can_true = !(v.lo == v.hi && !v.lo.truthy());
        return bool_interval(can_false, can_true);
      }
      if (fl) {
        double lo = std::max(v.lo.as_double(), r.lo.as_double()), hi = std::min(v.hi.as_double(), r.hi.as_double());
        return {ConstValue::from_float(round_to_float_dtype(lo, dt)), ConstValue::from_float(round_to_float_dtype(hi, dt))};
      }
      if (v.lo.is_float()) {  // float → int truncates, saturating at the range
        return {cast_value(v.lo, dt), cast_value(v.hi, dt)};
      }
      return fit(v, dt);
    }
    case Ops::ADD:  // spec: [a+b, A+B]
      return fit({add(s(0).lo, s(1).lo, fl), add(s(0).hi, s(1).hi, fl)}, dt);
    case Ops::MUL: {  // spec: [min, max] of products
      Interval a = s(0), b = s(1);
      return fit(hull({mul(a.lo, b.lo, fl), mul(a.lo, b.hi, fl), mul(a.hi, b.lo, fl), mul(a.hi, b.hi, fl)}), dt);
    }
    case Ops::MAX: {  // spec: [max(a,b), max(A,B)]
      Interval a = s(0), b = s(1);
      return {lt(a.lo, b.lo) ? b.lo : a.lo, lt(a.hi, b.hi) ? b.hi : a.hi};
    }
    case Ops::CMPLT: {  // spec: from intervals
      Interval a = s(0), b = s(1);
      return bool_interval(!lt(a.hi, b.lo), lt(a.lo, b.hi));
    }
    case Ops::CMPNE: {
      Interval a = s(0), b = s(1);
      bool disjoint = lt(a.hi, b.lo) || lt(b.hi, a.lo);
      bool same_point = a.lo == a.hi && b.lo == b.hi && le(a.lo, b.lo) && le(b.lo, a.lo);
      return bool_interval(!disjoint, !same_point);
    }
    case Ops::WHERE: {  // spec: [min(b,c), max(B,C)]; refined: a constant condition picks a branch
      Interval c = s(0), b = s(1), e = s(2);
      if (c.lo == c.hi && c.lo.is_int()) return c.lo.truthy() ? b : e;
      return {lt(b.lo, e.lo) ? b.lo : e.lo, lt(b.hi, e.hi) ? e.hi : b.hi};
    }
    // refinement (spec: "other binary: dtype range"): sound intervals for integer IDIV and MOD,
    // which the simplifier needs to fold index math.
    case Ops::IDIV: {
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      i128 blo = b.lo.as_int(), bhi = b.hi.as_int();
      if (blo <= 0 && bhi >= 0) break;  // the divisor may be zero
      i128 alo = a.lo.as_int(), ahi = a.hi.as_int();
      i128 q[4] = {floordiv(alo, blo), floordiv(alo, bhi), floordiv(ahi, blo), floordiv(ahi, bhi)};
      return fit({ConstValue::from_int(*std::min_element(q, q + 4)), ConstValue::from_int(*std::max_element(q, q + 4))}, dt);
    }
    case Ops::MOD: {
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      i128 blo = b.lo.as_int(), bhi = b.hi.as_int();
      i128 alo = a.lo.as_int(), ahi = a.hi.as_int();
      if (blo > 0) {  // floor mod by a positive divisor lies in [0, b-1]
        if (alo >= 0 && ahi < blo) return {a.lo, a.hi};  // x % c == x when 0 <= x < c
        return fit({ConstValue::from_int(0), ConstValue::from_int(bhi - 1)}, dt);
      }
      if (bhi < 0) return fit({ConstValue::from_int(blo + 1), ConstValue::from_int(0)}, dt);
      break;
    }
    case Ops::AND: {  // x & y of non-negative ints is at most min(X, Y)
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      if (dt.is_bool()) return bool_interval(!(a.lo.truthy() && b.lo.truthy()), a.hi.truthy() && b.hi.truthy());
      if (a.lo.as_int() >= 0 && b.lo.as_int() >= 0)
        return {ConstValue::from_int(0), ConstValue::from_int(std::min(a.hi.as_int(), b.hi.as_int()))};
      break;
    }
    case Ops::OR:
      if (dt.is_bool() && sp.size() == 2)
        return bool_interval(!(s(0).lo.truthy() || s(1).lo.truthy()), s(0).hi.truthy() || s(1).hi.truthy());
      break;
    case Ops::LOAD:
      // LOAD (buf, alt?, gate?): where the gate is false the value is alt, so both count
      if (sp.size() >= 2) return {lt(s(1).lo, s(0).lo) ? s(1).lo : s(0).lo, lt(s(0).hi, s(1).hi) ? s(1).hi : s(0).hi};
      break;
    case Ops::PAD: {
      // spec (.tex): PAD places T "in a zero-filled output", so the output holds 0 too (the table's
      // "src[0]" would be unsound), unless nothing is padded (o all 0, s' == s).
      if (sp.empty() || u->src.size() != 3) break;
      bool none_padded = sp[0]->has_shape && u->src[2]->src.size() == sp[0]->shape.size();
      for (const UOpRef& o : u->src[1]->src) none_padded = none_padded && o->is_const_value(0);
      for (size_t k = 0; none_padded && k < sp[0]->shape.size(); k++) none_padded = u->src[2]->src[k] == sp[0]->shape[k];
      Interval v = s(0);
      if (none_padded) return v;
      ConstValue zero = fl ? ConstValue::from_float(0.0) : ConstValue::from_int(0);
      return {lt(zero, v.lo) ? zero : v.lo, lt(v.hi, zero) ? zero : v.hi};
    }
    default:
      break;
  }
  OpGroup g = op_group(u->op);
  // spec: movement ops, INDEX, AFTER, COPY: src[0]; marker ops are identities on data too
  bool from_src0 = (g == OpGroup::Movement && u->op != Ops::BITCAST && u->op != Ops::SLICE && u->op != Ops::STACK) ||
                   g == OpGroup::Marker || u->op == Ops::AFTER || u->op == Ops::COPY || u->op == Ops::LOAD;
  if (from_src0 && !sp.empty()) return {sp[0]->vmin, sp[0]->vmax};
  if (u->op == Ops::STACK && !sp.empty()) {  // the hull of the stacked values
    Interval r = s(0);
    for (size_t i = 1; i < sp.size(); i++) {
      if (lt(s(i).lo, r.lo)) r.lo = s(i).lo;
      if (lt(r.hi, s(i).hi)) r.hi = s(i).hi;
    }
    return r;
  }
  return dtype_range(dt);  // spec default: dtype range (REDUCE, BITCAST, ALU unary, other binary)
}

}  // namespace

// ---- the iterative driver --------------------------------------------------------------------

const UOpProps& UOp::props() const {
  if (const UOpProps* p = props_.load(std::memory_order_acquire)) return *p;
  return compute_props();
}

const UOpProps& UOp::compute_props() const {
  // Post-order over the nodes below this one that have no properties yet.
  std::vector<std::pair<const UOp*, size_t>> stack{{this, 0}};
  std::vector<const UOpProps*> sp;
  while (!stack.empty()) {
    auto& [u, next] = stack.back();
    if (next < u->src.size()) {
      const UOp* s = u->src[next++].get();
      if (!s->props_.load(std::memory_order_acquire)) stack.push_back({s, 0});
      continue;
    }
    const UOp* node = u;
    stack.pop_back();
    if (node->props_.load(std::memory_order_acquire)) continue;  // reached twice in a DAG
    sp.clear();
    for (const UOpRef& s : node->src) sp.push_back(s->props_.load(std::memory_order_acquire));
    auto* p = new UOpProps();
    ShapeResult sh = infer_shape(node, sp);
    p->has_shape = sh.ok && sh.has;
    if (p->has_shape) p->shape = sh.shape;
    p->shape_error = sh.error;
    p->device = infer_device(node, sp);
    p->addrspace = infer_addrspace(node, sp);
    p->axis = infer_axis(node, sp, sh);
    Interval mm = infer_min_max(node, sp);
    p->vmin = mm.lo;
    p->vmax = mm.hi;
    const UOpProps* expected = nullptr;
    if (!node->props_.compare_exchange_strong(expected, p, std::memory_order_acq_rel)) delete p;  // another thread won
  }
  return *props_.load(std::memory_order_acquire);
}

const Shape& UOp::shape() const {
  const UOpProps& p = props();
  if (!p.has_shape) {
    if (!p.shape_error.empty()) throw ShapeError(p.shape_error);
    throw ShapeError(std::string(op_name(op)) + ": has no shape (it is a tuple of values)");
  }
  return p.shape;
}

}  // namespace onegrad
