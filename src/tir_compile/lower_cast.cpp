// Cast as C's static_cast between every pair of lowerable types, defined where C is not, exactly as
// the interpreter's cast_value: ints wrap; to bool is != 0; float -> int truncates, NaN gives 0 and
// values outside int64 (uint64 for uint64) saturate before wrapping to a narrower type — so the
// conversion goes through int64, whose renderer helper saturates the same way; float16 is rounded
// once from a double (from_f64), bfloat16 through float as the interpreter does.
#include "tir_compile/lower_ops_impl.h"

namespace onegrad::tir {

using namespace lowering;

UOpRef lower_cast(const UOpRef& v, DataType from, DataType to, int line) {
  const DType src = uop_dtype(from, line), dst = uop_dtype(to, line);
  if (src == dst) return v;
  if (dst.is_bool()) return alu(Ops::CMPNE, {v, lit(v, 0)});
  if (dst.is_float()) {
    if (dst == dtypes::float16 && src == F64) return from_f64(v, dst);
    return cast(v, dst);
  }
  if (src.is_float()) {  // to an integer type
    DType wide = dst == dtypes::uint64 ? dtypes::uint64 : dtypes::int64;
    UOpRef w = cast(v, wide);
    return dst == wide ? w : cast(w, dst);
  }
  return cast(v, dst);
}

}  // namespace onegrad::tir
