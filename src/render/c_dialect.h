// A C-like language as the C-style renderer (render/c_renderer.h) spells it. The renderer's rules
// (what keeps undefined behaviour out, how float16/bfloat16 round, which helpers a kernel needs:
// docs/codegen.md, "C rules") are shared by every dialect; what differs between C, OpenCL C and
// CUDA C is data in this table: type names, qualifiers of kernels, helpers and buffer parameters,
// the entry point, literals, math function names, vector types, thread ids, local memory and
// barriers. c_dialect() is the C the CPU runtime compiles; a second dialect is a second table.
//
// Templates name their parts in braces: "{T}* restrict {name}". fill() substitutes them.
#pragma once
#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

namespace c_render {
class Prelude;
}

struct CDialect {
  std::string name;  // "C"
  // The value type of each scalar type, indexed by ScalarType. INDEX is written as INT64's type,
  // BFLOAT16 as FLOAT32's (computed in float, rounded after every op); VOID has none.
  std::array<std::string, kNumScalarTypes> types;
  std::string header;         // the source's first lines (includes, pragmas)
  std::string helper_prefix;  // before each helper function: "static inline "
  std::string kernel_prefix;  // before the kernel function's name: "__attribute__((noinline)) static void "
  std::string buffer_param;   // a buffer parameter: {T} its element type, {name}
  std::string vars_param;     // the parameter holding the variables ("const int64_t* vars")
  std::string var_value;      // variable {slot}'s value, read in the kernel ("vars[{slot}]")
  std::string thread_param;   // the parameter of a kernel with a THREAD axis ("int64_t thread"); empty: none
  std::string thread_id;      // the THREAD axis's index in the kernel ("thread")
  // The entry point the runtime calls, around the kernel ({name}, {kernel}, {args}: the buffer
  // arguments, each entry_arg; {thread}: ", " thread_param or nothing; {thread_arg}: ", "
  // thread_id or nothing). Empty: the kernel is the entry point, named {name}.
  std::string entry;
  std::string entry_arg;  // buffer argument {slot} of element type {T} ("({T}*)bufs[{slot}]")
  // The entry's own parameters for buffer {slot}, joined by ", " into the entry's {params} (C: none,
  // its buffers come in `bufs`; OpenCL: the cl_mem and its byte offset).
  std::string entry_param;
  // The THREAD axis's index as the entry passes it to the kernel; empty: thread_id (C's `thread`).
  std::string entry_thread_id;
  // A statement declaring {dst} of type {D} holding the bits of the variable {src} ({size} bytes;
  // {sep} what goes between two statements): memcpy in C, as_{D}() in OpenCL. The bfloat16 and
  // BITCAST helpers are written with it.
  std::string reinterpret;
  // A function attribute that turns the loop vectorizer off (a GCC workaround, c_renderer.cpp).
  std::string no_loop_vectorize;
  // Literals: the suffix of a float32 constant, of 32- and 64-bit unsigned and 64-bit signed ints,
  // and the spellings of NaN and infinity in float32 and float64.
  std::string float_suffix, uint32_suffix, uint64_suffix, int64_suffix;
  std::string nan32, nan64, inf32, inf64;
  // A math function {fn} ("sqrt", "exp2", ...) on float32 (float16 and bfloat16 compute in it) and
  // on float64: "{fn}f" and "{fn}" in C.
  std::string math32, math64;
  // Vector types: the name of {n} lanes of {T} ({tag}: type_tag), its declaration ({V}: the name,
  // {bytes}; empty: built in), and a vector made of lanes: vector_open, lanes joined by ", ",
  // vector_close.
  std::string vector_name, vector_typedef, vector_open, vector_close;
  // A vector of {n} lanes read from / written to the address {p} of its first element ({v}: the
  // value); empty: C's unaligned og_load_/og_store_ helpers through memcpy.
  std::string vector_load, vector_store;
  // The element type of a bool vector (a comparison's lanes: -1 true, 0 false); empty: the dialect
  // has no bool vectors (its vector unit declares no comparisons).
  std::string vector_mask;
  // Lane {i} of the vector value {v} ({x}: i in hex): `v[i]` in C (GCC vector subscript), `v.si`
  // in OpenCL C.
  std::string vector_lane;
  // The expression of a vector op where the dialect spells it its own way (OpenCL C's built-ins:
  // render/opencl_vectors.h); null: C's (c_vector.cpp).
  std::string (*vector_expr)(const UOp& u, int64_t lanes, const std::vector<std::string>& src, c_render::Prelude& prelude) = nullptr;
  // Workgroups (C has none): the qualifier of local memory, the barrier, and the index of a launch
  // axis in launch dim {dim}: a GLOBAL axis's (the workgroup's) and a local one's (the work item's
  // in its group). Local buffers are declared in the entry ({locals}) and passed to the kernel.
  std::string local_prefix, barrier, group_id, local_id;
  // A dialect without workgroups declares a LOCAL buffer (a THREAD part's own: codegen/pack_panels.h)
  // where the kernel first needs it, as {T} {name}[{size}] on its stack; empty: in the entry.
  std::string local_array;

  std::string value_type(DType dt) const;    // a value of dt in a kernel
  std::string storage_type(DType dt) const;  // one element of a buffer: bool as UINT8's, bfloat16 as UINT16's
  std::string type(DType dt) const { return value_type(dt); }
  std::string cast(DType dt) const { return "(" + value_type(dt) + ")"; }  // "(double)"
  std::string math_fn(const std::string& fn, DType dt) const;  // "sqrtf" on float32, "sqrt" on float64
};

// The C of the CPU backend (C11 with GCC extensions, compiled by runtime/cpu_compiler.h).
const CDialect& c_dialect();

// `tmpl` with each {key} replaced by its value.
std::string fill(std::string_view tmpl, std::initializer_list<std::pair<std::string_view, std::string_view>> parts);

}  // namespace onegrad
