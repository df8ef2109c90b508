// The UOp: the one node type of the dialect. A node is (op, dtype, src, arg, tag); identical nodes
// are the same object (hash-consed in a thread-safe intern table whose entries die with their last
// reference), so structural equality is pointer equality. Nodes never change after creation.
//
// Derived properties (shape, device, addrspace, min_max, axis) follow the spec's table (see
// properties.cpp), are computed on first use without recursion and memoized on the node.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "uop/arg.h"
#include "uop/const_value.h"
#include "uop/dtype.h"
#include "uop/ops.h"

namespace onegrad {

class UOp;

// A counted reference to an interned UOp. Copying is cheap (an atomic increment); the node and
// its intern-table entry go away with the last reference. Destruction is iterative, so dropping
// the root of a million-node chain does not overflow the stack.
class UOpRef {
 public:
  UOpRef() = default;
  UOpRef(std::nullptr_t) {}  // NOLINT
  UOpRef(const UOpRef& o);
  UOpRef(UOpRef&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  UOpRef& operator=(const UOpRef& o);
  UOpRef& operator=(UOpRef&& o) noexcept;
  ~UOpRef();

  const UOp* get() const { return p_; }
  const UOp* operator->() const { return p_; }
  const UOp& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const UOpRef& o) const { return p_ == o.p_; }
  bool operator==(std::nullptr_t) const { return p_ == nullptr; }
  bool operator==(const UOp* o) const { return p_ == o; }

  // Adopt a pointer whose count was already incremented for us.
  static UOpRef adopt(const UOp* p) {
    UOpRef r;
    r.p_ = p;
    return r;
  }
  // Take a new reference to a live node (one reachable through another reference).
  static UOpRef share(const UOp* p);

 private:
  const UOp* p_ = nullptr;
};

// A shape is a tuple of index-typed UOps: CONSTs for static dims, any index expression (over
// named PARAMs with bounds) for symbolic dims.
using Shape = std::vector<UOpRef>;

// The memoized derived properties of one node.
struct UOpProps {
  bool has_shape = false;   // false for ops without a shape (TUPLE, FUNCTION) and on error
  Shape shape;
  std::string shape_error;  // why shape inference failed (empty when it did not)
  Device device;
  std::optional<AddrSpace> addrspace;
  ConstValue vmin, vmax;
  std::optional<int64_t> axis;
};

class UOp {
 public:
  const Ops op;
  const DType dtype;
  const std::vector<UOpRef> src;
  const Arg arg;
  const std::optional<int64_t> tag;

  // Create (or find) the node. The first form infers dtype from the spec's table and throws
  // DTypeError where the table has no answer (CONST needs an explicit dtype, for example).
  static UOpRef create(Ops op, std::vector<UOpRef> src = {}, Arg arg = {});
  static UOpRef create(Ops op, DType dtype, std::vector<UOpRef> src = {}, Arg arg = {},
                       std::optional<int64_t> tag = std::nullopt);

  // ---- common constructors ----
  static UOpRef const_(DType dtype, ConstValue v);  // v is cast to dtype
  static UOpRef const_int(DType dtype, i128 v) { return const_(dtype, ConstValue::from_int(v)); }
  static UOpRef const_float(DType dtype, double v) { return const_(dtype, ConstValue::from_float(v)); }
  static UOpRef const_bool(bool v) { return const_(dtypes::bool_, ConstValue::from_bool(v)); }
  static UOpRef index(i128 v) { return const_int(dtypes::index, v); }
  // A symbolic variable: a named PARAM of shape () with bounds [lo, hi].
  static UOpRef variable(std::string name, i128 lo, i128 hi, DType dtype = dtypes::index);
  // A shape operand (the s', o of movement ops): STACK of index dims, of shape (len(dims),).
  static UOpRef shape_operand(const Shape& dims);
  static UOpRef shape_operand(std::span<const int64_t> dims);
  static UOpRef range(const UOpRef& bound, int64_t id, AxisType type = AxisType::LOOP);
  static UOpRef range(int64_t bound, int64_t id, AxisType type = AxisType::LOOP) {
    return range(index(bound), id, type);
  }
  // An elementwise op; dtype follows the table (comparisons give bool, WHERE takes src[1]'s).
  static UOpRef alu(Ops op, std::vector<UOpRef> src) { return create(op, std::move(src)); }

  // Same op/dtype/arg/tag with new sources; same op/src/arg/tag with another dtype or tag.
  UOpRef with_src(std::vector<UOpRef> new_src) const;
  UOpRef with_dtype(DType dt) const;
  UOpRef with_tag(std::optional<int64_t> t) const;
  UOpRef with_arg(Arg a) const;
  UOpRef ref() const { return UOpRef::share(this); }

  // ---- derived properties (spec: Derived Properties) ----
  const UOpProps& props() const;
  bool has_shape() const { return props().has_shape; }
  const Shape& shape() const;  // throws ShapeError (op, rule, shapes) when there is none
  size_t ndim() const { return shape().size(); }
  // The shape as integers when every dim is a CONST; nullopt when a dim is symbolic.
  std::optional<std::vector<int64_t>> static_shape() const;
  const Device& device() const { return props().device; }
  std::optional<AddrSpace> addrspace() const { return props().addrspace; }
  const ConstValue& vmin() const { return props().vmin; }
  const ConstValue& vmax() const { return props().vmax; }
  std::optional<int64_t> axis() const { return props().axis; }

  // ---- queries ----
  bool is_const() const { return op == Ops::CONST; }
  // The CONST's value (InternalError on another op).
  const ConstValue& const_value() const { return arg.get<ConstValue>(); }
  // Whether this is a CONST equal to v (ints and floats compare by value).
  bool is_const_value(double v) const;
  uint64_t hash() const { return hash_; }
  // Every node reachable from this one, sources before users (iterative).
  std::vector<const UOp*> toposort() const;
  // The same, descending into a node's sources only where `enter(node)` holds (the node itself
  // is still listed): e.g. a kernel's nodes without the shape operands below its PARAMs.
  std::vector<const UOp*> toposort(const std::function<bool(const UOp&)>& enter) const;
  // Whether the graph under this node (itself included) holds a tagged AFTER (the tensor layer's
  // index checks) or a FUNCTION: set at creation from the sources, so passes that only matter when
  // one is present skip the walk in O(1).
  bool holds_tagged_after() const { return holds_ & kHoldsTaggedAfter; }
  bool holds_function() const { return holds_ & kHoldsFunction; }
  // A short one-line description for messages: "ADD(index, shape (4, 3))".
  std::string brief() const;

  // Number of live interned nodes (for leak tests and benchmarks).
  static size_t live_count();
  // Nodes are numbered in creation order: a node made after serial_watermark() returned w has
  // serial() >= w. graph_rewrite uses it to tell a graph's own nodes from those its rules made.
  uint64_t serial() const { return serial_; }
  static uint64_t serial_watermark();

  UOp(const UOp&) = delete;
  UOp& operator=(const UOp&) = delete;

 private:
  friend class UOpRef;
  friend struct InternTable;
  UOp(Ops op, DType dtype, std::vector<UOpRef> src, Arg arg, std::optional<int64_t> tag, uint64_t hash);
  ~UOp();
  const UOpProps& compute_props() const;

  static constexpr uint8_t kHoldsTaggedAfter = 1, kHoldsFunction = 2;
  uint64_t hash_;
  uint64_t serial_;
  uint8_t holds_;
  mutable std::atomic<int32_t> refcount_{1};
  mutable std::atomic<const UOpProps*> props_{nullptr};
};

// dtype of `op` over `src` with `arg` per the spec's table; nullopt where the table needs an
// explicit dtype. Used by UOp::create and by the verifier.
std::optional<DType> infer_dtype(Ops op, std::span<const UOpRef> src, const Arg& arg);

// Shape text for messages: "(4, 3)", "(n, 3)".
std::string shape_str(const Shape& s);

// ---- operators, so code building index math reads like the math ----
// Integer and float literals become CONSTs of the other operand's dtype.
UOpRef operator+(const UOpRef& a, const UOpRef& b);
UOpRef operator-(const UOpRef& a, const UOpRef& b);  // ADD(a, MUL(b, -1)): SUB decomposed
UOpRef operator*(const UOpRef& a, const UOpRef& b);
UOpRef operator%(const UOpRef& a, const UOpRef& b);
UOpRef operator<(const UOpRef& a, const UOpRef& b);
UOpRef operator-(const UOpRef& a);  // MUL(a, -1)
UOpRef operator+(const UOpRef& a, int64_t b);
UOpRef operator-(const UOpRef& a, int64_t b);
UOpRef operator*(const UOpRef& a, int64_t b);
UOpRef operator%(const UOpRef& a, int64_t b);
UOpRef operator<(const UOpRef& a, int64_t b);
UOpRef operator+(int64_t a, const UOpRef& b);
UOpRef operator*(int64_t a, const UOpRef& b);
UOpRef idiv(const UOpRef& a, const UOpRef& b);  // floor division (spec: IDIV)
UOpRef idiv(const UOpRef& a, int64_t b);
UOpRef ne(const UOpRef& a, const UOpRef& b);
UOpRef ne(const UOpRef& a, int64_t b);
UOpRef eq(const UOpRef& a, const UOpRef& b);  // CMPNE(CMPNE(a, b), 1): CMPEQ decomposed
UOpRef maximum(const UOpRef& a, const UOpRef& b);
UOpRef minimum(const UOpRef& a, const UOpRef& b);  // -max(-a, -b)
UOpRef where(const UOpRef& c, const UOpRef& a, const UOpRef& b);
UOpRef cast(const UOpRef& a, DType dt);
// A literal of `like`'s dtype.
UOpRef literal(const UOpRef& like, int64_t v);

}  // namespace onegrad

template <>
struct std::hash<onegrad::UOpRef> {
  size_t operator()(const onegrad::UOpRef& r) const { return std::hash<const void*>{}(r.get()); }
};
