// Optimize (spec: Kernel Optimizations, Lowering Pipeline): OptOps on a kernel's ranges.
//
// An opt is a triple (op, axis, arg); axes are numbered by their position in kernel_axes() (the
// kernel's RANGEs in loop-nest order) at the moment the opt is applied, so opts compose left to
// right. Applying an opt never changes what the kernel computes, only how: an illegal opt throws
// OptError naming the opt, the kernel's shape and the rule it breaks. docs/kernel_opts.md.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "codegen/capabilities.h"
#include "uop/errors.h"
#include "uop/uop.h"

namespace onegrad {

// An opt that cannot apply to a kernel (axis out of range, a factor that does not divide the axis,
// a target the axis cannot be split into, an axis kind or tensor core the target does not declare).
struct OptError : Error {
  using Error::Error;
};

struct Opt {
  OptOp op;
  int64_t axis = 0;                  // SPLIT, PADTO, SWAP: the axis
  int64_t arg = 0;                   // SPLIT: the factor k; PADTO: the multiple; SWAP: the other axis
  AxisType target = AxisType::LOOP;  // SPLIT: the type of the new sub-axis
  bool top = false;                  // SPLIT: the new sub-axis is the outer one, (k, n/k)

  static Opt split(int64_t axis, int64_t k, AxisType target, bool top = false) { return {OptOp::SPLIT, axis, k, target, top}; }
  static Opt swap(int64_t a, int64_t b) { return {OptOp::SWAP, a, b}; }
  static Opt padto(int64_t axis, int64_t m) { return {OptOp::PADTO, axis, m}; }
  std::string text() const;  // "SPLIT(1, 4, UPCAST)", "SPLIT(0, 2, LOOP, top)", "SWAP(0, 1)"
  bool operator==(const Opt&) const = default;
};

// The most copies Expand may make of any one node of a kernel: the product of the UPCAST and UNROLL
// bounds it varies with (axes of separate reductions do not multiply).
inline constexpr int64_t kMaxExpansion = 256;

// The LOOP ranges a scan carries an accumulator across (the ranges of each REDUCE that is_scan,
// uop/range_axis.h).
std::vector<UOpRef> scanned_ranges(const UOpRef& sink);
// Whether the kernel has a scan or stores to an address read from memory (a scatter): its loops
// run whole and in order, and apply_opt refuses every opt that would split, pad or swap them. The
// precision rule's GROUP_REDUCE levels and pads of a REDUCE axis apply: they leave the loops alone.
bool runs_in_order(const UOpRef& sink);

// The kernel with one opt applied (throws OptError when it does not apply). `in_order`: the
// kernel's runs_in_order, when the caller knows it. No opt makes or removes a scan or a scatter, so
// a search asks once for the kernel it starts from instead of walking every kernel it tries twice.
// `target`: the capabilities the axes it makes must be declared in (codegen/capabilities.h:
// threads for THREAD, launch dims for GLOBAL/LOCAL, local memory for LOCAL, tensor_cores for TC);
// null checks the kernel alone, as for a target with threads and no launch dims, local memory or
// tensor cores (the loop nests every target runs).
UOpRef apply_opt(const UOpRef& sink, const Opt& opt, std::optional<bool> in_order = std::nullopt,
                 const Capabilities* target = nullptr);
// The opts applied left to right (runs_in_order asked at most once).
UOpRef apply_opts(const UOpRef& sink, const std::vector<Opt>& opts, const Capabilities* target = nullptr);
std::string opts_text(const std::vector<Opt>& opts);  // "[SPLIT(1, 4, UPCAST), ...]"

}  // namespace onegrad
