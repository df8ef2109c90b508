// Tensor stage shape rules (spec: Movement Ops, Reduce Ops, Elementwise Ops, Store Ops). Shape
// operands (s', o) are STACKs of index scalars; dims may be symbolic. Equalities and bounds over
// symbolic dims are decided on their canonical polynomial (dim_poly.h): what it cannot show is
// rejected, with "cannot show" in the message.
#include <algorithm>

#include "uop/dim_poly.h"
#include "uop/property_rules.h"
#include "uop/verify/verify_rules.h"

namespace onegrad::verify_rules {

namespace {

std::string dims_str(const UOp* stack) { return shape_str(Shape(stack->src.begin(), stack->src.end())); }

// Whether the sources at `i` of `u` must be values with a shape.
bool needs_shape(const UOp* u, size_t i) {
  switch (u->op) {
    case Ops::GETTUPLE: case Ops::SINK: case Ops::GROUP: return false;
    case Ops::AFTER: return i == 0;  // deps are side effects
    case Ops::FUNCTION: case Ops::CALL: return i > 0;
    default: return true;
  }
}

// spec: s' and o are shape operands: a STACK of index scalars, each >= 0.
Finding shape_operand(const UOp* u, size_t i, const char* name) {
  const UOp* s = u->src[i].get();
  if (s->op != Ops::STACK || !s->dtype.is_index())
    return fail(u, "shape operand", std::string(name) + " must be a STACK of index dims, got " + s->brief());
  for (size_t k = 0; k < s->src.size(); k++) {
    const UOp* d = s->src[k].get();
    std::string at = std::string(name) + "[" + std::to_string(k) + "]";
    // (each dim is index: a STACK's sources have its dtype, which the STACK's own check enforces)
    if (!d->has_shape() || !d->shape().empty()) return fail(u, "shape operand", at + " is not a scalar: " + d->brief());
    if (d->vmin().as_int() < 0)
      return fail(u, std::string(name) + " must be >= 0", std::string(name) + " = " + dims_str(s) + ", " + at +
                                                               " has min " + d->vmin().str());
  }
  return std::nullopt;
}

DimPoly product(const Shape& s) {
  DimPoly p = DimPoly::constant(1);
  for (const UOpRef& d : s) p = p * DimPoly::of(d.get());
  return p;
}

bool same_dim(const UOpRef& a, const UOpRef& b) { return a == b || DimPoly::of(a.get()) == DimPoly::of(b.get()); }

// Shows lhs <= rhs for every value of the atoms; otherwise the reason ("2 + 4 > 5" or "cannot show ...").
std::optional<std::string> show_le(const DimPoly& lhs, const DimPoly& rhs, const std::string& lhs_text) {
  DimPoly slack = rhs - lhs;
  if (slack.lower_bound() >= 0) return std::nullopt;
  if (slack.upper_bound() < 0) return lhs_text + " > " + rhs.str();
  return "cannot show " + lhs_text + " <= " + rhs.str();
}

// spec: PAD o_k + s_k <= s'_k; SHRINK o_k + s'_k <= s_k.
Finding pad_shrink(const UOp* u) {
  if (Finding f = shape_operand(u, 1, "o")) return f;
  if (Finding f = shape_operand(u, 2, "s'")) return f;
  const Shape& s = u->src[0]->shape();
  Shape o(u->src[1]->src.begin(), u->src[1]->src.end()), s2(u->src[2]->src.begin(), u->src[2]->src.end());
  if (o.size() != s.size() || s2.size() != s.size())
    return fail(u, "same rank", "T " + shape_str(s) + ", o " + shape_str(o) + ", s' " + shape_str(s2));
  bool pad = u->op == Ops::PAD;
  for (size_t k = 0; k < s.size(); k++) {
    DimPoly po = DimPoly::of(o[k].get()), inner = DimPoly::of((pad ? s : s2)[k].get());
    DimPoly outer = DimPoly::of((pad ? s2 : s)[k].get());
    if (auto why = show_le(po + inner, outer, po.str() + " + " + inner.str()))
      return fail(u, pad ? "o_k + s_k <= s'_k" : "o_k + s'_k <= s_k",
                  "axis " + std::to_string(k) + ": " + *why + " (T " + shape_str(s) + ", o " + shape_str(o) + ", s' " +
                      shape_str(s2) + ")");
  }
  return std::nullopt;
}

Finding reshape(const UOp* u) {
  if (Finding f = shape_operand(u, 1, "s'")) return f;
  const Shape& s = u->src[0]->shape();
  Shape s2(u->src[1]->src.begin(), u->src[1]->src.end());
  DimPoly a = product(s), b = product(s2);
  if (a == b) return std::nullopt;  // spec: prod s_k = prod s'_k
  return fail(u, "reshape products differ",
              shape_str(s) + " has " + a.str() + " elements, " + shape_str(s2) + " has " + b.str());
}

Finding expand(const UOp* u) {
  if (Finding f = shape_operand(u, 1, "s'")) return f;
  const Shape& s = u->src[0]->shape();
  Shape s2(u->src[1]->src.begin(), u->src[1]->src.end());
  if (s.size() != s2.size())
    return fail(u, "same rank", shape_str(s) + " has " + std::to_string(s.size()) + " dims, " + shape_str(s2) + " has " +
                                    std::to_string(s2.size()));
  for (size_t k = 0; k < s.size(); k++)  // spec: s_k in {1, s'_k}
    if (!props::is_one(s[k]) && !same_dim(s[k], s2[k]))
      return fail(u, "only size-1 axes expand", "axis " + std::to_string(k) + " of " + shape_str(s) + " cannot become " +
                                                    DimPoly::of(s2[k].get()).str() + " in " + shape_str(s2));
  return std::nullopt;
}

// Axes in range and named once (REDUCE, REPLICATED).
Finding axes_valid(const UOp* u, const std::vector<int64_t>& axes) {
  const Shape& s = u->src[0]->shape();
  std::vector<bool> seen(s.size(), false);
  for (int64_t a : axes) {
    if (a < 0 || size_t(a) >= s.size())
      return fail(u, "axes in range", "axis " + std::to_string(a) + " out of range for " + shape_str(s));
    if (seen[a]) return fail(u, "axes unique", "axis " + std::to_string(a) + " named twice for " + shape_str(s));
    seen[a] = true;
  }
  return std::nullopt;
}

Finding permute(const UOp* u) {
  const Shape& s = u->src[0]->shape();
  const auto& perm = u->arg.get<Arg::Ints>();
  std::vector<bool> seen(s.size(), false);
  bool ok = perm.size() == s.size();
  for (size_t i = 0; ok && i < perm.size(); i++) {
    ok = perm[i] >= 0 && size_t(perm[i]) < s.size() && !seen[perm[i]];
    if (ok) seen[perm[i]] = true;
  }
  if (ok) return std::nullopt;
  std::string order = "(";
  for (size_t i = 0; i < perm.size(); i++) order += (i ? ", " : "") + std::to_string(perm[i]);
  order += perm.size() == 1 ? ",)" : ")";
  return fail(u, "permutation validity", order + " is not a permutation of the " + std::to_string(s.size()) +
                                             " axes of " + shape_str(s));
}

Finding reduce(const UOp* u) {
  const ReduceArg& r = u->arg.get<ReduceArg>();
  if (r.op != Ops::ADD && r.op != Ops::MAX && r.op != Ops::MUL)
    return fail(u, "reduce op", "must be ADD, MAX or MUL, got " + std::string(op_name(r.op)));
  for (size_t i = 1; i < u->src.size(); i++)  // spec: (T, r0, r1, ...): reduce over ranges
    if (u->src[i]->op != Ops::RANGE) return fail(u, "reduce sources", src_name(u, i) + " is not a RANGE");
  return axes_valid(u, r.axes);
}

Finding index(const UOp* u) {
  const Shape& s = u->src[0]->shape();
  size_t n = u->src.size() - 1;
  if (n > s.size()) return fail(u, "index count", std::to_string(n) + " indices for shape " + shape_str(s));
  for (size_t i = 1; i < u->src.size(); i++) {
    const Shape& si = u->src[i]->shape();
    if (si.size() > 1)  // spec: ()-shaped removes the dim, (k,)-shaped makes it k
      return fail(u, "index shape", "index " + std::to_string(i - 1) + " must have shape () or (k,), got " + shape_str(si));
  }
  return std::nullopt;
}

Finding same_shape(const UOp* u, size_t i, size_t j, const char* rule) {
  const Shape &a = u->src[i]->shape(), &b = u->src[j]->shape();
  bool same = a.size() == b.size();
  for (size_t k = 0; same && k < a.size(); k++) same = same_dim(a[k], b[k]);
  if (same) return std::nullopt;
  return fail(u, rule, shape_str(a) + " vs " + shape_str(b));
}

Finding slice(const UOp* u) {
  const UOp* off = u->src[1].get();
  if (!off->dtype.is_index() || !off->shape().empty())
    return fail(u, "offset", "must be an index scalar, got " + off->brief());
  if (off->vmin().as_int() < 0) return fail(u, "offset must be >= 0", "offset has min " + off->vmin().str());
  if (u->arg.get<SliceArg>().size < 0)
    return fail(u, "size must be >= 0", "size is " + std::to_string(u->arg.get<SliceArg>().size));
  return std::nullopt;
}

}  // namespace

Finding tensor_shapes(const UOp* u) {
  for (size_t i = 0; i < u->src.size(); i++)
    if (needs_shape(u, i) && !u->src[i]->has_shape())
      return fail(u, "source shape", src_name(u, i) + " has no shape");
  switch (u->op) {
    case Ops::PARAM: return u->src.empty() ? std::nullopt : shape_operand(u, 0, "s");
    case Ops::RESHAPE: return reshape(u);
    case Ops::EXPAND: return expand(u);
    case Ops::PAD: case Ops::SHRINK: return pad_shrink(u);
    case Ops::PERMUTE: return permute(u);
    case Ops::FLIP: {
      size_t flags = u->arg.get<Arg::Bools>().size(), nd = u->src[0]->shape().size();
      if (flags == nd) return std::nullopt;
      return fail(u, "one flag per axis",
                  std::to_string(flags) + " flags for shape " + shape_str(u->src[0]->shape()));
    }
    case Ops::REPLICATED: return axes_valid(u, u->arg.get<Arg::Ints>());
    case Ops::REDUCE: return reduce(u);
    case Ops::INDEX: return index(u);
    case Ops::STACK:
      for (size_t i = 1; i < u->src.size(); i++)  // spec: all shapes must match
        if (Finding f = same_shape(u, 0, i, "all shapes must match")) return f;
      return std::nullopt;
    case Ops::SLICE: return slice(u);
    case Ops::STORE: return same_shape(u, 0, 1, "buf.shape = val.shape");  // spec: Store Ops
    default: break;
  }
  // ALU ops: the broadcast rule is shape inference's (property_shape.cpp); verify.cpp reports
  // what it rejects.
  return std::nullopt;
}

}  // namespace onegrad::verify_rules
