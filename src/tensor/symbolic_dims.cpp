#include "tensor/symbolic_dims.h"

#include "uop/errors.h"

namespace onegrad {

namespace {

// "n=5" (a dim as it prints inside a shape)
std::string dim_text(const UOpRef& d) {
  std::string s = shape_str({d});
  return s.substr(1, s.size() - 3);
}

int64_t value_of(const UOpRef& d) {
  std::optional<int64_t> v = eval_dim(d.get());
  if (!v) throw ShapeError("shape: the dim " + dim_text(d) + " has no value (a variable that is not bound)");
  return *v;
}

UOpRef product(const UOpRef& a, const UOpRef& b) {
  if (a->is_const_value(1)) return b;
  if (b->is_const_value(1)) return a;
  if (a->is_const() && b->is_const()) return UOp::index(a->const_value().as_int() * b->const_value().as_int());
  return a * b;
}

}  // namespace

std::string dims_text(const Shape& s) { return shape_str(s); }

std::optional<Shape> symbolic_reshape_dims(const std::string& op, const Shape& old_dims, const Dims& new_shape) {
  if (!has_symbolic_dim(old_dims)) return std::nullopt;
  Dims old;
  for (const UOpRef& d : old_dims) old.push_back(value_of(d));
  for (int64_t d : old)
    if (d == 0) throw ShapeError(op + ": cannot reshape " + dims_text(old_dims) + ": a symbolic dim is 0");
  Shape out;
  for (int64_t d : new_shape) out.push_back(UOp::index(d));
  // Element strides before each axis (products of the dims in front of it).
  auto prefixes = [](const Dims& s) {
    Dims p(s.size() + 1, 1);
    for (size_t k = 0; k < s.size(); k++) p[k + 1] = p[k] * s[k];
    return p;
  };
  Dims po = prefixes(old), pn = prefixes(new_shape);
  std::vector<bool> taken(new_shape.size(), false);
  std::vector<size_t> unmatched;  // symbolic old axes no new axis is
  for (size_t j = 0; j < old.size(); j++) {
    if (old_dims[j]->is_const()) continue;
    bool found = false;
    for (size_t i = 0; i < new_shape.size() && !found; i++)
      if (!taken[i] && pn[i] == po[j] && new_shape[i] == old[j]) {
        out[i] = old_dims[j];
        taken[i] = found = true;
      }
    if (!found) unmatched.push_back(j);
  }
  // A symbolic dim merged with its neighbours: the new axis covering it is the product of the
  // old axes it covers (as long as it covers whole axes).
  for (size_t j : unmatched) {
    size_t i = 0;
    while (i < new_shape.size() && !(pn[i] <= po[j] && po[j + 1] <= pn[i + 1])) i++;
    size_t a = 0, b = old.size();
    if (i < new_shape.size()) {
      while (a < old.size() && po[a] < pn[i]) a++;
      while (b > 0 && po[b] > pn[i + 1]) b--;
    }
    if (i == new_shape.size() || po[a] != pn[i] || po[b] != pn[i + 1])
      throw ShapeError(op + ": cannot reshape " + dims_text(old_dims) + " to " + dims_text(out) + ": the symbolic dim " +
                       dim_text(old_dims[j]) + " would be split");
    UOpRef p = UOp::index(1);
    for (size_t k = a; k < b; k++) p = product(p, old_dims[k]);
    out[i] = p;
    taken[i] = true;
  }
  return out;
}

std::optional<Shape> symbolic_expand_dims(const std::string& op, const Shape& padded_dims, const Dims& target) {
  if (!has_symbolic_dim(padded_dims)) return std::nullopt;
  Shape out;
  for (size_t i = 0; i < target.size(); i++) {
    const UOpRef& d = padded_dims[i];
    if (!d->is_const() && value_of(d) != target[i])
      throw ShapeError(op + ": cannot expand the symbolic dim " + dim_text(d) + " of " + dims_text(padded_dims) +
                       " to " + std::to_string(target[i]));
    out.push_back(d->is_const_value(1) ? UOp::index(target[i]) : d);
  }
  return out;
}

Shape broadcast_dims(const std::string& op, const std::vector<Shape>& shapes) {
  size_t nd = 0;
  for (const Shape& s : shapes) nd = std::max(nd, s.size());
  Shape out(nd, UOp::index(1));
  for (const Shape& s : shapes) {
    size_t off = nd - s.size();
    for (size_t i = 0; i < s.size(); i++) {
      UOpRef& o = out[off + i];
      if (s[i] == o || s[i]->is_const_value(1)) continue;
      int64_t a = value_of(o), b = value_of(s[i]);
      if (o->is_const_value(1) || (a == b && o->is_const())) {
        o = s[i];
        continue;
      }
      if (a == b) continue;
      std::string text;
      for (size_t k = 0; k < shapes.size(); k++)
        text += (k == 0 ? "" : k + 1 == shapes.size() ? " and " : ", ") + dims_text(shapes[k]);
      throw ShapeError(op + ": cannot broadcast shapes " + text);
    }
  }
  return out;
}

}  // namespace onegrad

namespace onegrad {

Tensor Tensor::reshape_symbolic(const Shape& dims) const {
  Shape old = uop_->shape();
  int64_t n = 1, m = 1;
  for (const UOpRef& d : old) n *= value_of(d);
  for (const UOpRef& d : dims) {
    if (d->dtype != dtypes::index) throw ShapeError("reshape: the dim " + d->brief() + " is not an index expression");
    int64_t v = value_of(d);
    if (v < 0) throw ShapeError("reshape: negative dim in " + dims_text(dims));
    m *= v;
  }
  if (n != m)
    throw ShapeError("reshape: cannot reshape " + dims_text(old) + " (" + std::to_string(n) + " elements) to " +
                     dims_text(dims) + " (" + std::to_string(m) + " elements)");
  if (dims == old) return *this;
  // a reshape of a reshape is one reshape: host data put in as (n=5, 16) is RESHAPE(BUFFER), which
  // Callify gives the size expression n*16 (callify.h)
  const UOpRef& base = uop_->op == Ops::RESHAPE ? uop_->src[0] : uop_;
  return Tensor(UOp::create(Ops::RESHAPE, {base, UOp::shape_operand(dims)}), device_);
}

Tensor Tensor::expand_symbolic(const Shape& dims) const {
  Shape s = uop_->shape();
  if (dims.size() < s.size())
    throw ShapeError("expand: cannot expand " + dims_text(s) + " to " + dims_text(dims));
  size_t off = dims.size() - s.size();
  Shape padded(off, UOp::index(1));
  padded.insert(padded.end(), s.begin(), s.end());
  for (size_t i = 0; i < dims.size(); i++)
    if (!padded[i]->is_const_value(1) && padded[i] != dims[i])
      throw ShapeError("expand: cannot expand " + dims_text(s) + " to " + dims_text(dims));
  Tensor r = off ? reshape_symbolic(padded) : *this;
  if (padded == dims) return r;
  return Tensor(UOp::create(Ops::EXPAND, {r.uop_, UOp::shape_operand(dims)}), device_);
}

}  // namespace onegrad
