// Argument binding (tir/interpret/bind_arguments.h): the checks of spec 1.ii.4 and 1.ii.5, one function each.
#include "tir/interpret/bind_arguments.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>

#include "tir/interpret/interpret_impl.h"
#include "tir/print/printer.h"

namespace onegrad::tir {

namespace {

std::string dims(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// The bytes [first, last) an array's elements occupy; empty arrays occupy none.
struct ByteRange {
  uintptr_t first = 0, last = 0;
  bool empty() const { return first == last; }
};

// nullopt when the offsets do not fit 64 bits (nonsense extents or strides).
std::optional<ByteRange> bytes_of(const ArrayRef& a, const std::vector<int64_t>& strides) {
  __int128 lo = a.elem_offset, hi = a.elem_offset;
  for (size_t k = 0; k < a.shape.size(); ++k) {
    if (a.shape[k] == 0) return ByteRange{};
    (strides[k] < 0 ? lo : hi) += static_cast<__int128>(a.shape[k] - 1) * strides[k];
  }
  const int64_t s = element_bytes(a.dtype);
  lo *= s;
  hi = (hi + 1) * s;
  if (lo < INT64_MIN || hi > INT64_MAX) return std::nullopt;
  auto base = reinterpret_cast<uintptr_t>(a.data);  // unsigned: a negative offset wraps, as pointers do
  return ByteRange{base + static_cast<uintptr_t>(static_cast<int64_t>(lo)),
                   base + static_cast<uintptr_t>(static_cast<int64_t>(hi))};
}

std::string scalar_text(const Argument& arg) {
  if (const auto* i = std::get_if<int64_t>(&arg)) return std::to_string(*i);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", std::get<double>(arg));
  return buf;
}

class Binder {
 public:
  Binder(const PrimFuncNode& f, std::string name) : f_(f), name_(std::move(name)) {}

  BoundCall bind(const std::vector<Argument>& args) {
    if (args.size() != f_.params.size())
      fail("", "takes " + std::to_string(f_.params.size()) + " arguments, got " + std::to_string(args.size()));
    out_.data.assign(args.size(), nullptr);
    for (size_t i = 0; i < args.size(); ++i)
      if (!std::holds_alternative<ArrayRef>(args[i])) bind_scalar(i, args[i]);
    for (size_t i = 0; i < args.size(); ++i)
      if (const auto* a = std::get_if<ArrayRef>(&args[i])) bind_array(i, *a);
    for (const Deferred& d : deferred_) check(d.param, d.declared, d.actual, d.what);
    check_no_overlap();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& parameter, const std::string& what) const {
    throw TirArgumentError(name_, parameter, what, f_.loc.line);
  }

  void bind_scalar(size_t i, const Argument& arg) {
    const Var& p = f_.params[i];
    if (f_.buffer_of(p) || p->dtype.is_handle())
      fail(label(i), "takes an array, got the scalar " + scalar_text(arg));
    RuntimeValue v = std::holds_alternative<int64_t>(arg) ? RuntimeValue::of_int(DataType::int_(64), std::get<int64_t>(arg))
                                                          : RuntimeValue::of_float(DataType::float_(64), std::get<double>(arg));
    out_.vars[p.get()] = cast_value(v, p->dtype);
  }

  void bind_array(size_t i, const ArrayRef& a) {
    const Var& p = f_.params[i];
    Buffer b = f_.buffer_of(p);
    if (!b && !p->dtype.is_handle()) fail(label(i), "is a scalar of " + p->dtype.name() + ", got an array");
    std::vector<int64_t> strides = a.strides.empty() ? compact_strides(a.shape) : a.strides;
    if (strides.size() != a.shape.size())
      fail(label(i), "the array has " + std::to_string(a.shape.size()) + " dimensions but " +
                         std::to_string(a.strides.size()) + " strides");
    for (size_t k = 0; k < a.shape.size(); ++k)
      if (a.shape[k] < 0) fail(label(i), "dimension " + std::to_string(k) + " of the array is " + std::to_string(a.shape[k]));
    std::optional<ByteRange> bytes = bytes_of(a, strides);
    if (!bytes) fail(label(i), "the array's shape " + dims(a.shape) + " and strides " + dims(strides) +
                                   " reach beyond 64-bit byte offsets");
    if (b) match(label(i), *b, a, strides);
    if (!a.data && !bytes->empty()) fail(label(i), "the array's data pointer is null");
    const RuntimeValue handle =
        RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.data)));
    if (b) share_data(i, *b, a);
    out_.data[i] = a.data;
    out_.vars[p.get()] = handle;
    if (b) out_.vars[b->data.get()] = handle;
    arrays_.push_back({label(i), *bytes, b ? b->data.get() : nullptr});
  }

  // `B = T.match_buffer(b, ..., data=A.data)`: two buffer parameters over one data Var. TVM's
  // ArgBinder binds the Var from the first array and asserts that the second array's data pointer is
  // the same ("Argument b.data has an unsatisfied constraint"); the two arrays then share memory
  // by declaration, so the no-aliasing rule leaves that pair alone.
  void share_data(size_t i, const BufferNode& b, const ArrayRef& a) {
    auto [owner, first] = data_owners_.try_emplace(b.data.get(), DataOwner{b.name, a.data});
    if (first || owner->second.pointer == a.data) return;
    fail(label(i), "its array's data pointer is 0x" + hex(reinterpret_cast<uintptr_t>(a.data)) + " but the buffer shares buffer " +
                       owner->second.buffer + "'s data (data=" + owner->second.buffer + ".data), whose array starts at 0x" +
                       hex(reinterpret_cast<uintptr_t>(owner->second.pointer)));
  }

  // Spec 1.ii.4: the array against the buffer's declaration.
  void match(const std::string& param, const BufferNode& b, const ArrayRef& a, const std::vector<int64_t>& strides) {
    if (a.dtype != b.dtype) fail(param, "the buffer holds " + b.dtype.name() + ", the array " + a.dtype.name());
    if (a.shape.size() != b.shape.size())
      fail(param, "the buffer has " + std::to_string(b.shape.size()) + " dimensions, the array " +
                      std::to_string(a.shape.size()) + " (shape " + dims(a.shape) + ")");
    for (size_t k = 0; k < a.shape.size(); ++k) bind_or_check(param, b.shape[k], a.shape[k], "dimension " + std::to_string(k));
    const std::vector<int64_t> compact = compact_strides(a.shape);
    if (b.strides.empty()) {
      for (size_t k = 0; k < a.shape.size(); ++k)
        if (a.shape[k] != 1 && strides[k] != compact[k])
          fail(param, "the buffer is compact row-major but the array's strides are " + dims(strides) + " (compact: " +
                          dims(compact) + ")");
    } else if (b.strides.size() != strides.size()) {
      fail(param, "the buffer declares " + std::to_string(b.strides.size()) + " strides, the array has " +
                      std::to_string(strides.size()));
    } else {
      for (size_t k = 0; k < strides.size(); ++k) bind_or_check(param, b.strides[k], strides[k], "stride " + std::to_string(k));
    }
    bind_or_check(param, b.elem_offset, a.elem_offset, "elem_offset");
  }

  // A declared field against the array's value: a literal or bound Var must equal it, an unbound
  // Var is bound to it (when its dtype can hold it). Any other expression (`n * 2`) is checked once
  // every array is bound, so it may use Vars that later parameters bind (as TVM's asserts do).
  void bind_or_check(const std::string& param, const PrimExpr& declared, int64_t actual, const std::string& what) {
    if (!declared) {  // no elem_offset: the buffer starts at its data pointer
      if (actual != 0) fail(param, what + " is " + std::to_string(actual) + " but the buffer declares none (0)");
      return;
    }
    if (const auto* v = declared->as<VarNode>(); v && !out_.vars.count(v)) {
      if (v->dtype.is_float() || !v->dtype.is_scalar() || wrap_int(actual, v->dtype) != actual)
        fail(param, what + " is " + std::to_string(actual) + ", which " + v->name_hint + " (" + v->dtype.name() +
                        ") cannot hold");
      out_.vars[v] = RuntimeValue::of_int(v->dtype, actual);
      return;
    }
    if (declared->as<IntImmNode>() || declared->as<VarNode>()) check(param, declared, actual, what);
    else deferred_.push_back({param, declared, actual, what});
  }

  void check(const std::string& param, const PrimExpr& declared, int64_t actual, const std::string& what) {
    int64_t expected = 0;
    try {
      expected = evaluate_int(declared, out_.vars);
    } catch (const TirRuntimeError& e) {
      fail(param, what + " is declared as " + print_expr(declared) + ", which the arguments do not determine (" +
                      e.what_only + ")");
    }
    if (expected == actual) return;
    const bool literal = declared->as<IntImmNode>() != nullptr;
    fail(param, what + " is " + std::to_string(actual) + " but the buffer declares " +
                    (literal ? std::to_string(expected) : print_expr(declared) + " = " + std::to_string(expected)));
  }

  // Spec 1.ii.5: no two array arguments may alias.
  void check_no_overlap() const {
    for (size_t i = 0; i < arrays_.size(); ++i)
      for (size_t j = i + 1; j < arrays_.size(); ++j) {
        const ByteRange &x = arrays_[i].bytes, &y = arrays_[j].bytes;
        if (x.empty() || y.empty() || x.last <= y.first || y.last <= x.first) continue;
        if (arrays_[i].data && arrays_[i].data == arrays_[j].data) continue;  // declared to share (share_data)
        fail(arrays_[i].param, "its array overlaps the array of " + arrays_[j].param + " (bytes [0x" + hex(x.first) +
                                   ", 0x" + hex(x.last) + ") and [0x" + hex(y.first) + ", 0x" + hex(y.last) +
                                   ")): array arguments must not alias");
      }
  }

  static std::string hex(uintptr_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
    return buf;
  }

  std::string label(size_t i) const { return parameter_label(f_, i); }

  struct Deferred {
    std::string param;
    PrimExpr declared;
    int64_t actual;
    std::string what;
  };
  struct ArrayArgument {
    std::string param;
    ByteRange bytes;
    const VarNode* data;  // the buffer's data Var, if a buffer
  };
  struct DataOwner {
    std::string buffer;
    void* pointer;
  };
  std::unordered_map<const VarNode*, DataOwner> data_owners_;
  const PrimFuncNode& f_;
  const std::string name_;
  BoundCall out_;
  std::vector<ArrayArgument> arrays_;
  std::vector<Deferred> deferred_;
};

}  // namespace

BoundCall bind_arguments(const PrimFuncNode& f, const std::vector<Argument>& args, const std::string& name) {
  return Binder(f, function_label(f, name)).bind(args);
}

std::string parameter_label(const PrimFuncNode& f, size_t i) {
  const Var& p = f.params.at(i);
  Buffer b = f.buffer_of(p);
  if (!b) return "parameter " + p->name_hint;
  // A `A: T.Buffer(...)` parameter is a handle the parser names A_handle: not the user's name.
  const bool own_name = p->name_hint != b->name && p->name_hint != b->name + "_handle";
  return "buffer " + b->name + (own_name ? " (parameter " + p->name_hint + ")" : "");
}

std::string function_label(const PrimFuncNode& f, const std::string& name) {
  if (!name.empty()) return name;
  for (const auto& [key, value] : f.attrs)
    if (key == "global_symbol" && value.expr && value.expr->kind == ExprKind::StringImm)
      return value.expr->as<StringImmNode>()->value;
  return "the PrimFunc at line " + std::to_string(f.loc.line);
}

}  // namespace onegrad::tir
