// tir.reinterpret in compiled code: the bits of a value's lanes read as another type of the same
// total size, lane 0 lowest (what the interpreter's reinterpret_bits reads back from memory).
#pragma once
#include "tir_compile/lower_state.h"

namespace onegrad::tir {

// `from` and `to` are the full (vector) types; v has from.lanes lanes. Throws TirNotLowerable for
// a bool or handle side or sizes that differ (the type checker reports those first).
Lanes lower_reinterpret(const Lanes& v, DataType from, DataType to, int line);

}  // namespace onegrad::tir
