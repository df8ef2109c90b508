// Shape inference (spec: Derived Properties, the shape column; broadcast per the note below it).
#include <algorithm>

#include "uop/property_rules.h"
#include "uop/substitute.h"

namespace onegrad::props {

bool is_one(const UOpRef& d) { return d->is_const() && d->const_value().as_int() == 1 && !d->const_value().is_float(); }

namespace {

ShapeResult no_shape() { return {true, false, {}, {}}; }
ShapeResult shape_of(Shape s) { return {true, true, std::move(s), {}}; }
ShapeResult shape_fail(const UOp* u, std::string rule) {
  return {false, false, {}, std::string(op_name(u->op)) + ": " + rule};
}

// The dims carried by a shape operand (a STACK of index values).
std::optional<Shape> operand_dims(const UOpRef& s) {
  if (s->op != Ops::STACK) return std::nullopt;
  return Shape(s->src.begin(), s->src.end());
}

// spec: broadcast: right-align shapes, element-wise max; each axis must be equal or 1.
ShapeResult broadcast(const UOp* u, const SourceProps& srcs) {
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

}  // namespace

ShapeResult infer_shape(const UOp* u, const SourceProps& sp) {
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
      Substitution subst;
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
    case Ops::CUSTOM:
      // in the tensor graph, a kernel the scheduler builds by name (schedule/custom_kernels.h) over
      // its first source's elements; in a kernel, a scalar
      return s0 ? shape_of(*s0) : shape_of({});
    default:
      break;
  }
  if (is_alu(u->op)) return broadcast(u, sp);
  return shape_of({});  // codegen ops work on scalars
}

}  // namespace onegrad::props
