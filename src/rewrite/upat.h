// UPat: a pattern over UOps. A pattern constrains the op (a set), the dtype (a set), the arg (exact),
// the sources (a list, tried in every order for commutative ops; or any length; or one pattern all
// sources must match), and may name the node it matches: a name seen twice must bind the same
// node. A custom predicate can reject a match. Operators build patterns that read like algebra:
//
//   UPat::var("x") + 0                 ADD(x, CONST 0) in either order
//   idiv(UPat::var("x") * UPat::cvar("c"), UPat::cvar("c"))
//
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

class UPat {
 public:
  struct Data {
    std::vector<Ops> ops;        // empty: any op
    std::vector<DType> dtypes;   // empty: any dtype
    std::optional<Arg> arg;      // exact arg
    std::string name;            // capture name ("" captures nothing)
    std::optional<std::vector<UPat>> src;  // nullopt: sources unconstrained
    bool any_len = false;        // src is a prefix: more sources may follow
    bool repeat = false;         // src holds one pattern every source must match (any count)
    std::function<bool(const UOp&)> predicate;  // extra test on the matched node
    std::optional<double> const_value;  // CONST with this value (ints and floats by value)
    // Try the sources in every order (set by `alu` for commutative ops; ignored with any_len or
    // repeat). Off by default, so `op` keeps the written order.
    bool permute_src = false;
  };

  UPat() : d_(std::make_shared<Data>()) {}  // matches anything
  explicit UPat(Data d) : d_(std::make_shared<Data>(std::move(d))) {}

  // ---- constructors ----
  static UPat any(std::string name = "") { return UPat().named(std::move(name)); }
  static UPat var(std::string name = "", std::vector<DType> dtypes = {});
  // A CONST, optionally with a dtype set.
  static UPat cvar(std::string name = "", std::vector<DType> dtypes = {});
  // A CONST equal to v (compared by value across int and float dtypes).
  static UPat const_(double v);
  // Sources in the written order; no sources written leaves them unconstrained.
  static UPat op(Ops o, std::vector<UPat> src = {}, std::string name = "");
  static UPat ops(std::vector<Ops> os, std::string name = "");
  // An op with sources matched in every order when the op is commutative.
  static UPat alu(Ops o, std::vector<UPat> src, std::string name = "");

  // ---- refinements (each returns a new pattern) ----
  UPat named(std::string name) const;
  UPat with_dtypes(std::vector<DType> dts) const;
  UPat with_arg(Arg a) const;
  UPat with_src(std::vector<UPat> src, bool any_len = false) const;
  UPat with_repeated_src(UPat each) const;  // every source (any number) matches `each`
  UPat where(std::function<bool(const UOp&)> pred) const;

  const Data& data() const { return *d_; }
  // The ops this pattern can match at its root (empty: any). PatternMatcher indexes on this.
  const std::vector<Ops>& root_ops() const { return d_->ops; }
  std::string str() const;  // for traces and error messages

 private:
  std::shared_ptr<const Data> d_;
};

// Patterns read like the math. An int or double operand is a CONST with that value.
UPat operator+(const UPat& a, const UPat& b);
UPat operator*(const UPat& a, const UPat& b);
UPat operator%(const UPat& a, const UPat& b);
UPat operator<(const UPat& a, const UPat& b);
UPat operator-(const UPat& a);  // MUL(a, -1)
UPat operator+(const UPat& a, double b);
UPat operator*(const UPat& a, double b);
UPat operator%(const UPat& a, double b);
UPat operator<(const UPat& a, double b);
UPat idiv(const UPat& a, const UPat& b);
UPat idiv(const UPat& a, double b);
UPat ne(const UPat& a, const UPat& b);
UPat ne(const UPat& a, double b);
UPat maximum(const UPat& a, const UPat& b);
UPat where(const UPat& c, const UPat& a, const UPat& b);
UPat cast(const UPat& a);  // CAST to any dtype
// Additions beyond the first API: literal on the left, and SUB decomposed as uop.cpp builds it.
UPat operator+(double a, const UPat& b);
UPat operator*(double a, const UPat& b);
UPat operator-(const UPat& a, const UPat& b);  // ADD(a, MUL(b, -1))
UPat operator-(const UPat& a, double b);       // ADD(a, CONST -b)

// The result of a successful match: the named captures and the matched root.
class Captures {
 public:
  // The node captured under `name`; InternalError if the pattern had no such name.
  const UOpRef& operator[](const std::string& name) const;
  bool has(const std::string& name) const;
  // Bind name → node; false when the name is already bound to another node.
  bool bind(const std::string& name, const UOpRef& node);
  size_t size() const { return items_.size(); }
  void truncate(size_t n) { items_.resize(n); }
  void clear() { items_.clear(); }
  const std::vector<std::pair<std::string, UOpRef>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, UOpRef>> items_;
};

// Match `pat` against `node`, adding captures to `out`. On failure `out` is left as it was.
bool match(const UPat& pat, const UOpRef& node, Captures& out);

}  // namespace onegrad
