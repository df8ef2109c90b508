#include "tir/interpret/random_args.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "tir/interpret/array_walk.h"
#include "tir/interpret/interpret_memory.h"
#include "tir/print/printer.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform_pm1() { return static_cast<double>(next() >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

int64_t SplitMix64::integer(int64_t lo, int64_t hi) {
  uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + next() % span);
}

namespace {

// Names of the Vars an expression uses, in the order met.
struct VarNames : IRVisitor {
  std::vector<std::string> names;
  void visit_expr(const PrimExpr& e) override {
    if (!e) return;
    if (const auto* v = e->as<VarNode>())
      if (std::find(names.begin(), names.end(), v->name_hint) == names.end()) names.push_back(v->name_hint);
    IRVisitor::visit_expr(e);
  }
};

// The Vars of a buffer's shape, of its strides, and of its elem_offset.
struct BufferVars {
  std::vector<std::string> shape, strides, elem_offset;
};

BufferVars buffer_vars(const BufferNode& b) {
  BufferVars out;
  auto names_of = [](const std::vector<PrimExpr>& exprs) {
    VarNames v;
    for (const PrimExpr& e : exprs) v.visit_expr(e);
    return v.names;
  };
  out.shape = names_of(b.shape);
  out.strides = names_of(b.strides);
  out.elem_offset = names_of({b.elem_offset});
  return out;
}

// A bare Var: the value an array gives it is its own.
const VarNode* bare_var(const PrimExpr& e) { return e ? e->as<VarNode>() : nullptr; }

class ArgumentMaker {
 public:
  ArgumentMaker(const PrimFuncNode& f, const RandomArgumentOptions& opts) : f_(f), opts_(opts), rng_(opts.seed) {}

  RandomArguments make() {
    check_names();
    // Extents and scalars first, then elem_offsets, then strides (their default needs the shapes).
    for (const Var& p : f_.params) {
      if (Buffer b = f_.buffer_of(p)) {
        for (const std::string& n : buffer_vars(*b).shape) assign(n, extent_default());
      } else {
        scalar_param(p);
      }
    }
    for (const Var& p : f_.params)
      if (Buffer b = f_.buffer_of(p))
        for (const std::string& n : buffer_vars(*b).elem_offset) assign(n, int64_t{0});
    for (const Var& p : f_.params) {
      Buffer b = f_.buffer_of(p);
      if (b) {
        out_.args.emplace_back(array_for(*b));
        data_storage_.at(b->data.get()).args.push_back(out_.args.size() - 1);
      } else {
        const ScalarSetting& v = values_.at(p->name_hint);
        if (p->dtype.is_float()) out_.args.emplace_back(as_double(v));
        else out_.args.emplace_back(std::get<int64_t>(v));
      }
    }
    return std::move(out_);
  }

 private:
  void check_names() {
    std::vector<std::string> known = settable_variables(f_);
    for (const auto& [name, value] : opts_.vars) {
      if (std::find(known.begin(), known.end(), name) != known.end()) continue;
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw RandomArgsError("unknown variable '" + name + "' (" +
                             (known.empty() ? std::string("the function has no variables to set")
                                            : "the function's variables: " + list) + ")");
    }
  }

  ScalarSetting extent_default() const { return opts_.default_extent; }
  static double as_double(const ScalarSetting& v) {
    return std::holds_alternative<double>(v) ? std::get<double>(v) : static_cast<double>(std::get<int64_t>(v));
  }

  // Gives `name` its --var value, else `fallback`, once; records it for printing.
  void assign(const std::string& name, ScalarSetting fallback) {
    if (values_.count(name)) return;
    auto given = opts_.vars.find(name);
    ScalarSetting v = given != opts_.vars.end() ? given->second : fallback;
    values_[name] = v;
    out_.values.emplace_back(name, v);
  }

  static void check_fits(const std::string& name, int64_t value, DataType t) {
    if (t.is_integer() && !t.is_bool() && wrap_int(value, t) != value)
      throw RandomArgsError("variable " + name + " is " + t.name() + ": " + std::to_string(value) + " does not fit");
  }

  void scalar_param(const Var& p) {
    const std::string& name = p->name_hint;
    if (p->dtype.is_handle())
      throw RandomArgsError("parameter " + name + " is a handle without a buffer: no argument can be made for it");
    auto given = opts_.vars.find(name);
    if (given != opts_.vars.end() && std::holds_alternative<double>(given->second) && !p->dtype.is_float())
      throw RandomArgsError("variable " + name + " is " + p->dtype.name() + ", not a float");
    if (given != opts_.vars.end() && std::holds_alternative<int64_t>(given->second))
      check_fits(name, std::get<int64_t>(given->second), p->dtype);
    if (p->dtype.is_bool()) assign(name, int64_t{1});
    else if (p->dtype.is_float()) assign(name, static_cast<double>(opts_.default_extent));
    else assign(name, extent_default());
  }

  int64_t eval(const PrimExpr& e, const std::string& what) const {
    if (const IntImmNode* imm = as_int_imm(e)) return imm->value;
    if (const auto* v = e->as<VarNode>()) {
      auto it = values_.find(v->name_hint);
      if (it == values_.end())
        throw RandomArgsError(what + " uses " + v->name_hint + ", which no argument gives a value");
      if (std::holds_alternative<double>(it->second))
        throw RandomArgsError(what + " uses " + v->name_hint + ", which is a float");
      int64_t value = std::get<int64_t>(it->second);
      check_fits(v->name_hint, value, v->dtype);
      return value;
    }
    if (const auto* c = e->as<CastNode>()) return eval(c->value, what);
    if (const auto* b = e->as<BinaryNode>()) {
      // In 128 bits, so a result outside int64 is reported rather than wrapped.
      __int128 x = eval(b->a, what), y = eval(b->b, what), r = 0;
      bool divides = b->kind == ExprKind::Div || b->kind == ExprKind::Mod || b->kind == ExprKind::FloorDiv ||
                     b->kind == ExprKind::FloorMod;
      if (divides && y == 0) throw RandomArgsError(what + " (" + print_expr(e) + ") divides by zero");
      __int128 floor_q = divides ? x / y - ((x % y != 0) && ((x < 0) != (y < 0))) : 0;
      switch (b->kind) {
        case ExprKind::Add: r = x + y; break;
        case ExprKind::Sub: r = x - y; break;
        case ExprKind::Mul: r = x * y; break;
        case ExprKind::Div: r = x / y; break;
        case ExprKind::Mod: r = x % y; break;
        case ExprKind::FloorDiv: r = floor_q; break;
        case ExprKind::FloorMod: r = x - y * floor_q; break;
        case ExprKind::Min: r = std::min(x, y); break;
        case ExprKind::Max: r = std::max(x, y); break;
        default: throw RandomArgsError(what + " (" + print_expr(e) + ") is not arithmetic on literals and variables");
      }
      if (r < INT64_MIN || r > INT64_MAX) throw RandomArgsError(what + " (" + print_expr(e) + ") overflows int64");
      return static_cast<int64_t>(r);
    }
    throw RandomArgsError(what + " (" + print_expr(e) + ") is not arithmetic on literals and variables");
  }

  ArrayRef array_for(const BufferNode& b) {
    if (b.dtype.is_handle() || b.dtype.is_void())
      throw RandomArgsError("buffer " + b.name + " holds " + b.dtype.name() + ": no values can be made for it");
    ArrayRef a{nullptr, b.dtype, {}, {}, 0};
    for (size_t k = 0; k < b.shape.size(); ++k) {
      std::string what = "dimension " + std::to_string(k) + " of buffer " + b.name;
      a.shape.push_back(eval(b.shape[k], what));
      if (a.shape.back() < 0) throw RandomArgsError(what + " is " + std::to_string(a.shape.back()) + ", negative");
    }
    if (!b.strides.empty()) {
      std::vector<int64_t> compact = compact_strides(a.shape);
      for (size_t k = 0; k < b.strides.size(); ++k) {
        if (const VarNode* v = bare_var(b.strides[k])) assign(v->name_hint, compact[k]);
        a.strides.push_back(eval(b.strides[k], "stride " + std::to_string(k) + " of buffer " + b.name));
        if (a.strides.back() < 0) throw RandomArgsError("stride " + std::to_string(k) + " of buffer " + b.name + " is negative");
      }
    }
    if (b.elem_offset) a.elem_offset = eval(b.elem_offset, "elem_offset of buffer " + b.name);
    if (a.elem_offset < 0) throw RandomArgsError("elem_offset of buffer " + b.name + " is negative");
    allocate(a, b);
    fill(a, b.name);
    return a;
  }

  // Memory reaching the array's last element, zeroed. Buffers over one data Var
  // (`T.match_buffer(b, ..., data=A.data)`) get one memory that holds each of them, as the call
  // must pass arrays that start at one pointer; each is filled in turn.
  void allocate(ArrayRef& a, const BufferNode& b) {
    const std::string& name = b.name;
    std::vector<int64_t> strides = a.strides.empty() ? compact_strides(a.shape) : a.strides;
    bool empty = std::any_of(a.shape.begin(), a.shape.end(), [](int64_t e) { return e == 0; });
    // In elements; __int128 so huge extents report instead of overflowing.
    __int128 last = a.elem_offset;
    for (size_t k = 0; k < a.shape.size(); ++k) last += static_cast<__int128>(a.shape[k] - 1) * strides[k];
    __int128 bytes = empty ? 0 : (last + 1) * element_bytes(a.dtype);
    if (bytes > opts_.max_bytes)
      throw RandomArgsError("buffer " + name + " would take more than " + std::to_string(opts_.max_bytes) + " bytes");
    const size_t words = static_cast<size_t>((bytes + 7) / 8) + 1;
    auto shared = data_storage_.find(b.data.get());
    if (shared == data_storage_.end()) {
      out_.storage.emplace_back(words, 0);
      a.data = out_.storage.back().data();
      data_storage_[b.data.get()] = {out_.storage.size() - 1, {}};
      return;
    }
    std::vector<uint64_t>& memory = out_.storage[shared->second.storage];
    if (memory.size() < words) {
      memory.resize(words, 0);  // moves: the earlier arrays follow
      for (size_t i : shared->second.args) std::get<ArrayRef>(out_.args[i]).data = memory.data();
    }
    a.data = memory.data();
  }

  void fill(const ArrayRef& a, const std::string& name) {
    DataType t = a.dtype;
    for_each_index(a.shape, [&](const std::vector<int64_t>& index) {
      RuntimeValue v{t, {}, {}};
      for (int lane = 0; lane < t.lanes; ++lane) {
        if (t.is_float()) v.floats.push_back(round_float(rng_.uniform_pm1(), t.element()));
        else if (t.is_bool()) v.ints.push_back(rng_.integer(0, 1));
        else if (t.is_uint()) v.ints.push_back(rng_.integer(0, 10));
        else v.ints.push_back(rng_.integer(-10, 10));
      }
      store_element(a, index, v, name, 0);
    });
  }

  const PrimFuncNode& f_;
  const RandomArgumentOptions& opts_;
  SplitMix64 rng_;
  std::map<std::string, ScalarSetting> values_;
  RandomArguments out_;
  struct SharedData {
    size_t storage;            // index into out_.storage
    std::vector<size_t> args;  // the arrays over it, indices into out_.args
  };
  std::map<const VarNode*, SharedData> data_storage_;
};

}  // namespace

std::vector<std::string> settable_variables(const PrimFuncNode& f) {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (const Var& p : f.params) {
    if (Buffer b = f.buffer_of(p)) {
      BufferVars v = buffer_vars(*b);
      for (const auto* list : {&v.shape, &v.strides, &v.elem_offset})
        for (const std::string& n : *list) add(n);
    } else if (!p->dtype.is_handle()) {
      add(p->name_hint);
    }
  }
  return names;
}

RandomArguments random_arguments(const PrimFuncNode& f, const RandomArgumentOptions& opts) {
  return ArgumentMaker(f, opts).make();
}

}  // namespace onegrad::tir
