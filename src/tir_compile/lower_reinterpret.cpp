#include "tir_compile/lower_reinterpret.h"

#include "tir_compile/lower_ops_impl.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

namespace {

using lowering::alu;
using lowering::bitcast;

UOpRef convert(const UOpRef& x, DType to) { return UOp::create(Ops::CAST, to, {x}); }

// A lane's bits as the unsigned integer of its width.
UOpRef to_bits(const UOpRef& x, DataType t, int line) {
  DType u = uop_dtype(DataType::uint(t.bits), line);
  return t.is_float() ? bitcast(x, u) : convert(x, u);
}

UOpRef from_bits(const UOpRef& bits, DataType t, int line) {
  DType out = uop_dtype(t, line);
  return t.is_float() ? bitcast(bits, out) : convert(bits, out);
}

}  // namespace

Lanes lower_reinterpret(const Lanes& v, DataType from, DataType to, int line) {
  auto has_bits = [](DataType t) { return !t.is_bool() && t.code != DataType::Code::Handle && !t.is_void(); };
  if (!has_bits(from) || !has_bits(to) || int64_t{from.bits} * from.lanes != int64_t{to.bits} * to.lanes ||
      static_cast<int>(v.size()) != from.lanes)
    throw TirNotLowerable("tir.reinterpret of " + from.name() + " as " + to.name(), "the sizes differ or a side has no bits", line);
  const DataType f = from.element(), t = to.element();
  const DType fu = uop_dtype(DataType::uint(f.bits), line), tu = uop_dtype(DataType::uint(t.bits), line);
  Lanes src, out;
  for (const UOpRef& x : v) src.push_back(to_bits(x, f, line));
  for (int j = 0; j < to.lanes; ++j) {
    UOpRef bits;
    if (f.bits == t.bits) {
      bits = src[size_t(j)];
    } else if (f.bits < t.bits) {  // several source lanes make one: lane i of them at bit i * f.bits
      const int k = t.bits / f.bits;
      for (int i = 0; i < k; ++i) {
        UOpRef piece = convert(src[size_t(j * k + i)], tu);
        if (i) piece = alu(Ops::SHL, {piece, UOp::const_int(tu, i128(i * f.bits))});
        bits = bits ? alu(Ops::OR, {bits, piece}) : piece;
      }
    } else {  // one source lane holds several: take the j % k-th slice
      const int k = f.bits / t.bits;
      UOpRef whole = src[size_t(j / k)];
      if (j % k) whole = alu(Ops::SHR, {whole, UOp::const_int(fu, i128((j % k) * t.bits))});
      bits = convert(whole, tu);
    }
    out.push_back(from_bits(bits, t, line));
  }
  return out;
}

}  // namespace onegrad::tir
