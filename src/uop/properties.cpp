// Derived properties, row by row from the spec's table (uop-dialect.tex, "Derived Properties";
// addrspace from uop-dialect.md). Properties are computed for a node once all its sources have
// theirs: compute_props walks the unfinished part of the graph with an explicit stack, so a chain of
// a million nodes needs no deep recursion. Results are published with a compare-and-swap and never
// change afterwards, so concurrent readers are safe.
//
// Where onegrad is more precise than the table, the comment says so; every refinement is sound
// (the interval still contains every value the node can take). docs/uop.md lists them.
// The rules for each property live in property_{shape,device,min_max}.cpp.
#include "uop/errors.h"
#include "uop/property_rules.h"
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
    props::ShapeResult sh = props::infer_shape(node, sp);
    p->has_shape = sh.ok && sh.has;
    if (p->has_shape) p->shape = sh.shape;
    p->shape_error = sh.error;
    p->device = props::infer_device(node, sp);
    p->addrspace = props::infer_addrspace(node, sp);
    p->axis = props::infer_axis(node, sp, sh);
    props::Interval mm = props::infer_min_max(node, sp);
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