// The integer builtins: bitwise and/or/xor/not, shifts, popcount and clz, as the interpreter's
// bit_lane and bit counts compute them. Shifts by a negative amount or by the width or more shift
// every bit out (0, or the sign for >> of a negative signed value): the amount is clamped to the
// width in its own type, and the renderer's shift helpers give that for an amount of the width.
#include "tir_compile/lower_ops_impl.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir::lowering {

namespace {

constexpr DType U64 = dtypes::uint64;
UOpRef U(uint64_t v) { return UOp::const_int(U64, i128(v)); }

// x's bits (of its width, zero-extended) as a uint64.
UOpRef zero_extended(const UOpRef& x, DataType t) {
  if (x->dtype.is_bool() || x->dtype.is_unsigned()) return cast(x, U64);
  return cast(cast(x, uop_dtype(DataType::uint(t.bits))), U64);
}

UOpRef popcount64(UOpRef x) {
  x = sub(x, alu(Ops::AND, {alu(Ops::SHR, {x, U(1)}), U(0x5555555555555555ull)}));
  x = alu(Ops::ADD, {alu(Ops::AND, {x, U(0x3333333333333333ull)}), alu(Ops::AND, {alu(Ops::SHR, {x, U(2)}), U(0x3333333333333333ull)})});
  x = alu(Ops::AND, {alu(Ops::ADD, {x, alu(Ops::SHR, {x, U(4)})}), U(0x0f0f0f0f0f0f0f0full)});
  return alu(Ops::SHR, {alu(Ops::MUL, {x, U(0x0101010101010101ull)}), U(56)});
}

// 64 - the bit length of x, minus the bits above the type's width
UOpRef clz(const UOpRef& x, int bits) {
  UOpRef s = x;
  for (int k = 1; k < 64; k *= 2) s = alu(Ops::OR, {s, alu(Ops::SHR, {s, U(uint64_t(k))})});
  return sub(U(uint64_t(bits)), popcount64(s));
}

// The shift amount b as a's dtype, any amount outside [0, width) replaced by the width. Read as an
// int64 first, as the interpreter holds it (a uint64 amount of 2^63 or more is negative there).
UOpRef shift_amount(const UOpRef& b, const UOpRef& a, int width) {
  UOpRef b64 = b->dtype == dtypes::int64 ? b : cast(b, dtypes::int64);
  UOpRef w = UOp::const_int(dtypes::int64, width);
  UOpRef out = or_(lt(b64, UOp::const_int(dtypes::int64, 0)), not_(lt(b64, w)));
  return cast(where(out, w, b64), a->dtype);
}

}  // namespace

UOpRef lower_int_builtin(const std::string& op, const std::vector<UOpRef>& args, const std::vector<DataType>& types,
                         int line) {
  const bool bitwise = op.rfind("tir.bitwise_", 0) == 0 || op == "tir.shift_left" || op == "tir.shift_right";
  if (!bitwise && op != "tir.popcount" && op != "tir.clz") return nullptr;
  for (const DataType& t : types)
    if (t.is_float()) throw TirNotLowerable(op, "of " + t.element().name() + ": integers only", line);
  const UOpRef& a = args.at(0);
  const DataType t = types.at(0).element();
  const int width = t.bits;
  if (op == "tir.popcount") return cast(popcount64(zero_extended(a, t)), a->dtype);
  if (op == "tir.clz") return cast(clz(zero_extended(a, t), width), a->dtype);
  if (op == "tir.bitwise_not") return alu(Ops::XOR, {a, UOp::const_int(a->dtype, -1)});
  const UOpRef& b = args.at(1);
  if (op == "tir.shift_left" || op == "tir.shift_right")
    return alu(op == "tir.shift_left" ? Ops::SHL : Ops::SHR, {a, shift_amount(b, a, width)});
  UOpRef bb = b->dtype == a->dtype ? b : cast(b, a->dtype);
  Ops o = op == "tir.bitwise_and" ? Ops::AND : op == "tir.bitwise_or" ? Ops::OR : Ops::XOR;
  if (o == Ops::AND && op != "tir.bitwise_and") throw TirNotLowerable(op, "no such bit operation", line);
  return alu(o, {a, bb});
}

}  // namespace onegrad::tir::lowering
