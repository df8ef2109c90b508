#include "tensor/symbolic_dims.h"

#include "symbolic/simplify.h"
#include "uop/dim_poly.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

UOpRef product(const UOpRef& a, const UOpRef& b) {
  if (a->is_const_value(1)) return b;
  if (b->is_const_value(1)) return a;
  if (a->is_const() && b->is_const()) return UOp::index(a->const_value().as_int() * b->const_value().as_int());
  return a * b;
}

}  // namespace

std::string dim_text(const UOpRef& d) {
  std::string s = shape_str({d});
  s = s.substr(1, s.size() - 3);
  if (d->is_const() || d->op == Ops::PARAM) return s;
  // an expression: its polynomial over the variables, then its value ("n*4=20", "-n + 64=59")
  std::optional<int64_t> v = eval_dim(d.get());
  Substitution unbound;  // the polynomial over the variables, not their values
  for (const UOp* u : d->toposort())
    if (is_bound_variable(u)) unbound[u] = unbind_variable(u->ref());
  UOpRef e = substitute(d, unbound);
  return DimPoly::of(e.get()).str() + (v ? "=" + std::to_string(*v) : "");
}

std::string dims_text(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); i++) out += (i ? ", " : "") + dim_text(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

std::string variables_text(const UOpRef& d) {
  std::string out;
  for (const UOp* u : d->toposort()) {
    if (!is_variable(u) && !is_bound_variable(u)) continue;
    const ParamArg& p = u->arg.get<ParamArg>();
    std::string one = p.name + " in [" + std::to_string(int64_t(p.vmin->as_int())) + ", " +
                      std::to_string(int64_t(p.vmax->as_int())) + "]";
    if (out.find(one) == std::string::npos) out += (out.empty() ? "" : ", ") + one;
  }
  return out.empty() ? "a constant" : out;
}

UOpRef dim_sum(const UOpRef& a, const UOpRef& b) {
  if (a->is_const() && b->is_const()) return UOp::index(int64_t(a->const_value().as_int() + b->const_value().as_int()));
  if (b->is_const_value(0)) return a;
  if (a->is_const_value(0)) return b;
  return simplify(a + b);
}

UOpRef dim_difference(const UOpRef& a, const UOpRef& b) {
  if (a->is_const() && b->is_const()) return UOp::index(int64_t(a->const_value().as_int() - b->const_value().as_int()));
  if (b->is_const_value(0)) return a;
  if (a == b) return UOp::index(0);
  return simplify(a - b);
}

UOpRef dim_product(const UOpRef& a, const UOpRef& b) {
  UOpRef p = product(a, b);
  return p->is_const() || p == a || p == b ? p : simplify(p);
}

UOpRef dim_quotient(const UOpRef& a, const UOpRef& b) {
  if (!b->is_const() || b->const_value().as_int() <= 0)
    throw ShapeError("dim: " + dim_text(a) + " // " + dim_text(b) + ": the divisor must be a number above 0");
  if (a->is_const()) return UOp::index(int64_t(floor_div(a->const_value().as_int(), b->const_value().as_int())));
  return b->is_const_value(1) ? a : simplify(idiv(a, b));
}

int64_t dim_value(const UOpRef& d) {
  std::optional<int64_t> v = eval_dim(d.get());
  if (!v) throw ShapeError("shape: the dim " + dim_text(d) + " has no value (a variable that is not bound)");
  return *v;
}

std::optional<Shape> symbolic_reshape_dims(const std::string& op, const Shape& old_dims, const Dims& new_shape) {
  if (!has_symbolic_dim(old_dims)) return std::nullopt;
  Dims old;
  for (const UOpRef& d : old_dims) old.push_back(dim_value(d));
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
    if (!d->is_const() && dim_value(d) != target[i])
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
      int64_t a = dim_value(o), b = dim_value(s[i]);
      if (o->is_const_value(1) || (a == b && o->is_const())) {
        o = s[i];
        continue;
      }
      if (a == b) {
        // two variables of equal value now may differ at the next: the graph would hold for one pair only
        if (!o->is_const() && !s[i]->is_const() && variables_text(o) != variables_text(s[i]))
          throw ShapeError(op + ": the dims " + dim_text(o) + " and " + dim_text(s[i]) + " must be equal for every value, "
                           "but they are over different variables (" + variables_text(o) + "; " + variables_text(s[i]) + ")");
        continue;
      }
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
  for (const UOpRef& d : old) n *= dim_value(d);
  for (const UOpRef& d : dims) {
    if (d->dtype != dtypes::index) throw ShapeError("reshape: the dim " + d->brief() + " is not an index expression");
    int64_t v = dim_value(d);
    if (v < 0) throw ShapeError("reshape: negative dim in " + dims_text(dims));
    m *= v;
  }
  if (n != m)
    throw ShapeError("reshape: cannot reshape " + dims_text(old) + " (" + std::to_string(n) + " elements) to " +
                     dims_text(dims) + " (" + std::to_string(m) + " elements)");
  if (dims == old) return *this;
  // a reshape of a reshape is one reshape: host data put in as (n=5, 16) is RESHAPE(BUFFER), which
  // Callify gives the size expression n*16 (callify.h)
  // (Kept when this tensor takes part in autograd: a leaf is found by its own node.)
  const UOpRef& base = uop_->op == Ops::RESHAPE && !requires_grad() ? uop_->src[0] : uop_;
  return Tensor(UOp::create(Ops::RESHAPE, {base, UOp::shape_operand(dims)}), device_);
}

Tensor with_static_dims(const Tensor& t) {
  const Shape& dims = t.uop()->shape();
  if (!has_symbolic_dim(dims)) return t;
  Shape values;
  for (const UOpRef& d : dims) values.push_back(UOp::index(dim_value(d)));
  return t.reshape_symbolic(values);
}

Tensor with_values_substituted(const Tensor& t) {
  if (!has_symbolic_dim(t.uop()->shape())) return t;
  Substitution values;
  for (const UOp* u : t.uop()->toposort())
    if (is_bound_variable(u)) values[u] = UOp::index(*u->arg.get<ParamArg>().value);
  return Tensor(substitute(t.uop(), values), t.device());
}

Tensor Tensor::expand_symbolic(const Shape& dims) const {
  Shape s = uop_->shape();
  if (dims.size() < s.size())
    throw ShapeError("expand: cannot expand " + dims_text(s) + " to " + dims_text(dims));
  size_t off = dims.size() - s.size();
  Shape padded(off, UOp::index(1));
  padded.insert(padded.end(), s.begin(), s.end());
  for (size_t i = 0; i < dims.size(); i++) {
    // a number equal to a symbolic dim's value (a tensor an op built from numbers) is read as that
    // dim: the graph is then right for this value only, and its kernels are compiled per value
    if (padded[i]->is_const() && !padded[i]->is_const_value(1) && !dims[i]->is_const() &&
        dim_value(padded[i]) == dim_value(dims[i]))
      padded[i] = dims[i];
    if (!padded[i]->is_const_value(1) && padded[i] != dims[i])
      throw ShapeError("expand: cannot expand " + dims_text(s) + " to " + dims_text(dims));
  }
  Tensor r = off || padded != s ? reshape_symbolic(padded) : *this;
  if (padded == dims) return r;
  return Tensor(UOp::create(Ops::EXPAND, {r.uop_, UOp::shape_operand(dims)}), device_);
}

}  // namespace onegrad
