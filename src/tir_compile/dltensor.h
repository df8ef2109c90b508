// DLPack's DLTensor (dlpack/dlpack.h; Debian ships v0.6) as the interpreter's and compiled code's
// ArrayRef (tir-notes 5, docs/tir.md "Calling convention"). A view, never a copy: the ArrayRef
// points at the tensor's own memory.
#pragma once
#include <dlpack/dlpack.h>

#include <string>

#include "tir/interpret/interpret.h"

namespace onegrad::tir {

// DLPack 0.8's kDLBool, missing from the 0.6 header: one byte per element, bits = 8.
constexpr uint8_t kDLBoolCode = 6;

// The TIR dtype of a DLPack dtype: Int/UInt 8..64 bits, UInt 1 or kDLBool 8 as bool, Float 16..64,
// Bfloat 16, any lanes; nullopt for the rest (complex, opaque handles, other bit widths).
std::optional<DataType> dtype_from_dlpack(DLDataType t);

// t as an ArrayRef: dtype mapped, shape and strides copied, elem_offset = byte_offset / element
// size. Throws TirArgumentError naming `function`, `parameter` and `line` (the function's) when t is not on the CPU, its
// dtype has no TIR counterpart, ndim is negative, shape is null with ndim > 0, an extent is
// negative, or byte_offset is not a multiple of the element size. bind_arguments checks the rest.
ArrayRef array_from_dltensor(const DLTensor& t, const std::string& function, const std::string& parameter,
                             int line);

}  // namespace onegrad::tir
