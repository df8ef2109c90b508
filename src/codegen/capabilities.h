// What a backend declares it has (DESIGN decision 7). The pipeline decides what to decompose, what
// to vectorize, which axes to make and what to refuse by reading these facts, never by asking which
// backend it is. Each field and who reads it:
//
//   renders            isel: select_instructions decomposes a decomposed op the target lacks;
//                      check_target refuses any op it lacks that has no decomposition
//   dtypes             isel: check_target refuses a kernel holding a dtype the target lacks
//   vectors            isel: vectorize (lane counts per dtype, the ops with a vector form)
//   threads            opt: a THREAD split needs threads >= 1; heuristics: thread_opts splits
//                      large kernels into that many parts (render/lower_kernel.h: default_opts,
//                      engine/beam_search.h)
//   local_memory_bytes opt: LOCAL axes and a GROUP_REDUCE through local memory need it; without
//                      it GROUP_REDUCE is a level of partial sums (codegen/group_reduce.h)
//   global_max,        opt: GLOBAL / LOCAL axes (launch dimensions) need a nonzero entry per dim
//   local_max
//   tensor_cores       opt: the TC opt needs one
//   panel_bytes        pack_panels: the stack panels one kernel may copy re-read slices to
//   serial_work_items  heuristics: workgroup_opts shapes reductions for a CPU OpenCL device
//
// The C backend's are render/c_renderer.h's c_capabilities(). docs/codegen.md, "Capabilities".
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "uop/errors.h"
#include "uop/uop.h"

namespace onegrad {

// A kernel the target cannot run: a dtype it lacks, or an op it lacks that has no decomposition.
// The message names the target, the op or dtype and the node.
struct TargetError : Error {
  using Error::Error;
};

// What a backend renders as vectors.
struct VectorUnit {
  std::function<std::vector<int64_t>(DType dt)> widths;  // lane counts for dt, preferred first; empty: none
  std::function<bool(Ops op, DType dt)> renders;         // an elementwise op on vectors of dt (a comparison: of its operands)
  // A CAST from vectors of `from` to vectors of `to` lane by lane; empty: casts stay scalar.
  std::function<bool(DType from, DType to)> casts;
  // A BITCAST from vectors of `from` to vectors of `to` (lanes of one size) lane by lane; empty:
  // bitcasts stay scalar.
  std::function<bool(DType from, DType to)> bitcasts;
};

// One tensor-core instruction: a (m, n, k) matrix multiply-accumulate of `in` operands into `acc`.
struct TensorCore {
  int64_t m = 0, n = 0, k = 0;
  DType in = dtypes::float16, acc = dtypes::float32;
};

struct Capabilities {
  Capabilities() = default;
  // A target described by its ops alone (Instruction Selection's tests): the other facts empty.
  Capabilities(std::string name, std::function<bool(Ops, DType)> renders) : name(std::move(name)), renders(std::move(renders)) {}

  std::string name;  // in errors and traces: "target 'C' has no ..."
  // Whether the target renders op on operands of dtype dt itself (for comparisons, the operand
  // dtype, not bool). Asked for every elementwise op; a decomposed op it lacks is decomposed.
  std::function<bool(Ops op, DType dt)> renders;
  // The scalar dtypes a kernel may hold (values and buffer elements); INDEX is the pipeline's own
  // and always allowed. Empty: every dtype.
  std::vector<DType> dtypes;
  VectorUnit vectors;                 // no widths function: no vectors
  int threads = 0;                    // THREAD parts run at once; 0: no THREAD axes
  int64_t local_memory_bytes = 0;     // per workgroup; 0: no local memory
  int64_t panel_bytes = 0;            // packed panels' budget per kernel (codegen/pack_panels.h); 0: none
  std::vector<int64_t> global_max;    // the largest GLOBAL size per launch dim; empty: no GLOBAL axes
  std::vector<int64_t> local_max;     // the largest LOCAL size per launch dim; empty: no LOCAL axes
  int64_t workgroup_max = 0;          // work items per workgroup (the product of its local sizes); 0: no limit
  // A workgroup's work items run one after another on one core, as a loop the driver vectorizes
  // (an OpenCL CPU device: PoCL): lanes buy SIMD, not cores, and each workgroup costs a task.
  bool serial_work_items = false;
  std::vector<TensorCore> tensor_cores;

  bool has_dtype(DType dt) const;  // dt's scalar type is declared (INDEX and VOID always)
};

// Throws TargetError at the first node of `sink` whose dtype the target lacks, or whose op it
// neither renders nor can have decomposed (Instruction Selection ran before: what is left must be
// rendered as it stands).
void check_target(const UOpRef& sink, const Capabilities& caps);

}  // namespace onegrad
