// Tensor stage: which ops may appear, how many sources each takes and what kind of arg it carries
// (spec: the src and arg columns of the op tables).
#include <limits>

#include "uop/custom_kernels.h"
#include "uop/verify/verify_rules.h"

namespace onegrad::verify_rules {

std::string fail(const UOp* u, std::string_view rule, const std::string& details) {
  return std::string(op_name(u->op)) + ": " + std::string(rule) + ": " + details;
}

std::string src_name(const UOp* u, size_t i) {
  return "source " + std::to_string(i) + " (" + std::string(op_name(u->src[i]->op)) + ")";
}

std::optional<std::string> tensor_op_excluded(Ops op) {
  switch (op) {
    // Rangeify turns movement ops into index math over RANGEs: loops are kernel-level.
    case Ops::RANGE: case Ops::END: return std::string("loops are kernel-level (Rangeify creates them)");
    case Ops::LINEAR: return std::string("LINEAR is the output of Linearize");
    default: break;
  }
  // spec: "Codegen Ops ... these do not appear in the main graph". One refinement: CUSTOM names a
  // kernel the scheduler builds (uop/custom_kernels.h), one that no composition makes linear.
  if (op_group(op) == OpGroup::Codegen && op != Ops::CUSTOM)
    return std::string("codegen ops do not appear in the main graph");
  return std::nullopt;
}

Finding tensor_op_set(const UOp* u) {
  if (auto why = tensor_op_excluded(u->op)) return fail(u, "not in the tensor stage's op set", *why);
  return std::nullopt;
}

namespace {

constexpr size_t kAny = std::numeric_limits<size_t>::max();

struct Arity {
  size_t lo, hi;
  const char* form;  // the spec's src column
};

// spec: the src column of each op table.
Arity arity_of(Ops op) {
  switch (op) {
    case Ops::PARAM: return {0, 1, "(s) or ()"};
    case Ops::BUFFER: case Ops::CONST: case Ops::BINARY: return {0, 0, "()"};
    case Ops::PERMUTE: case Ops::FLIP: case Ops::REPLICATED: case Ops::BITCAST: return {1, 1, "(T,)"};
    case Ops::RESHAPE: case Ops::EXPAND: return {2, 2, "(T, s')"};
    case Ops::PAD: case Ops::SHRINK: return {3, 3, "(T, o, s')"};
    case Ops::INDEX: return {1, kAny, "(T, i0, i1, ...)"};
    case Ops::STACK: return {0, kAny, "(T0, T1, ...)"};
    case Ops::SLICE: return {2, 2, "(T, offset)"};
    case Ops::REDUCE: return {1, kAny, "(T, r0, r1, ...)"};
    case Ops::FUNCTION: case Ops::CALL: return {1, kAny, "(body, a0, a1, ...)"};
    case Ops::TUPLE: return {0, kAny, "(v0, v1, ...)"};
    case Ops::GETTUPLE: return {1, 1, "(T,)"};
    case Ops::LOAD: return {1, 3, "(buf, alt?, gate?)"};
    case Ops::COPY: return {1, 1, "(T,)"};
    case Ops::STORE: return {2, 3, "(buf, val, gate?)"};
    case Ops::AFTER: return {1, kAny, "(buf, deps...)"};
    case Ops::GROUP: case Ops::SINK: return {0, kAny, "(u0, u1, ...)"};
    case Ops::CONTIGUOUS: case Ops::CONTIGUOUSBACKWARD: case Ops::DETACH: return {1, 1, "(T,)"};
    case Ops::CUSTOM: return {1, 1, "(T,)"};
    default: break;
  }
  switch (alu_arity(op)) {
    case 1: return {1, 1, "(T,)"};
    case 2: return {2, 2, "(A, B)"};
    case 3: return {3, 3, op == Ops::WHERE ? "(P, A, B)" : "(A, B, C)"};
    default: return {0, kAny, "(...)"};
  }
}

// spec: the arg column. Kinds are Arg::kind_name() names.
const char* arg_kind_of(Ops op) {
  switch (op) {
    case Ops::PARAM: return "ParamArg";
    case Ops::BUFFER: return "BufferArg";
    case Ops::CONST: return "ConstValue";
    case Ops::BINARY: case Ops::CUSTOM: return "string";
    case Ops::PERMUTE: case Ops::REPLICATED: return "Ints";
    case Ops::FLIP: return "Bools";
    case Ops::SLICE: return "SliceArg";
    case Ops::BITCAST: case Ops::CAST: return "DType";
    case Ops::REDUCE: return "ReduceArg";
    case Ops::GETTUPLE: return "int";
    case Ops::LOAD: return "LoadArg";
    case Ops::COPY: return "Device";
    default: return "none";
  }
}

const char* arg_meaning(Ops op) {
  switch (op) {
    case Ops::PARAM: return " (slot, dtype, device?, addrspace?)";
    case Ops::BUFFER: return " (size, dtype, device, addrspace)";
    case Ops::CONST: return " (the value)";
    case Ops::PERMUTE: return " (axis order)";
    case Ops::REPLICATED: return " (axes)";
    case Ops::FLIP: return " (one flag per axis)";
    case Ops::SLICE: return " (size, dtype)";
    case Ops::BITCAST: case Ops::CAST: return " (target dtype)";
    case Ops::REDUCE: return " (op, axes)";
    case Ops::GETTUPLE: return " (element index)";
    case Ops::LOAD: return " (device, addrspace)";
    case Ops::COPY: return " (target device)";
    case Ops::CUSTOM: return " (a kernel name)";
    default: return "";
  }
}

}  // namespace

Finding tensor_arity(const UOp* u) {
  Arity a = arity_of(u->op);
  size_t n = u->src.size();
  if (n >= a.lo && n <= a.hi) return std::nullopt;
  std::string want = a.lo == a.hi ? std::to_string(a.lo)
                     : a.hi == kAny ? "at least " + std::to_string(a.lo)
                                    : std::to_string(a.lo) + " to " + std::to_string(a.hi);
  return fail(u, "arity", "expects " + want + " sources " + a.form + ", got " + std::to_string(n));
}

namespace {

// The values inside an arg of the right kind.
Finding arg_values(const UOp* u) {
  switch (u->op) {
    case Ops::BUFFER: {
      const BufferArg& b = u->arg.get<BufferArg>();
      if (b.size < 0) return fail(u, "buffer size", "must be >= 0, got " + std::to_string(b.size));
      if (b.device.is_null()) return fail(u, "buffer device", "a BUFFER lives on a device, got NULL");
      if (b.dtype.is_ptr) return fail(u, "buffer dtype", "holds scalars, got " + b.dtype.name());
      return std::nullopt;
    }
    case Ops::PARAM: {
      const ParamArg& p = u->arg.get<ParamArg>();
      if (p.name.empty() && p.slot < 0)
        return fail(u, "param slot", "a placeholder has a slot >= 0, got " + std::to_string(p.slot));
      if (p.vmin.has_value() != p.vmax.has_value())
        return fail(u, "param bounds", "give both min and max or neither");
      if (p.vmin && p.vmin->as_double() > p.vmax->as_double())
        return fail(u, "param bounds", "min " + p.vmin->str() + " > max " + p.vmax->str());
      return std::nullopt;
    }
    case Ops::COPY:
      if (u->arg.get<Device>().is_null()) return fail(u, "copy device", "the target device is NULL");
      return std::nullopt;
    case Ops::CUSTOM:
      if (u->arg.get<std::string>() != kFisherYates)
        return fail(u, "custom kernel", "no kernel is named '" + u->arg.get<std::string>() + "' (uop/custom_kernels.h)");
      if (u->src.size() == 1 && (u->dtype != dtypes::int64 || u->src[0]->dtype != dtypes::uint64))
        return fail(u, "custom kernel", std::string(kFisherYates) + " maps uint64 words to int64, got " +
                                            u->src[0]->dtype.name() + " to " + u->dtype.name());
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

Finding tensor_arg(const UOp* u) {
  std::string_view want = arg_kind_of(u->op), got = u->arg.kind_name();
  if (want != got)
    return fail(u, "arg kind", "expects " + std::string(want) + arg_meaning(u->op) + ", got " + std::string(got));
  return arg_values(u);
}

}  // namespace onegrad::verify_rules
