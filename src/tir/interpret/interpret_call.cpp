// Calls: TIR builtins (math, if_then_else, bit operations, ret/break/continue) and PrimFunc calls
// (spec: Call, tir.ret, "Semantics of PrimFuncs"), with the binding of arguments to parameters.
#include <cmath>
#include <functional>
#include <string_view>

#include "tir/interpret/bind_arguments.h"
#include "tir/interpret/interpret_arith.h"
#include "tir/interpret/interpret_builtin.h"
#include "tir/interpret/interpret_impl.h"
#include "tir/interpret/reinterpret_bits.h"

namespace onegrad::tir {

namespace {


}  // namespace

RuntimeValue Interpreter::eval_call(const CallNode& c) {
  if (!c.calls_global) return eval_builtin(c);
  PrimFunc f = module_.find(c.op);
  if (!f) throw TirRuntimeError("call of unknown function " + c.op, c.loc.line);
  std::vector<Argument> args;
  for (const PrimExpr& a : c.args) {
    RuntimeValue v = eval(a);
    if (v.dtype.is_handle()) {
      auto it = arrays_.find(static_cast<uintptr_t>(v.ints[0]));
      if (it == arrays_.end()) throw TirRuntimeError("call of " + c.op + ": handle argument is not a known array", c.loc.line);
      args.emplace_back(it->second);
    } else if (v.dtype.is_float()) {
      args.emplace_back(v.floats[0]);
    } else {
      args.emplace_back(v.ints[0]);
    }
  }
  std::optional<RuntimeValue> r = call(*f, c.op, args, c.loc.line);
  if (!r) return RuntimeValue::zeros(c.dtype.is_void() ? DataType::int_(32) : c.dtype);
  return c.dtype.is_void() ? *r : cast_value(*r, c.dtype);
}

RuntimeValue Interpreter::eval_builtin(const CallNode& c) {
  const std::string& op = c.op;
  const int line = c.loc.line;
  auto arity = [&](size_t n) {
    if (c.args.size() != n)
      throw TirRuntimeError(op + " takes " + std::to_string(n) + " arguments, got " + std::to_string(c.args.size()), line);
  };
  if (op == "tir.ret") {
    arity(1);
    throw ReturnSignal{eval(c.args[0])};
  }
  if (op == "tir.break") throw BreakSignal{};
  if (op == "tir.continue") throw ContinueSignal{};
  if (op == "tir.if_then_else") {  // lazy: only the chosen arm is evaluated (scalar condition)
    arity(3);
    RuntimeValue cond = eval(c.args[0]);
    if (cond.lanes() == 1) return eval(c.args[cond.truthy() ? 1 : 2]);
    RuntimeValue t = eval(c.args[1]), f = eval(c.args[2]);
    for (int i = 0; i < cond.lanes(); ++i)
      if (cond.truthy(i)) t.dtype.is_float() ? void(f.floats[i] = t.floats[i]) : void(f.ints[i] = t.ints[i]);
    return f;
  }
  if (op == "tir.likely") {
    arity(1);
    return eval(c.args[0]);
  }
  if (op == "tir.assume") return RuntimeValue::of_int(DataType::bool_(), 1);  // a hint: not evaluated
  if (op == "tir.reinterpret") {
    arity(1);
    return reinterpret_bits(eval(c.args[0]), c.dtype, line);
  }
  if (is_pure_builtin(op)) {
    arity(pure_builtin_arity(op));
    std::vector<RuntimeValue> args;
    for (const PrimExpr& a : c.args) args.push_back(eval(a));
    return apply_builtin(op, args, c.dtype, line);
  }
  throw TirRuntimeError("the interpreter does not implement builtin " + op, line);
}

ArrayRef Interpreter::allocate(DataType dtype, const std::vector<int64_t>& shape, int line) {
  const int64_t max_bytes = limits_.max_allocation_bytes;
  int64_t n = 1;
  for (int64_t e : shape) {
    if (e < 0 || (e > 0 && n > max_bytes / e))
      throw TirRuntimeError("allocation of " + dtype.name() + " with extent " + std::to_string(e) +
                                " is negative or larger than the interpreter allows", line);
    n *= e;
  }
  return allocate_elements(ArrayRef{nullptr, dtype, shape, {}, 0}, n, line);
}

ArrayRef Interpreter::allocate_buffer(const Buffer& buffer, int line) {
  std::vector<int64_t> shape, strides;
  for (const PrimExpr& e : buffer->shape) shape.push_back(eval_int(e));
  if (buffer->strides.empty()) return allocate(buffer->dtype, shape, line);
  if (buffer->strides.size() != shape.size())
    throw TirRuntimeError("buffer " + buffer->name + " declares " + std::to_string(buffer->strides.size()) +
                              " strides for its " + std::to_string(shape.size()) + " dimensions", line);
  for (const PrimExpr& e : buffer->strides) strides.push_back(eval_int(e));
  // a literal elem_offset is kept; a Var one (offset_factor) is the allocator's to choose: 0
  const auto* offset = buffer->elem_offset ? buffer->elem_offset->as<IntImmNode>() : nullptr;
  AllocationLayout layout = allocation_layout(shape, strides, offset ? offset->value : 0);
  for (int64_t e : shape)
    if (e < 0) throw TirRuntimeError("allocation of buffer " + buffer->name + " with extent " + std::to_string(e), line);
  if (layout.elements > limits_.max_allocation_bytes)
    throw TirRuntimeError("allocation of buffer " + buffer->name + " (the elements its strides reach) is larger than the interpreter allows", line);
  return allocate_elements(ArrayRef{nullptr, buffer->dtype, shape, layout.strides, layout.elem_offset},
                           static_cast<int64_t>(layout.elements), line);
}

ArrayRef Interpreter::allocate_elements(ArrayRef a, int64_t n, int line) {
  const DataType dtype = a.dtype;
  if (n > limits_.max_allocation_bytes / element_bytes(dtype))
    throw TirRuntimeError("allocation of " + std::to_string(n) + " " + dtype.name() + " elements is larger than the interpreter allows", line);
  auto mem = std::make_unique<char[]>(static_cast<size_t>(std::max<int64_t>(n, 1) * element_bytes(dtype)));
  a.data = mem.get();
  std::fill_n(mem.get(), std::max<int64_t>(n, 1) * element_bytes(dtype), 0);
  auto key = reinterpret_cast<uintptr_t>(mem.get());
  owned_[key] = std::move(mem);
  arrays_[key] = a;
  return a;
}

void Interpreter::release(const ArrayRef& a) {
  auto key = reinterpret_cast<uintptr_t>(a.data);
  arrays_.erase(key);
  owned_.erase(key);
}

// A view declared over a pointer must lie inside the array the pointer points to: bytes from the
// view's first to its last element within the array's bytes.
void Interpreter::check_view_fits(const ArrayRef& view, const std::string& name, int line) const {
  auto known = arrays_.find(reinterpret_cast<uintptr_t>(view.data));
  if (known == arrays_.end())
    throw TirRuntimeError("buffer " + name + " points to memory that is not an array of this run", line);
  const ArrayRef& mem = known->second;
  const int64_t mem_bytes = array_reach(mem) * element_bytes(mem.dtype);
  std::vector<int64_t> strides = view.strides.empty() ? compact_strides(view.shape) : view.strides;
  int64_t first = view.elem_offset, last = view.elem_offset;
  bool empty = false;
  for (size_t k = 0; k < view.shape.size(); ++k) {
    if (view.shape[k] <= 0) empty = true;
    else if (k < strides.size()) (strides[k] < 0 ? first : last) += (view.shape[k] - 1) * strides[k];
  }
  if (empty) return;
  if (view.shape.size() != strides.size() || first < 0 || (last + 1) * element_bytes(view.dtype) > mem_bytes)
    throw TirIndexError("buffer " + name + " (elements " + std::to_string(first) + " to " + std::to_string(last) + " of " +
                            view.dtype.name() + ") does not fit the " + std::to_string(mem_bytes) +
                            " bytes its pointer points to", name, line);
}

ArrayRef Interpreter::array_of(const Buffer& buffer, int line) {
  Frame& frame = frames_.back();
  auto it = frame.buffers.find(buffer.get());
  if (it != frame.buffers.end()) return it->second;
  // A buffer declared over a data pointer (DeclBuffer, T.Buffer(data=...)): its own shape,
  // strides and elem_offset over the memory the pointer points to.
  auto data = frame.vars.find(buffer->data.get());
  if (data == frame.vars.end() || data->second.dtype.is_float())
    throw TirRuntimeError("buffer " + buffer->name + " is not bound to memory", line);
  ArrayRef a{reinterpret_cast<void*>(static_cast<uintptr_t>(data->second.ints[0])), buffer->dtype, {}, {}, 0};
  for (const PrimExpr& e : buffer->shape) a.shape.push_back(eval_int(e));
  for (const PrimExpr& e : buffer->strides) a.strides.push_back(eval_int(e));
  if (buffer->elem_offset) a.elem_offset = eval_int(buffer->elem_offset);
  check_view_fits(a, buffer->name, line);
  return a;
}

void Interpreter::bind_or_check(const PrimExpr& declared, int64_t actual, const std::string& what, bool check,
                                int line) {
  if (!declared) return;
  if (const auto* v = declared->as<VarNode>()) {
    auto& vars = frames_.back().vars;
    if (!vars.count(v)) {
      vars[v] = RuntimeValue::of_int(v->dtype, actual);
      return;
    }
  }
  if (!check) return;
  int64_t expected = eval_int(declared);
  if (expected != actual)
    throw TirRuntimeError(what + " is " + std::to_string(actual) + " but the declaration requires " +
                              std::to_string(expected), line);
}

void Interpreter::match_buffer(const Buffer& buffer, const ArrayRef& array, int line) {
  const std::string& name = buffer->name;
  if (array.shape.size() != buffer->shape.size())
    throw TirRuntimeError("buffer " + name + " has " + std::to_string(buffer->shape.size()) + " dimensions, the array " +
                              std::to_string(array.shape.size()), line);
  if (array.dtype.element() != buffer->dtype.element())
    throw TirRuntimeError("buffer " + name + " holds " + buffer->dtype.name() + ", the array " + array.dtype.name(), line);
  for (size_t k = 0; k < array.shape.size(); ++k)
    bind_or_check(buffer->shape[k], array.shape[k], "dimension " + std::to_string(k) + " of buffer " + name, true, line);
  std::vector<int64_t> strides = array.strides.empty() ? compact_strides(array.shape) : array.strides;
  for (size_t k = 0; k < buffer->strides.size() && k < strides.size(); ++k)
    bind_or_check(buffer->strides[k], strides[k], "stride " + std::to_string(k) + " of buffer " + name, false, line);
  bind_or_check(buffer->elem_offset, array.elem_offset, "elem_offset of buffer " + name, false, line);
  frames_.back().vars[buffer->data.get()] =
      RuntimeValue::of_int(DataType::handle(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(array.data)));
}

std::optional<RuntimeValue> Interpreter::call(const PrimFuncNode& f, const std::string& name,
                                              const std::vector<Argument>& args, int line) {
  BoundCall bound;
  try {
    bound = bind_arguments(f, args, name);
  } catch (const TirArgumentError& e) {
    throw e.at_line(line);  // a nested call reports its call site; the top-level call, f's line
  }
  stack_.check(line);
  Frame& frame = frames_.emplace_back();
  struct PopFrame {
    Interpreter* self;
    ~PopFrame() { self->frames_.pop_back(); }
  } pop{this};
  frame.vars = std::move(bound.vars);
  for (size_t i = 0; i < args.size(); ++i)
    if (const auto* array = std::get_if<ArrayRef>(&args[i])) {
      arrays_.emplace(reinterpret_cast<uintptr_t>(array->data), *array);
      if (Buffer b = f.buffer_of(f.params[i])) frame.buffers[b.get()] = *array;
    }
  try {
    exec(f.body);
  } catch (const ReturnSignal& r) {
    return r.value;
  } catch (const BreakSignal&) {
    throw TirRuntimeError("break outside a loop", line);
  } catch (const ContinueSignal&) {
    throw TirRuntimeError("continue outside a loop", line);
  }
  return std::nullopt;
}

int64_t evaluate_int(const PrimExpr& e, const std::unordered_map<const VarNode*, RuntimeValue>& vars) {
  static const IRModule kNoFunctions;
  Interpreter in(kNoFunctions, {});
  in.push_frame().vars = vars;
  return in.eval(e).int_at(0);
}

std::optional<RuntimeValue> interpret(const IRModule& module, const std::string& name, const std::vector<Argument>& args,
                                      InterpretLimits limits) {
  PrimFunc f = module.find(name);
  if (!f) throw TirRuntimeError("the module has no function " + name, 0);
  Interpreter in(module, limits);
  return in.call(*f, name, args, f->loc.line);
}

}  // namespace onegrad::tir
