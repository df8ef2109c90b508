// Tensor stage dtype rules: every node's dtype is the one the spec's Derived Properties table gives,
// and operands have the dtypes their op is defined on. The graph has no implicit promotion: the
// front end inserts CASTs, so the two operands of a binary op have one dtype.
#include "uop/verify/verify_rules.h"

namespace onegrad::verify_rules {

namespace {

bool is_value(DType dt) { return !dt.is_void() && !dt.is_ptr; }

// The dtypes an ALU op is defined on (nothing: every value dtype).
struct Domain {
  bool (*ok)(DType);
  const char* need;
};

std::optional<Domain> alu_domain(Ops op) {
  switch (op) {
    case Ops::XOR: case Ops::OR: case Ops::AND:
      return Domain{[](DType d) { return d.is_int() || d.is_bool(); }, "bitwise ops need ints or bool"};
    case Ops::SHL: case Ops::SHR: return Domain{[](DType d) { return d.is_int(); }, "shifts need ints"};
    case Ops::IDIV: case Ops::MOD: return Domain{[](DType d) { return d.is_int(); }, "integer division needs ints"};
    case Ops::RECIP: case Ops::DIV: case Ops::EXP2: case Ops::LOG2: case Ops::SIN: case Ops::SQRT: case Ops::POW:
      return Domain{[](DType d) { return d.is_float(); }, "needs floats"};
    case Ops::NOT: return Domain{[](DType d) { return d.is_bool(); }, "NOT needs bool (CMPNE(A, 1))"};
    case Ops::NEG: case Ops::TRUNC:
      return Domain{[](DType d) { return d.is_int() || d.is_float(); }, "needs a number, not bool"};
    case Ops::THREEFRY:
      return Domain{[](DType d) { return d == dtypes::uint64; }, "Threefry 2x32 works on packed uint64"};
    default: return std::nullopt;
  }
}

Finding alu_dtypes(const UOp* u) {
  for (size_t i = 0; i < u->src.size(); i++)
    if (!is_value(u->src[i]->dtype))
      return fail(u, "operand dtype", src_name(u, i) + " is " + u->src[i]->dtype.name() + ", not a value");
  if (u->op == Ops::CAST) {
    if (!is_value(u->dtype)) return fail(u, "cast target", "cannot cast to " + u->dtype.name());
    return std::nullopt;
  }
  if (u->op == Ops::WHERE) {
    if (!u->src[0]->dtype.is_bool())
      return fail(u, "condition dtype", "must be bool, got " + u->src[0]->dtype.name());
    if (u->src[1]->dtype != u->src[2]->dtype)
      return fail(u, "branch dtypes differ", u->src[1]->dtype.name() + " vs " + u->src[2]->dtype.name());
    return std::nullopt;
  }
  // spec: binary (A, B), MULACC (A, B, C): one dtype for every operand
  for (size_t i = 1; i < u->src.size(); i++)
    if (u->src[i]->dtype != u->src[0]->dtype)
      return fail(u, "operand dtypes differ", u->src[0]->dtype.name() + " vs " + u->src[i]->dtype.name());
  if (auto d = alu_domain(u->op); d && !d->ok(u->src[0]->dtype))
    return fail(u, "operand dtype", std::string(d->need) + ", got " + u->src[0]->dtype.name());
  return std::nullopt;
}

// ALU operands live on one device; a CONST (device NULL) broadcasts onto any.
Finding alu_devices(const UOp* u) {
  const Device* first = nullptr;
  for (const UOpRef& s : u->src) {
    const Device& d = s->device();
    if (d.is_null()) continue;
    if (!first) first = &d;
    else if (!(d == *first)) return fail(u, "operand devices differ", first->str() + " vs " + d.str());
  }
  return std::nullopt;
}

Finding gate_is_bool(const UOp* u, size_t i) {
  if (i < u->src.size() && !u->src[i]->dtype.is_bool())
    return fail(u, "gate dtype", "must be bool, got " + u->src[i]->dtype.name());
  return std::nullopt;
}

}  // namespace

Finding tensor_dtypes(const UOp* u) {
  // spec: Derived Properties, the dtype column
  if (std::optional<DType> want = infer_dtype(u->op, u->src, u->arg); want && *want != u->dtype)
    return fail(u, "dtype rule", "the spec's table gives " + want->name() + ", the node has " + u->dtype.name());

  switch (u->op) {
    case Ops::CONST: {
      if (!is_value(u->dtype)) return fail(u, "const dtype", "a constant cannot be " + u->dtype.name());
      const ConstValue& v = u->const_value();
      if (v.is_float() != u->dtype.is_float())
        return fail(u, "const value", u->dtype.name() + " constant holds " + (v.is_float() ? "a float " : "an int ") +
                                          v.str());
      return std::nullopt;
    }
    case Ops::BUFFER: case Ops::PARAM:
      if (u->dtype.is_void()) return fail(u, "dtype", "a placeholder cannot be void");
      return std::nullopt;
    case Ops::BITCAST: {
      DType from = u->src[0]->dtype, to = u->dtype;
      if (!is_value(from) || !is_value(to) || from.is_index() || to.is_index())
        return fail(u, "bitcast dtypes", "needs fixed-width value dtypes, got " + from.name() + " to " + to.name());
      // spec: BITCAST preserves total bytes; the shape is src[0].shape, so itemsizes match
      if (from.itemsize() != to.itemsize())
        return fail(u, "preserve total bytes", from.name() + " (" + std::to_string(from.itemsize()) + " bytes) to " +
                                                   to.name() + " (" + std::to_string(to.itemsize()) + " bytes)");
      return std::nullopt;
    }
    case Ops::STACK:
      for (size_t i = 1; i < u->src.size(); i++)
        if (u->src[i]->dtype != u->src[0]->dtype)
          return fail(u, "source dtypes differ", u->src[0]->dtype.name() + " vs " + u->src[i]->dtype.name());
      return std::nullopt;
    case Ops::INDEX:
      for (size_t i = 1; i < u->src.size(); i++)
        if (!u->src[i]->dtype.is_int())
          return fail(u, "index dtype", "index " + std::to_string(i - 1) + " must be an integer, got " +
                                            u->src[i]->dtype.name());
      return std::nullopt;
    case Ops::LOAD:
      if (u->src.size() > 1 && u->src[1]->dtype != u->src[0]->dtype)
        return fail(u, "alt dtype differs from buffer", u->src[1]->dtype.name() + " vs " + u->src[0]->dtype.name());
      return gate_is_bool(u, 2);
    case Ops::STORE:
      if (u->src[1]->dtype != u->src[0]->dtype)
        return fail(u, "value dtype differs from buffer", u->src[1]->dtype.name() + " vs " + u->src[0]->dtype.name());
      return gate_is_bool(u, 2);
    case Ops::GROUP:
      // spec: GROUP merges STOREs: its sources are side effects (void)
      for (size_t i = 0; i < u->src.size(); i++)
        if (!u->src[i]->dtype.is_void())
          return fail(u, "source dtype", "merges side effects, but " + src_name(u, i) + " is " + u->src[i]->dtype.name());
      return std::nullopt;
    default: break;
  }
  if (is_alu(u->op)) {
    if (Finding f = alu_dtypes(u)) return f;
    return alu_devices(u);
  }
  return std::nullopt;
}

}  // namespace onegrad::verify_rules
