// tir.reinterpret: a value's bits read as another type of the same total size (T.reinterpret
// ("int32", x) of a uint8x4 gives one int32 whose lowest byte is lane 0, as TVM's LLVM bitcast does
// on a little-endian machine).
#pragma once
#include "tir/interpret/interpret_value.h"

namespace onegrad::tir {

// v's bits as a value of type `to`. Throws TirRuntimeError (at `line`) when the sizes differ or
// either side is a bool or a handle, which have no bits of their own here.
RuntimeValue reinterpret_bits(const RuntimeValue& v, DataType to, int line);

}  // namespace onegrad::tir
