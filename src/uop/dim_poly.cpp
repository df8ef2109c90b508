#include "uop/dim_poly.h"

#include "uop/variable.h"

#include <algorithm>
#include <unordered_map>

namespace onegrad {

namespace {

// A product of many sums grows fast; past this many terms the node is kept as an atom.
constexpr size_t kMaxTerms = 64;

struct Bounds {
  i128 lo, hi;
};

Bounds mul_bounds(Bounds a, Bounds b) {
  i128 p[4] = {sat_mul(a.lo, b.lo), sat_mul(a.lo, b.hi), sat_mul(a.hi, b.lo), sat_mul(a.hi, b.hi)};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

Bounds monomial_bounds(const DimPoly::Monomial& m) {
  Bounds b{1, 1};
  for (const UOp* a : m) {
    const ConstValue &lo = a->vmin(), &hi = a->vmax();
    b = mul_bounds(b, {lo.as_int(), hi.as_int()});
  }
  return b;
}

std::string atom_str(const UOp* a) {
  if (const auto* p = a->arg.get_if<ParamArg>(); p && a->op == Ops::PARAM && !p->name.empty()) return p->name;
  return std::string(op_name(a->op)) + "(...)";
}

}  // namespace

DimPoly DimPoly::constant(i128 c) {
  DimPoly p;
  p.add_term({}, c);
  return p;
}

void DimPoly::add_term(const Monomial& m, i128 c) {
  if (c == 0) return;
  auto [it, fresh] = terms_.try_emplace(m, c);
  if (!fresh) {
    it->second = sat_add(it->second, c);
    if (it->second == 0) terms_.erase(it);
  }
}

DimPoly DimPoly::operator+(const DimPoly& o) const {
  DimPoly r = *this;
  for (const auto& [m, c] : o.terms_) r.add_term(m, c);
  return r;
}

DimPoly DimPoly::operator-(const DimPoly& o) const {
  DimPoly r = *this;
  for (const auto& [m, c] : o.terms_) r.add_term(m, -c);
  return r;
}

DimPoly DimPoly::operator*(const DimPoly& o) const {
  DimPoly r;
  for (const auto& [m1, c1] : terms_)
    for (const auto& [m2, c2] : o.terms_) {
      Monomial m;
      std::merge(m1.begin(), m1.end(), m2.begin(), m2.end(), std::back_inserter(m));
      r.add_term(m, sat_mul(c1, c2));
    }
  return r;
}

DimPoly DimPoly::of(const UOp* e) {
  std::unordered_map<const UOp*, DimPoly> done;
  auto atom = [](const UOp* n) {
    DimPoly p;
    p.add_term({n}, 1);
    return p;
  };
  for (const UOp* n : e->toposort()) {
    auto at = [&](size_t i) -> const DimPoly& { return done.at(n->src[i].get()); };
    DimPoly p;
    bool ints = n->dtype.is_int();  // float math is not a ring: keep it opaque
    if (n->op == Ops::CONST && n->const_value().is_int()) p = constant(n->const_value().as_int());
    // a bound variable is its value in the tensor graph it is bound in (a reshape of 80 elements to
    // (n=5, 16) is checked with 5)
    else if (is_bound_variable(n)) p = constant(*n->arg.get<ParamArg>().value);
    else if (ints && n->op == Ops::ADD && n->src.size() == 2) p = at(0) + at(1);
    else if (ints && n->op == Ops::SUB && n->src.size() == 2) p = at(0) - at(1);
    else if (ints && n->op == Ops::NEG && n->src.size() == 1) p = constant(0) - at(0);
    else if (ints && n->op == Ops::MUL && n->src.size() == 2) {
      p = at(0) * at(1);
      if (p.num_terms() > kMaxTerms) p = atom(n);
    } else {
      p = atom(n);
    }
    done.emplace(n, std::move(p));
  }
  return done.at(e);
}

bool DimPoly::is_constant() const { return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty()); }

i128 DimPoly::constant_term() const {
  auto it = terms_.find(Monomial{});
  return it == terms_.end() ? 0 : it->second;
}

i128 DimPoly::lower_bound() const {
  i128 lo = 0;
  for (const auto& [m, c] : terms_) {
    Bounds b = mul_bounds(monomial_bounds(m), {c, c});
    lo = sat_add(lo, b.lo);
  }
  return lo;
}

i128 DimPoly::upper_bound() const {
  i128 hi = 0;
  for (const auto& [m, c] : terms_) {
    Bounds b = mul_bounds(monomial_bounds(m), {c, c});
    hi = sat_add(hi, b.hi);
  }
  return hi;
}

std::string DimPoly::str() const {
  if (terms_.empty()) return "0";
  std::vector<std::pair<std::string, i128>> parts;  // (monomial text, coefficient)
  for (const auto& [m, c] : terms_) {
    std::vector<std::string> names;
    for (const UOp* a : m) names.push_back(atom_str(a));
    std::sort(names.begin(), names.end());
    std::string t;
    for (const std::string& n : names) t += (t.empty() ? "" : "*") + n;
    parts.emplace_back(t, c);
  }
  // symbolic terms first, the constant last: "4*n + 3"
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
    if (a.first.empty() != b.first.empty()) return b.first.empty();
    return a.first < b.first;
  });
  std::string out;
  for (const auto& [t, c] : parts) {
    i128 mag = c < 0 ? -c : c;
    if (out.empty()) out += c < 0 ? "-" : "";
    else out += c < 0 ? " - " : " + ";
    if (t.empty()) out += i128_to_string(mag);
    else out += (mag == 1 ? "" : i128_to_string(mag) + "*") + t;
  }
  return out;
}

}  // namespace onegrad
