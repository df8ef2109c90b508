// Building UPats: constructors, refinements, the algebra operators and the printed form. Matching
// lives in match.cpp.
#include "rewrite/upat.h"

#include <cmath>
#include <sstream>

namespace onegrad {

// ---- constructors ----------------------------------------------------------------------------

UPat UPat::var(std::string name, std::vector<DType> dtypes) {
  Data d;
  d.name = std::move(name);
  d.dtypes = std::move(dtypes);
  return UPat(std::move(d));
}

UPat UPat::cvar(std::string name, std::vector<DType> dtypes) {
  Data d;
  d.ops = {Ops::CONST};
  d.name = std::move(name);
  d.dtypes = std::move(dtypes);
  return UPat(std::move(d));
}

UPat UPat::const_(double v) {
  Data d;
  d.ops = {Ops::CONST};
  d.const_value = v;
  return UPat(std::move(d));
}

UPat UPat::op(Ops o, std::vector<UPat> src, std::string name) {
  Data d;
  d.ops = {o};
  d.name = std::move(name);
  // No sources written means "any sources", so UPat::op(Ops::RANGE) matches every RANGE.
  if (!src.empty()) d.src = std::move(src);
  return UPat(std::move(d));
}

UPat UPat::ops(std::vector<Ops> os, std::string name) {
  Data d;
  d.ops = std::move(os);
  d.name = std::move(name);
  return UPat(std::move(d));
}

UPat UPat::alu(Ops o, std::vector<UPat> src, std::string name) {
  Data d;
  d.ops = {o};
  d.name = std::move(name);
  d.src = std::move(src);
  d.permute_src = is_commutative(o);
  return UPat(std::move(d));
}

// ---- refinements -----------------------------------------------------------------------------

UPat UPat::named(std::string name) const {
  Data d = *d_;
  d.name = std::move(name);
  return UPat(std::move(d));
}

UPat UPat::with_dtypes(std::vector<DType> dts) const {
  Data d = *d_;
  d.dtypes = std::move(dts);
  return UPat(std::move(d));
}

UPat UPat::with_arg(Arg a) const {
  Data d = *d_;
  d.arg = std::move(a);
  return UPat(std::move(d));
}

UPat UPat::with_src(std::vector<UPat> src, bool any_len) const {
  Data d = *d_;
  d.src = std::move(src);
  d.any_len = any_len;
  d.repeat = false;
  return UPat(std::move(d));
}

UPat UPat::with_repeated_src(UPat each) const {
  Data d = *d_;
  d.src = std::vector<UPat>{std::move(each)};
  d.any_len = false;
  d.repeat = true;
  return UPat(std::move(d));
}

UPat UPat::where(std::function<bool(const UOp&)> pred) const {
  Data d = *d_;
  if (d.predicate) {
    // Refining twice keeps both tests: the earlier one first.
    d.predicate = [first = std::move(d.predicate), second = std::move(pred)](const UOp& u) {
      return first(u) && second(u);
    };
  } else {
    d.predicate = std::move(pred);
  }
  return UPat(std::move(d));
}

// ---- printed form ----------------------------------------------------------------------------

namespace {

std::string number_text(double v) {
  std::ostringstream os;
  if (std::floor(v) == v && std::fabs(v) < 1e15) os << int64_t(v);
  else os << v;
  return os.str();
}

}  // namespace

std::string UPat::str() const {
  const Data& d = *d_;
  std::string out;
  if (d.const_value) {
    out = "CONST " + number_text(*d.const_value);
  } else if (d.ops.empty()) {
    out = "any";
  } else if (d.ops.size() == 1) {
    out = std::string(op_name(d.ops[0]));
  } else {
    out = "{";
    for (size_t i = 0; i < d.ops.size(); i++) out += (i ? "|" : "") + std::string(op_name(d.ops[i]));
    out += "}";
  }
  if (!d.name.empty()) out += " " + d.name;
  if (!d.dtypes.empty()) {
    out += " :";
    for (size_t i = 0; i < d.dtypes.size(); i++) out += (i ? "|" : "") + d.dtypes[i].name();
  }
  if (d.arg) out += " [arg]";
  if (d.predicate) out += " [if]";
  if (d.src) {
    out += d.permute_src ? "{" : "(";
    if (d.repeat) out += "each ";
    for (size_t i = 0; i < d.src->size(); i++) out += (i ? ", " : "") + (*d.src)[i].str();
    if (d.any_len) out += ", ...";
    out += d.permute_src ? "}" : ")";
  }
  return out;
}

// ---- operators -------------------------------------------------------------------------------

UPat operator+(const UPat& a, const UPat& b) { return UPat::alu(Ops::ADD, {a, b}); }
UPat operator*(const UPat& a, const UPat& b) { return UPat::alu(Ops::MUL, {a, b}); }
UPat operator%(const UPat& a, const UPat& b) { return UPat::alu(Ops::MOD, {a, b}); }
UPat operator<(const UPat& a, const UPat& b) { return UPat::alu(Ops::CMPLT, {a, b}); }
// Negation is MUL by -1 because that is how uop.cpp builds it (there is no NEG after decomposition).
UPat operator-(const UPat& a) { return a * -1.0; }
UPat operator+(const UPat& a, double b) { return a + UPat::const_(b); }
UPat operator*(const UPat& a, double b) { return a * UPat::const_(b); }
UPat operator%(const UPat& a, double b) { return a % UPat::const_(b); }
UPat operator<(const UPat& a, double b) { return a < UPat::const_(b); }
UPat operator+(double a, const UPat& b) { return UPat::const_(a) + b; }
UPat operator*(double a, const UPat& b) { return UPat::const_(a) * b; }
UPat operator-(const UPat& a, const UPat& b) { return a + -b; }
UPat operator-(const UPat& a, double b) { return a + -b; }
UPat idiv(const UPat& a, const UPat& b) { return UPat::alu(Ops::IDIV, {a, b}); }
UPat idiv(const UPat& a, double b) { return idiv(a, UPat::const_(b)); }
UPat ne(const UPat& a, const UPat& b) { return UPat::alu(Ops::CMPNE, {a, b}); }
UPat ne(const UPat& a, double b) { return ne(a, UPat::const_(b)); }
UPat maximum(const UPat& a, const UPat& b) { return UPat::alu(Ops::MAX, {a, b}); }
UPat where(const UPat& c, const UPat& a, const UPat& b) { return UPat::alu(Ops::WHERE, {c, a, b}); }
UPat cast(const UPat& a) { return UPat::op(Ops::CAST, {a}); }

}  // namespace onegrad
