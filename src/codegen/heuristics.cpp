#include "codegen/heuristics.h"

#include <algorithm>
#include <cstdlib>
#include <random>
#include <tuple>

#include "codegen/decided_band.h"
#include "codegen/elementwise_opts.h"
#include "codegen/expansion_cost.h"
#include "codegen/kernel_axes.h"
#include "codegen/reduce_precision.h"
#include "symbolic/simplify.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

bool depends_on(const UOpRef& expr, const UOpRef& r) {
  for (const UOp* u : expr->toposort())
    if (u == r.get()) return true;
  return false;
}

// How far the address moves when `r` goes from 0 to 1 with every other range at 0; nullopt when
// the simplifier cannot fold it to a constant (symbolic strides).
std::optional<int64_t> stride(const UOpRef& addr, const UOpRef& r, const std::vector<UOpRef>& axes) {
  auto at = [&](int64_t v) -> std::optional<int64_t> {
    Substitution s;
    for (const UOpRef& a : axes) s[a.get()] = UOp::index(a == r ? v : 0);
    UOpRef e = simplify(substitute(addr, s));
    if (!e->is_const()) return std::nullopt;
    return int64_t(e->const_value().as_int());
  };
  std::optional<int64_t> a = at(0), b = at(1);
  if (!a || !b) return std::nullopt;
  return *b - *a;
}

struct Access {
  UOpRef addr;  // the element index into a global buffer
  bool in_reduce;
  int64_t itemsize;  // the bytes of one of the buffer's elements
};

// The UOps some reduction's body reaches, sorted by address.
std::vector<const UOp*> reduce_bodies(const UOpRef& sink) {
  std::vector<const UOp*> in_reduce;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::REDUCE)
      for (const UOp* v : u->src[0]->toposort()) in_reduce.push_back(v);
  std::sort(in_reduce.begin(), in_reduce.end());
  return in_reduce;
}

// The global loads and stores of the kernel: their element index expressions.
std::vector<Access> accesses(const UOpRef& sink) {
  std::vector<const UOp*> in_reduce = reduce_bodies(sink);
  std::vector<Access> out;
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::INDEX || u->src.size() < 2 || u->src[0]->op != Ops::PARAM) continue;
    out.push_back({u->src[1], std::binary_search(in_reduce.begin(), in_reduce.end(), u), int64_t(u->src[0]->dtype.base().itemsize())});
  }
  return out;
}

// The whole bound when it is at most the first (largest) factor, else the largest of `factors`
// dividing `bound`, or 0.
int64_t pick_factor(int64_t bound, std::initializer_list<int64_t> factors) {
  if (bound <= *factors.begin()) return bound;
  for (int64_t f : factors)
    if (f <= bound && bound % f == 0) return f;
  return 0;
}

// A PADTO draw for random_opts: a multiple from 2 to 8 (apply_opt rejects the illegal ones). It
// shares random_opts' kind draw (kind % 7, where kind % 5 is a SWAP), so seeds that draw no PADTO
// keep the sequences they had before PADTO existed.
Opt random_padto(std::mt19937_64& rng, int64_t axis) { return Opt::padto(axis, 2 + int64_t(rng() % 7)); }

// Accumulators a register block keeps in vector registers: AVX2 has 16, and a step of the
// reduction needs one or two for its loads and a broadcast beside them.
constexpr int64_t kVectorAccumulators = 12;
// The registers one row of a first block of `f` copies takes: vectorize cuts it into runs of 8
// and 4 lanes (AVX2 floats, as first_block_factor assumes) and leaves the rest scalars.
int64_t block_registers(int64_t f) { return f / 8 + f % 8 / 4 + f % 4; }

// The second blocked axis's factor: the one (of 16, 12, 8, 6, 4, 3, 2 dividing the bound, or the
// whole bound when at most 16) that makes the number of registers of accumulators, the first block's
// (block_registers) times the factor, closest to kVectorAccumulators, the larger on a tie. A 3x3 conv
// 96 -> 24 channels on 80x80 blocked 16 columns x 6 channels (12 accumulators) runs 3.4-3.7 ms per
// call where 16 x 8 (16, spilled) took 5.5-6.3 and 16 x 4 (8) 9.5-10; on 40x40, 8 x 12 0.90 ms
// against 8 x 8 1.04. sgemm, whose 1024 has no 6 or 12, keeps 16 x 8 (16 x 4 took twice as long).
int64_t second_block_factor(int64_t bound, int64_t first, bool gated) {
  if (gated) return pick_factor(bound, {4, 3, 2});
  int64_t row = block_registers(first), best = 0, best_gap = 0;
  for (int64_t g : {bound, int64_t(16), int64_t(12), int64_t(8), int64_t(6), int64_t(4), int64_t(3), int64_t(2)}) {
    if (g < 2 || g > 16 || bound % g != 0) continue;
    int64_t gap = std::abs(row * g - kVectorAccumulators);
    if (best == 0 || gap < best_gap || (gap == best_gap && g > best)) best = g, best_gap = gap;
  }
  return best;
}

// The first blocked axis's factor: up to 16 (two AVX vectors of floats), or 8 and 4 when loads are
// gated. Vectorize cuts the block's copies into runs of 8 and 4 lanes, so a block that is no
// multiple of 4 leaves scalar copies beside the vectors: a bound that 20 divides but 8 does not is
// blocked by 20 rather than 4 (8 + 8 + 4 lanes; a 1x1 conv on 20x20 went from 0.98 to 0.63 ms per
// call, a depthwise 5x5 on 20x20 from 0.21 to 0.09 ms, a 1x1 conv 384 -> 384 on 10x10 pixels as
// one axis of 100 from 0.96 ms at 4 lanes x 12 channels to 0.67 ms at 20 x 4).
int64_t first_block_factor(int64_t bound, bool gated) {
  if (gated) return pick_factor(bound, {8, 4, 3, 2});
  if (bound > 16 && bound % 8 != 0 && bound % 20 == 0) return 20;
  return pick_factor(bound, {16, 8, 4, 3, 2});
}

// A first block of `f` whose second axis was taken whole at `g` (a depthwise conv's 2 or 3 output
// rows under 16 columns: 4 or 6 accumulators) keeps too few independent chains to hide the latency
// of its fused multiply-adds: the first block widens to the largest multiple of 8 lanes dividing
// `bound`, up to 64, whose accumulators still fit kVectorAccumulators (2 x 48 and 3 x 32 columns:
// 12 registers). PaddleOCR cls's depthwise 5x5 at batch 16, all thread parts on one core: 200
// channels on 2x96 0.93 -> 0.72 ms, 88 on 3x96 0.48 -> 0.41 ms.
int64_t widened_first_block(int64_t bound, int64_t f, int64_t g, bool gated) {
  if (gated || block_registers(f) * g >= kVectorAccumulators) return f;
  int64_t best = f;
  for (int64_t w = 8; w <= 64; w += 8)
    if (w > best && bound % w == 0 && block_registers(w) * g <= kVectorAccumulators) best = w;
  return best;
}

// The most accumulator registers a block traded by unspilled_blocks may take: 40 rows x 240
// columns as 24 columns x 4 rows (12 registers) ran 10% slower than the spilled 16 x 8, 40 x 2 (10)
// as fast or faster (0.031-0.034 ms against 0.033-0.040 per call, one core).
constexpr int64_t kTradedAccumulators = 10;

// A first block of `f` and a second of `g` whose accumulators spill (more than kVectorAccumulators
// registers) where the second axis's bound has no 16, 12 or 6 (40 rows: 16 columns x 8 rows, 16
// registers, won a tie against 16 x 4, 8) trade rows for columns when that comes strictly closer to
// kVectorAccumulators within kTradedAccumulators: the first block widens to a multiple of 8 lanes
// up to 64 dividing `first_bound`, the second narrows to a factor of `second_bound` (12, 8, 6, 4,
// 3, 2, or the whole bound up to 16). PaddleOCR rec's classifier matmul 40 x 120 @ 120 x 6640 gets
// 40 columns x 2 rows (10 registers): 1.8-2.4 -> 1.1-1.7 ms per call on one core (16 x 5, 10
// registers too: 1.1-2.3). A second bound that 16 divides keeps its block (sgemm 1024: 16 x 8; 16
// x 4 took twice as long), as do the 1x1 convs over 80 or 240 pixels or channels this would reach.
std::pair<int64_t, int64_t> unspilled_blocks(int64_t first_bound, int64_t f, int64_t second_bound, int64_t g, bool gated) {
  int64_t gap = std::abs(block_registers(f) * g - kVectorAccumulators);
  if (gated || second_bound % 16 == 0 || block_registers(f) * g <= kVectorAccumulators) return {f, g};
  std::pair<int64_t, int64_t> best{f, g};
  for (int64_t w = 8; w <= 64; w += 8) {
    if (w <= f || first_bound % w != 0) continue;
    for (int64_t h : {second_bound, int64_t(16), int64_t(12), int64_t(8), int64_t(6), int64_t(4), int64_t(3), int64_t(2)}) {
      int64_t registers = block_registers(w) * h;
      if (h < 2 || h > 16 || second_bound % h != 0 || registers > kTradedAccumulators) continue;
      if (kVectorAccumulators - registers < gap) best = {w, h}, gap = kVectorAccumulators - registers;
    }
  }
  return best;
}

// How many rows of the axis outside a whole blocked axis of bound `f` (a conv's output width of 10)
// join the block so that it splits into whole vectors: the smallest m dividing `rows` with m*f a
// multiple of 8 (up to 40 lanes), else of 4 (up to 24); 1 when none fits.
int64_t rows_to_whole_vectors(int64_t f, int64_t rows) {
  for (auto [lanes, most] : {std::pair<int64_t, int64_t>{8, 40}, {4, 24}})
    for (int64_t m = 2; m * f <= most; m++)
      if (rows % m == 0 && (m * f) % lanes == 0) return m;
  return 1;
}

// The next smaller block factor below `f` that divides `bound` (1 when none does).
int64_t smaller_factor(int64_t bound, int64_t f) {
  for (int64_t g : {64, 32, 16, 8, 4, 3, 2})
    if (g < f && bound % g == 0) return g;
  return 1;
}

// Whether the reduction over `axis` unrolled by `copies` keeps a loop inside its innermost level
// once the precision rule has cut it (docs/kernel_opts.md, "Partial sums"). Expand splits an
// unrolled reduction into lane accumulators only around such a loop; a level that is its copies
// alone folds them into one accumulator, one dependent add per element. A spatial mean over 6x80
// unrolled by 16 leaves 5 steps of 16 (80 terms, over the chunk of 64): the rule makes the 5 a level
// (`G6 G5 r16`) and the row a single chain; by 8 it is `G6 G2 R5 r8`, a vector accumulator.
bool unroll_keeps_a_lane_loop(const UOpRef& sink, size_t axis, int64_t copies) {
  UOpRef k;
  try {
    k = apply_opt(sink, Opt::split(int64_t(axis), copies, AxisType::UNROLL));
    k = apply_opts(k, precision_opts(k));
  } catch (const OptError&) {
    return false;
  }
  for (const UOp* u : k->toposort()) {
    if (u->op != Ops::REDUCE) continue;
    std::vector<UOpRef> ranges(u->src.begin() + 1, u->src.end());
    if (std::none_of(ranges.begin(), ranges.end(), [](const UOpRef& r) { return axis_type(r) == AxisType::UNROLL; })) continue;
    std::sort(ranges.begin(), ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) < axis_id(b); });
    // the innermost level: the ranges after the last GROUP_REDUCE in loop-nest order
    bool loop = false;
    for (const UOpRef& r : ranges) {
      if (axis_type(r) == AxisType::GROUP_REDUCE) loop = false;
      else if (axis_type(r) == AxisType::REDUCE && const_bound(r).value_or(2) > 1) loop = true;
    }
    if (!loop) return false;
  }
  return true;
}

// The unroll for a reduction over `axis` that no upcast block feeds (a row's sum or maximum, a
// softmax's sum of exponentials beside its upcast output loop) whose loads along it are all
// ungated and unit-stride: 16 copies (8 when the bound is no multiple of 16, or when 16 would leave
// the precision rule's innermost level no loop and 8 does not: unroll_keeps_a_lane_loop), which
// vectorize accumulates in vector lanes (codegen/vectorize.h), so the row is read and reduced as
// vectors. 0 when the rule does not apply.
int64_t vector_row_unroll(const UOpRef& sink, const std::vector<UOpRef>& axes, size_t axis, const std::vector<size_t>& upcast) {
  int64_t bound = *const_bound(axes[axis]);
  int64_t copies = bound % 16 == 0 ? 16 : bound % 8 == 0 ? 8 : 0;
  if (copies == 0 || bound < 2 * copies) return 0;
  bool reads_row = false;
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::REDUCE || std::find(u->src.begin() + 1, u->src.end(), axes[axis]) == u->src.end()) continue;
    for (const UOp* v : u->src[0]->toposort()) {
      if (v->op != Ops::INDEX || v->src.size() < 2 || v->src[0]->op != Ops::PARAM || !depends_on(v->src[1], axes[axis])) continue;
      if (v->src.size() > 2 || stride(v->src[1], axes[axis], axes) != 1) return 0;
      reads_row = true;
    }
    for (size_t a : upcast)
      if (depends_on(u->src[0], axes[a])) return 0;
  }
  if (!reads_row) return 0;
  if (copies == 16 && !unroll_keeps_a_lane_loop(sink, axis, 16) && unroll_keeps_a_lane_loop(sink, axis, 8)) return 8;
  return copies;
}

// Whether the reduction has more than half as many terms (the product of its constant reduce
// bounds) as `outputs`, the bound of the output axis a loop swap would move inside (hand_coded_opts).
bool reduce_terms_cover_outputs(const std::vector<UOpRef>& axes, const std::vector<size_t>& reds, int64_t outputs) {
  int64_t terms = 1;
  for (size_t r : reds) terms *= *const_bound(axes[r]);
  return outputs < 2 * terms;
}

// The axes whose whole unroll decides the padding gate of every gated load the reduction moves:
// each such gate compares only output loops and reduce axes of constant bound (a conv's rows read
// through a view pad, `0 <= oy + ky - 1 < 2`: tensor/conv_pads.h), with at most
// kDecidedGateCopies combinations of them over all the gates. Every copy of the body unrolled
// over them has constant rows and taps: its gates fold, and a load of padding is a zero. Empty
// when there is no such gate, or one compares another range (the columns) or a symbolic size.
std::vector<size_t> decided_gate_axes(const UOpRef& sink, const std::vector<UOpRef>& axes, const std::vector<size_t>& outs,
                                      const std::vector<size_t>& reds, const std::vector<const UOp*>& reduce_moved_nodes) {
  std::vector<size_t> decided;
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::LOAD || u->src.size() < 3 || u->src[0]->op != Ops::INDEX ||
        !std::binary_search(reduce_moved_nodes.begin(), reduce_moved_nodes.end(), u) ||
        std::none_of(reds.begin(), reds.end(), [&](size_t r) { return depends_on(u->src[0], axes[r]); }))
      continue;
    for (const UOp* v : u->src[2]->toposort()) {
      if (v->op == Ops::PARAM || v->op == Ops::LOAD || v->op == Ops::INDEX) return {};
      if (v->op != Ops::RANGE) continue;
      auto a = std::find_if(axes.begin(), axes.end(), [&](const UOpRef& r) { return r.get() == v; });
      size_t i = size_t(a - axes.begin());
      if (a == axes.end() || (std::find(outs.begin(), outs.end(), i) == outs.end() && std::find(reds.begin(), reds.end(), i) == reds.end()))
        return {};
      if (std::find(decided.begin(), decided.end(), i) == decided.end()) decided.push_back(i);
    }
  }
  int64_t copies = 1;
  for (size_t a : decided) copies *= *const_bound(axes[a]);
  if (copies > kDecidedGateCopies) return {};
  std::sort(decided.begin(), decided.end());
  return decided;
}

// m when an in-reduce load reads the output axis `r` as (r / m, r % m): a weight laid out in blocks
// of m channels (ONNX Conv's, conv_channel_block). A block of m copies folds both to the block's
// index and each copy's constant; any other block keeps a division and a remainder per load.
int64_t layout_block(const std::vector<Access>& acc, const UOpRef& r) {
  int64_t bound = *const_bound(r);
  for (const Access& x : acc) {
    if (!x.in_reduce) continue;
    for (const UOp* u : x.addr->toposort()) {
      if (u->op != Ops::MOD || u->src[0].get() != r.get() || !u->src[1]->is_const()) continue;
      int64_t m = u->src[1]->const_value().as_int();
      if (m > 1 && m < bound && bound % m == 0) return m;
    }
  }
  return 0;
}

}  // namespace

int64_t conv_channel_block(int64_t cout, int64_t width) {
  int64_t f = first_block_factor(width, false);
  if (f < 4) return 0;
  int64_t g = second_block_factor(cout, f, false);
  if (g <= 1 || g >= cout) return 0;
  g = unspilled_blocks(width, f, cout, g, false).second;
  return g > 1 && g < cout ? g : 0;
}

// Register blocking for reductions: an output axis that some load inside the reduction does not
// depend on is one where upcasting reuses that load across accumulators (matmul: A's row for every
// column of the block, B's row for every row). The one with unit-stride loads gets up to 16 (two
// AVX vectors of floats), a second one, preferably one the first's unit-stride loads do not depend
// on, what fills about 12 accumulator registers (second_block_factor; 8 and 4 when loads are
// gated, docs/kernel_opts.md). Without reuse (row or column sums) the unit-stride output
// axis (or the innermost) is upcast for independent accumulators. The innermost reduce axis is unrolled
// when few accumulators were made. Elementwise kernels are left to the C compiler's vectorizer.
std::vector<Opt> hand_coded_opts(const UOpRef& sink) {
  std::vector<UOpRef> axes = kernel_axes(sink);
  std::vector<size_t> outs, reds;
  for (size_t i = 0; i < axes.size(); i++) {
    if (!const_bound(axes[i])) continue;
    if (axis_type(axes[i]) == AxisType::LOOP) outs.push_back(i);
    if (axis_type(axes[i]) == AxisType::REDUCE) reds.push_back(i);
  }
  if (reds.empty()) return {};
  std::vector<Access> acc = accesses(sink);
  struct Choice {
    size_t axis;
    int64_t factor;
  };
  std::vector<Choice> ups;
  // A load that no reduce axis moves (a per-channel scale inside a fused mean) is loaded once per
  // output, outside the reduce loop: blocking cannot share it further, so it is no reuse.
  auto reduce_moved = [&](const Access& x) {
    return std::any_of(reds.begin(), reds.end(), [&](size_t r) { return depends_on(x.addr, axes[r]); });
  };
  auto reuse = [&](size_t a) {
    int n = 0;
    for (const Access& x : acc) n += x.in_reduce && reduce_moved(x) && !depends_on(x.addr, axes[a]);
    return n;
  };
  // Only loads the reduction moves count here too: a per-channel scale inside a fused mean is
  // unit-stride along the channels, but read once per output; counted, it made a BatchNorm +
  // hardswish + mean over 2x96 pixels look like a column sum (8 channels upcast, each lane a
  // gather of stride 192) instead of a row read as vectors.
  auto unit_stride = [&](size_t a) {
    for (const Access& x : acc)
      if (x.in_reduce && reduce_moved(x) && stride(x.addr, axes[a], axes) == 1) return true;
    return false;
  };
  // Padded (gated) loads inside the reduction carry their validity and index math into every copy:
  // smaller blocks and no loop reordering there (conv2d measured about 20% faster with 8x4 than with
  // 16x8). A gated load that no reduce axis moves (a bias padded to the lane width, read once per
  // output after the reduce) is not copied per step: it keeps the full blocks (a 1x1 conv of
  // 384 -> 368 channels on 10x10 with such a bias: 3.0 ms at 4 x 2 scalar, 1.0 ms at 10 x 8).
  // Nor does a window's padding gate that the output loops decide (split_padded_loops runs their
  // middle without it).
  std::vector<const UOp*> out_loops;
  for (size_t a : outs) out_loops.push_back(axes[a].get());
  std::vector<const UOp*> reduce_moved_nodes;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::REDUCE)
      for (const UOp* v : u->src[0]->toposort()) reduce_moved_nodes.push_back(v);
  std::sort(reduce_moved_nodes.begin(), reduce_moved_nodes.end());
  // Nor does one that unrolling its rows and taps whole decides (decided_gate_axes): those axes are
  // taken whole below, the first block narrowed to fit.
  std::vector<size_t> decided = decided_gate_axes(sink, axes, outs, reds, reduce_moved_nodes);
  auto is_decided = [&](size_t a) { return std::find(decided.begin(), decided.end(), a) != decided.end(); };
  bool gated = false;
  for (const UOp* u : sink->toposort())
    if (decided.empty() && u->op == Ops::LOAD && u->src.size() >= 3 && u->src[0]->op == Ops::INDEX &&
        std::binary_search(reduce_moved_nodes.begin(), reduce_moved_nodes.end(), u) &&
        std::any_of(reds.begin(), reds.end(), [&](size_t r) { return depends_on(u->src[0], axes[r]); }) &&
        !gate_splits_away(*u->src[2], out_loops))
      gated = true;
  std::vector<size_t> reusing;
  for (size_t a : outs)
    if (reuse(a) > 0) reusing.push_back(a);
  // first the unit-stride axis (innermost first), then any other
  std::stable_sort(reusing.begin(), reusing.end(), [&](size_t a, size_t b) { return unit_stride(a) > unit_stride(b) || (unit_stride(a) == unit_stride(b) && a > b); });
  // ... unless that axis is too short for one vector (a conv over 3 positions) and another
  // unit-stride axis makes whole 8-lane blocks (its output channels, when the weight keeps them
  // innermost): the channels then take the vector lanes and the positions the second block.
  if (reusing.size() > 1 && unit_stride(reusing[0]) && first_block_factor(*const_bound(axes[reusing[0]]), gated) < 4) {
    auto whole = std::find_if(reusing.begin() + 1, reusing.end(), [&](size_t a) {
      return unit_stride(a) && first_block_factor(*const_bound(axes[a]), gated) % 8 == 0;
    });
    if (whole != reusing.end()) std::rotate(reusing.begin(), whole, whole + 1);
  }
  // the first blocked axis and the rows joined to it (none: npos)
  constexpr size_t npos = size_t(-1);
  size_t vector_axis = npos, joined_rows = npos;
  if (!reusing.empty()) {
    size_t first = reusing[0];
    vector_axis = first;
    int64_t f = first_block_factor(*const_bound(axes[first]), gated);
    if (f > 1) ups.push_back({first, f});
    // A whole first axis that is no multiple of 4 (a 10-wide output row: 8 lanes and 2 scalars)
    // takes rows of the output axis just outside it, where every access walks on as one axis (the
    // element after a row's last is the next row's first: a 1x1 conv's 10x10 pixels, not a 3x3
    // conv's windows into 12-wide padded rows), so the block is whole vectors (2 x 10 = 8 + 8 + 4;
    // a 1x1 conv of 384 channels on 10x10: 1.24 -> 0.65 ms per call).
    size_t outer = first;
    int64_t f_rows = f;
    if (!gated && f > 1 && f == *const_bound(axes[first]) && f % 4 != 0 && first > 0 &&
        std::find(outs.begin(), outs.end(), first - 1) != outs.end()) {
      size_t o = first - 1;
      bool merges = std::all_of(acc.begin(), acc.end(), [&](const Access& x) {
        std::optional<int64_t> so = stride(x.addr, axes[o], axes), sf = stride(x.addr, axes[first], axes);
        return so && sf && *so == f * *sf;
      });
      int64_t m = merges ? rows_to_whole_vectors(f, *const_bound(axes[o])) : 1;
      if (m > 1) {
        ups.push_back({o, m});
        outer = joined_rows = o;
        f_rows = f * m;
      }
    }
    // The second blocked axis should reuse the loads the first one walks with unit stride (matmul:
    // B's row across the rows of the block; conv: the input window across output channels).
    auto reuses_first = [&](size_t b) {
      for (const Access& x : acc)
        if (x.in_reduce && stride(x.addr, axes[first], axes) == 1 && depends_on(x.addr, axes[b])) return false;
      return true;
    };
    std::vector<size_t> rest;
    for (size_t b : reusing)
      if (b != first && b != outer) rest.push_back(b);
    std::stable_sort(rest.begin(), rest.end(), [&](size_t a, size_t b) { return reuses_first(a) > reuses_first(b); });
    for (size_t b : rest) {
      int64_t g = layout_block(acc, axes[b]);
      if (g == 0) g = second_block_factor(*const_bound(axes[b]), f_rows, gated);
      if (g > 1 && !ups.empty()) {
        ups.push_back({b, g});
        if (ups[0].axis == first && outer == first && g == *const_bound(axes[b]))
          ups[0].factor = widened_first_block(*const_bound(axes[first]), f, g, gated);
        else if (ups[0].axis == first && outer == first)
          std::tie(ups[0].factor, ups.back().factor) = unspilled_blocks(*const_bound(axes[first]), f, *const_bound(axes[b]), g, gated);
        break;
      }
    }
    // A matrix-vector product (its one output axis blocked, nothing else to block) keeps only the
    // first block's vectors as accumulators: 16 columns are two dependent FMA chains per step. Up
    // to 64 columns (8 vector accumulators: the FMA latency times its two ports) keep them busy.
    if (outs.size() == 1 && ups.size() == 1 && !gated && ups[0].factor == 16)
      ups[0].factor = pick_factor(*const_bound(axes[first]), {64, 32, 16});
  }
  // A column sum (no reuse, unit stride along the output) reads one row segment per reduce step:
  // 64 columns (four cache lines) per row and the reduce unrolled by 4, so each step streams a
  // 1 KiB tile (4096x4096 f32: 68 ms with 16 columns, 17 ms with 64 x 4).
  // A row sum (unit stride along the reduce axis) is read as vectors into vector lanes instead
  // (vector_row_unroll below): its rows are not upcast.
  bool column_sum = false;
  size_t inner = reds.back();
  if (ups.empty() && !outs.empty()) {
    size_t a = outs.back();
    for (size_t o : outs)
      if (unit_stride(o)) a = o;
    column_sum = unit_stride(a);
    bool vector_rows = !column_sum && vector_row_unroll(sink, axes, inner, {}) > 0;
    int64_t f = column_sum    ? pick_factor(*const_bound(axes[a]), {64, 32, 16, 8, 4, 2})
                : vector_rows ? 0
                              : pick_factor(*const_bound(axes[a]), {8, 4, 2});
    if (f > 1) ups.push_back({a, f});
  }
  // The axes that decide padding gates are taken whole: the output axes blocked, the reduce axes
  // unrolled (planned below). The other blocks narrow, the one beside the vectors first, until every
  // copy fits kMaxExpansion and the accumulators kVectorAccumulators (a depthwise 5x5 conv over 3
  // rows: 16 columns x 3 rows x 5 tap rows, 240 copies, 6 accumulators).
  int64_t decided_unroll = 1;
  for (size_t a : decided) {
    int64_t n = *const_bound(axes[a]);
    auto c = std::find_if(ups.begin(), ups.end(), [&](const Choice& u) { return u.axis == a; });
    if (std::find(reds.begin(), reds.end(), a) != reds.end()) decided_unroll *= n;
    else if (c == ups.end()) ups.push_back({a, n});
    else c->factor = n;
  }
  auto decided_fits = [&] {
    int64_t copies = decided_unroll, registers = 1;
    for (const Choice& c : ups) {
      copies *= c.factor;
      registers *= c.axis == vector_axis ? block_registers(c.factor) : c.factor;
    }
    return copies <= kMaxExpansion && registers <= kVectorAccumulators;
  };
  for (size_t i = ups.size(); !decided.empty() && i-- > 0;) {
    if (is_decided(ups[i].axis) || ups[i].axis == joined_rows) continue;
    while (ups[i].factor > 1 && !decided_fits()) ups[i].factor = smaller_factor(*const_bound(axes[ups[i].axis]), ups[i].factor);
  }
  ups.erase(std::remove_if(ups.begin(), ups.end(), [](const Choice& c) { return c.factor <= 1; }), ups.end());
  // without_epilogue: the ops after the sums left out (what the reduce's unroll is held to)
  auto expanded = [&](int64_t unroll, bool without_epilogue = false) {
    std::vector<AxisFactor> fs;
    for (const Choice& c : ups) fs.push_back({c.axis, c.factor});
    for (size_t r : decided)
      if (std::find(reds.begin(), reds.end(), r) != reds.end()) fs.push_back({r, *const_bound(axes[r])});
    if (unroll > 1) fs.push_back({inner, unroll});
    return expanded_ops(sink, fs, without_epilogue);
  };
  // The budget on code size: a fused body (an LSTM's gates) makes every copy large, while a block
  // that earns its loads back on a matmul only costs compile time there. Shrink the block whose
  // copies cost the most (the one the large part of the body depends on): a block along an axis
  // that part does not depend on stays, as it shares that part among its copies. A first block
  // with rows joined to it stays whole vectors while another block can shrink; then the rows go. So
  // does a first block that takes its whole axis (a 20-wide row, 8 + 8 + 4 lanes): its next smaller
  // factor would leave 4-lane vectors (20 -> 4), where the other block's rows cost the same per copy.
  auto shrinks_now = [&](size_t i) {
    bool whole_row = std::any_of(ups.begin(), ups.end(), [&](const Choice& c) { return c.axis == vector_axis && c.factor == *const_bound(axes[c.axis]); });
    if (joined_rows == npos && !whole_row) return true;
    bool other = std::any_of(ups.begin(), ups.end(), [&](const Choice& c) { return c.axis != vector_axis && c.axis != joined_rows; });
    if (other) return ups[i].axis != vector_axis && ups[i].axis != joined_rows;
    return joined_rows == npos || ups[i].axis == joined_rows;
  };
  while (!ups.empty() && expanded(1) > kExpandedOpsBudget) {
    size_t best = npos;
    int64_t best_cost = -1;
    for (size_t i = 0; i < ups.size(); i++) {
      if (!shrinks_now(i) || is_decided(ups[i].axis)) continue;
      int64_t was = ups[i].factor;
      ups[i].factor = smaller_factor(*const_bound(axes[ups[i].axis]), was);
      int64_t cost = expanded(1);
      ups[i].factor = was;
      // On a tie the first block (the vector lanes) keeps its width: halving it leaves 4-lane
      // vectors where the other block's rows cost the same ops and keep 8.
      bool tie_keeps_lanes = cost == best_cost && ups[best].axis == vector_axis && ups[i].axis != vector_axis;
      if (best_cost < 0 || cost < best_cost || tie_keeps_lanes) best = i, best_cost = cost;
    }
    if (best == npos) break;  // only the blocks that decide gates are left
    if (ups[best].axis == joined_rows) ups[best].factor = 1, joined_rows = npos;
    else ups[best].factor = smaller_factor(*const_bound(axes[ups[best].axis]), ups[best].factor);
    if (ups[best].factor <= 1) ups.erase(ups.begin() + std::ptrdiff_t(best));
  }
  int64_t accumulators = 1;
  for (const Choice& c : ups) accumulators *= c.factor;
  // The vector registers the blocks' accumulators take (block_registers of the first block, rows
  // joined to it included, times the other blocks' factors); 0 without a reusing block whose first
  // axis has unit-stride loads (vectorize's runs).
  int64_t registers = 0;
  if (vector_axis != npos && !ups.empty() && ups[0].axis == vector_axis && unit_stride(vector_axis)) {
    int64_t width = ups[0].factor, rest = 1;
    for (size_t i = 1; i < ups.size(); i++) (ups[i].axis == joined_rows ? width : rest) *= ups[i].factor;
    registers = block_registers(width) * rest;
  }
  std::vector<Opt> opts;
  // Descending axis order: a split shifts only the axes after it, which are already done.
  std::vector<std::pair<size_t, Opt>> planned;
  for (const Choice& c : ups) planned.push_back({c.axis, Opt::split(int64_t(c.axis), c.factor, AxisType::UPCAST)});
  // A block of more accumulator registers than kVectorAccumulators (16 columns x 8 rows: 16, when
  // the rows' bound has no 6 or 12) spills some to the stack, each step loading, adding into and
  // storing them: the reduce unrolled by 2 makes that two multiply-adds per load and store (a 1x1
  // conv 128 -> 128 channels on 12x160 1.44 -> 1.01 ms, sgemm 512 6.6 -> 5.6 ms, one core).
  int64_t unroll = column_sum ? pick_factor(*const_bound(axes[inner]), {4, 2})
                   : registers > kVectorAccumulators ? pick_factor(*const_bound(axes[inner]), {2})
                   : accumulators >= 16 ? 0
                                        : pick_factor(*const_bound(axes[inner]), accumulators >= 4 ? std::initializer_list<int64_t>{2} : std::initializer_list<int64_t>{4, 2});
  std::vector<size_t> upcast;
  for (const Choice& c : ups) upcast.push_back(c.axis);
  // every such reduce axis (a softmax's maximum and its sum of exponentials): no upcast block
  // feeds them, so each body is copied v times alone (opt.h, kMaxExpansion)
  for (size_t r : reds) {
    if (is_decided(r)) {
      planned.push_back({r, Opt::split(int64_t(r), *const_bound(axes[r]), AxisType::UNROLL)});
      if (r == inner) unroll = 0;
      continue;
    }
    int64_t v = vector_row_unroll(sink, axes, r, upcast);
    if (v == 0) continue;
    if (r == inner) unroll = 0;
    // its copies become one vector op each: the budget is on them alone, not with the blocks
    if (expanded_ops(sink, {{r, v}}) <= kExpandedOpsBudget) planned.push_back({r, Opt::split(int64_t(r), v, AxisType::UNROLL)});
  }
  // The unroll copies the reduction's body, not an epilogue after it (a fused BatchNorm and residual
  // add, once per output): it is held to the budget without that (docs/kernel_opts.md).
  if (accumulators * decided_unroll * unroll > kMaxExpansion || (unroll > 1 && expanded(unroll, true) > kExpandedOpsBudget)) unroll = 0;
  if (unroll > 1) planned.push_back({inner, Opt::split(int64_t(inner), unroll, AxisType::UNROLL)});
  std::sort(planned.begin(), planned.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& p : planned) opts.push_back(p.second);
  // Loop order: with two blocked axes, the unit-stride one's outer loop goes outside the other's, so
  // the panel of the operand it walks (B's columns in a matmul) stays in cache while the other
  // operand streams past it (sgemm 1024: about 2x on this machine). The swapped nest reuses that
  // panel's step (one element per reduce term and lane) across the other axis's whole bound, writing
  // an output line per index of it; from twice as many outputs as reduce terms the writes outweigh
  // the reuse and the plain nest (the other axis outside, the first block's row inside, each output
  // row written as a run) is faster: a 1x1 conv 16 -> 32 channels on 160x160 0.85 ms against 2.1 ms
  // swapped, 24 -> 96 on 80x80 0.49 against 0.77 (reduce_terms_cover_outputs).
  if (ups.size() == 2 && ups[1].axis < ups[0].axis && !gated && reduce_terms_cover_outputs(axes, reds, *const_bound(axes[ups[1].axis]))) {
    auto position = [&](size_t axis) {  // where the axis's outer part is once every split is applied
      int64_t p = int64_t(axis);
      for (auto& q : planned)
        if (q.first < axis && *const_bound(axes[q.first]) != q.second.arg) p++;
      return p;
    };
    bool both_split = *const_bound(axes[ups[0].axis]) != ups[0].factor && *const_bound(axes[ups[1].axis]) != ups[1].factor;
    // Windows along the first block's axis (a 3x3 conv's input rows: a reduce axis walks them with
    // unit stride too) read a little past each block, into the next one's lines: there the other
    // axis's loop moves to just inside the first's, past the loops between them (a conv's rows stay
    // outermost), so consecutive blocks read on along the same input rows instead of a column
    // strip down them (a 3x3 conv 96 -> 24 channels on 80x80: 4.0-5.0 ms per call against 5.3-5.7).
    bool windowed = std::any_of(acc.begin(), acc.end(), [&](const Access& x) {
      return x.in_reduce && stride(x.addr, axes[ups[0].axis], axes) == 1 &&
             std::any_of(reds.begin(), reds.end(), [&](size_t r) { return stride(x.addr, axes[r], axes) == 1; });
    });
    std::vector<int64_t> chain;  // the loops the other axis's outer part moves past, itself first
    for (size_t a : outs)
      if (a >= ups[1].axis && a <= ups[0].axis && (a == ups[1].axis || a == ups[0].axis || windowed)) chain.push_back(position(a));
    if (both_split)
      for (size_t i = 0; i + 1 < chain.size(); i++) opts.push_back(Opt::swap(chain[i], chain[i + 1]));
  }
  return opts;
}

std::vector<Opt> elementwise_opts(const UOpRef& sink) {
  std::vector<UOpRef> axes = kernel_axes(sink);
  if (axes.empty() || std::any_of(axes.begin(), axes.end(), [](const UOpRef& r) { return axis_type(r) != AxisType::LOOP; }))
    return {};
  const UOpRef& inner = axes.back();
  std::optional<int64_t> bound = const_bound(inner);
  if (!bound || *bound % kElementwiseLanes != 0) return {};
  bool divided = false;
  for (const Access& x : accesses(sink)) {
    if (!stride(x.addr, inner, axes)) return {};  // an address the simplifier cannot follow
    for (const UOp* u : x.addr->toposort())
      if (u->op == Ops::IDIV && depends_on(u->src[0], inner)) divided = true;
  }
  if (!divided) return {};
  Opt o = Opt::split(int64_t(axes.size() - 1), kElementwiseLanes, AxisType::UPCAST);
  try {
    apply_opt(sink, o, false);
    return {o};
  } catch (const OptError&) {
    return {};
  }
}

std::optional<int64_t> kernel_iterations(const UOpRef& sink) {
  int64_t n = 1;
  for (const UOpRef& r : kernel_axes(sink)) {
    std::optional<int64_t> b = const_bound(r);
    if (!b) return std::nullopt;
    n *= *b;
  }
  return n;
}

namespace {

// The value ops of a body that kMinThreadIterations iterations are counted for (thread_iterations).
constexpr int64_t kThreadBodyOps = 4;

// The busiest thread's share of an uneven THREAD split over the even share it may exceed.
constexpr double kMaxThreadImbalance = 1.1;

// How many times the kernel's body runs at least: a symbolic bound (an ONNX model's batch
// dimension) counts as its least value. A model loaded with a symbolic batch has it as an outer
// loop of every kernel; without this none of them was split (PaddleOCR det: 50 of 202 kernels).
int64_t least_kernel_iterations(const UOpRef& sink) {
  int64_t n = 1;
  for (const UOpRef& r : kernel_axes(sink)) {
    std::optional<int64_t> b = const_bound(r);
    n *= b ? *b : std::max<int64_t>(1, int64_t(r->src[0]->vmin().as_int()));
  }
  return n;
}

// The iterations from which a kernel is split over `threads` threads: kMinThreadIterations for a
// body of up to kThreadBodyOps value ops (expanded_ops: ALU ops on data, loads, stores, reduces),
// proportionally fewer for a heavier one, down to kMinThreadPartIterations per thread. A mean of a
// BatchNorm + hardswish over 6x80 pixels for 480 channels (PaddleOCR rec, 230400 iterations of about
// a dozen ops) takes 0.079 ms on one thread, 0.053 ms in 6 parts on 2 (the generated C alone).
int64_t thread_iterations(const UOpRef& optimized, int threads) {
  int64_t ops = std::max<int64_t>(kThreadBodyOps, expanded_ops(optimized, {}));
  return std::max(kMinThreadIterations * kThreadBodyOps / ops, int64_t(threads) * kMinThreadPartIterations);
}

// The output axes a padded window's gate reads (gate_splits_away): split over threads, each part's
// first and last iterations would be edges of split_padded_loops.
std::vector<bool> padded_axes(const UOpRef& sink, const std::vector<UOpRef>& axes) {
  std::vector<const UOp*> loops;
  for (const UOpRef& r : axes)
    if (axis_type(r) == AxisType::LOOP && const_bound(r)) loops.push_back(r.get());
  std::vector<bool> out(axes.size(), false);
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::LOAD || u->src.size() < 3 || !gate_splits_away(*u->src[2], loops)) continue;
    std::vector<const UOp*> in = u->src[2]->toposort();
    for (size_t a = 0; a < axes.size(); a++)
      if (std::find(in.begin(), in.end(), axes[a].get()) != in.end()) out[a] = true;
  }
  return out;
}

// One core's own cache (AMD Zen 3's L2), which the data a THREAD part reads again and again
// should fit.
constexpr int64_t kCoreCacheBytes = int64_t(512) << 10;

// The bytes a THREAD part of `parts` parts along axis `a` reads again for every index of its
// outermost loop: the loads inside a reduction that do not depend on that loop (the axis's own
// remainder when it is the outermost LOOP axis), each as much of its buffer as the part's axes
// reach (the product of the bounds of the axes its address depends on, `a`'s over `parts`).
// A 1x1 conv split by pixel blocks re-reads the whole weight for every block of its part; split
// by output channels, each part re-reads only its share for every pixel block.
int64_t part_reread_bytes(const UOpRef& optimized, const std::vector<UOpRef>& axes, size_t a, int64_t parts) {
  const UOp* outer = nullptr;
  for (size_t i = 0; i < axes.size() && !outer; i++) {
    if (axis_type(axes[i]) != AxisType::LOOP || !const_bound(axes[i])) continue;
    if (*const_bound(axes[i]) / (i == a ? parts : 1) > 1) outer = axes[i].get();
  }
  int64_t bytes = 0;
  for (const Access& x : accesses(optimized)) {
    if (!x.in_reduce) continue;
    std::vector<const UOp*> in = x.addr->toposort();
    auto reads = [&](const UOp* r) { return std::find(in.begin(), in.end(), r) != in.end(); };
    if (outer && reads(outer)) continue;
    int64_t n = x.itemsize;
    for (size_t i = 0; i < axes.size(); i++) {
      if (!reads(axes[i].get())) continue;
      std::optional<int64_t> b = const_bound(axes[i]);
      if (!b) return 0;  // symbolic: unknown, counted as fitting
      n *= i == a ? *b / parts : *b;
    }
    bytes += n;
  }
  return bytes;
}

// The outermost output axis with a constant bound that 4, 3, 2 or 1 times the threads divides
// (heuristics.h), one that no padded window's gate reads first, and of those first one whose
// parts re-read no more than kCoreCacheBytes (part_reread_bytes; judged at `threads` parts).
std::vector<Opt> even_thread_opts(const UOpRef& optimized, int threads, int64_t iterations) {
  std::vector<UOpRef> axes = kernel_axes(optimized);
  std::vector<bool> padded = padded_axes(optimized, axes);
  std::vector<size_t> order;
  for (size_t a = 0; a < axes.size(); a++)
    if (!padded[a]) order.push_back(a);
  for (size_t a = 0; a < axes.size(); a++)
    if (padded[a]) order.push_back(a);
  std::stable_partition(order.begin(), order.end(), [&](size_t a) {
    return axis_type(axes[a]) != AxisType::LOOP || !const_bound(axes[a]) || *const_bound(axes[a]) % threads != 0 ||
           part_reread_bytes(optimized, axes, a, threads) <= kCoreCacheBytes;
  });
  for (size_t a : order) {
    if (axis_type(axes[a]) != AxisType::LOOP || !const_bound(axes[a])) continue;
    // More parts than threads balance the load (the pool hands out indices as threads free up):
    // when a worker is descheduled on a busy machine, the launching thread takes its remaining
    // parts instead of waiting for it (one part each would leave it waiting for the whole half).
    for (int64_t parts : {4 * int64_t(threads), 3 * int64_t(threads), 2 * int64_t(threads), int64_t(threads)}) {
      if (*const_bound(axes[a]) % parts != 0 || (parts > threads && iterations / parts < kMinThreadPartIterations)) continue;
      Opt o = Opt::split(int64_t(a), parts, AxisType::THREAD);
      try {
        apply_opt(optimized, o, false);
        return {o};
      } catch (const OptError&) {
        break;  // a store that does not depend on this axis: try the next one
      }
    }
  }
  return {};
}

// When no output axis's bound is a multiple of the thread count (a 40 x 6640 matmul blocked 16 x 8
// as L415 u8 L5 u16, as opt_test's rows are: 415 and 5 are odd), the LOOP axis with a divisor d > threads whose parts
// balance within kMaxThreadImbalance (the busiest thread runs ceil(d / threads) of d parts), the
// smallest such d, each part at least kMinThreadPartIterations. 415 = 5 * 83 on 2 threads: 83 parts
// (42 of 83 on the busiest thread), where 5 parts would leave it 3 of 5.
std::vector<Opt> uneven_thread_opts(const UOpRef& optimized, int threads, int64_t iterations) {
  std::vector<UOpRef> axes = kernel_axes(optimized);
  for (size_t a = 0; a < axes.size(); a++) {
    if (axis_type(axes[a]) != AxisType::LOOP || !const_bound(axes[a])) continue;
    int64_t bound = *const_bound(axes[a]);
    for (int64_t d = threads + 1; d <= bound && iterations / d >= kMinThreadPartIterations; d++) {
      if (bound % d != 0) continue;
      double busiest = double((d + threads - 1) / threads) * threads / double(d);
      if (busiest > kMaxThreadImbalance) continue;
      Opt o = Opt::split(int64_t(a), d, AxisType::THREAD);
      try {
        apply_opt(optimized, o, false);
        return {o};
      } catch (const OptError&) {
        break;  // a store that does not depend on this axis
      }
    }
  }
  return {};
}

}  // namespace

int64_t min_thread_iterations(const UOpRef& sink) {
  for (const UOpRef& r : kernel_axes(sink))
    if (axis_type(r) == AxisType::REDUCE) return kMinThreadIterations;
  return kMinElementwiseThreadIterations;
}

std::vector<Opt> thread_opts(const UOpRef& optimized, int threads) {
  if (threads < 2) return {};
  int64_t iterations = least_kernel_iterations(optimized);
  // A heavy body is split from fewer iterations (thread_iterations), an elementwise one from 2^16.
  if (iterations < std::min(thread_iterations(optimized, threads), min_thread_iterations(optimized)) || runs_in_order(optimized))
    return {};
  std::vector<Opt> even = even_thread_opts(optimized, threads, iterations);
  return even.empty() ? uneven_thread_opts(optimized, threads, iterations) : even;
}

std::vector<Opt> default_kernel_opts(const UOpRef& sink, int threads) {
  std::optional<int64_t> iterations = kernel_iterations(sink);
  if (iterations && *iterations < kMinOptIterations) return {};
  std::vector<Opt> opts = hand_coded_opts(sink);
  for (const Opt& o : elementwise_opts(sink)) opts.push_back(o);
  for (const Opt& o : thread_opts(apply_opts(sink, opts), threads)) opts.push_back(o);
  return opts;
}

namespace {

// A THREAD split of a random LOOP axis by a random divisor, appended to `opts` when legal.
void random_thread_split(UOpRef& k, std::mt19937_64& rng, std::vector<Opt>& opts) {
  std::vector<UOpRef> axes = kernel_axes(k);
  std::vector<std::pair<int64_t, int64_t>> choices;  // (axis, parts)
  for (size_t a = 0; a < axes.size(); a++) {
    if (axis_type(axes[a]) != AxisType::LOOP || !const_bound(axes[a])) continue;
    for (int64_t d = 2; d <= std::min<int64_t>(*const_bound(axes[a]), 8); d++)
      if (*const_bound(axes[a]) % d == 0) choices.push_back({int64_t(a), d});
  }
  if (choices.empty()) return;
  auto [axis, parts] = choices[rng() % choices.size()];
  Opt o = Opt::split(axis, parts, AxisType::THREAD);
  try {
    k = apply_opt(k, o);
    opts.push_back(o);
  } catch (const OptError&) {
    // a store that does not depend on the axis: no threads for this kernel
  }
}

}  // namespace

std::vector<Opt> random_opts(const UOpRef& sink, uint64_t seed, int max_opts) {
  std::mt19937_64 rng(seed);
  std::vector<Opt> opts;
  UOpRef k = sink;
  for (int tries = 0; tries < 4 * max_opts && int(opts.size()) < max_opts; tries++) {
    std::vector<UOpRef> axes = kernel_axes(k);
    if (axes.empty()) break;
    int64_t a = int64_t(rng() % axes.size());
    Opt o;
    uint64_t kind = rng();
    if (kind % 5 == 0) {
      o = Opt::swap(a, int64_t(rng() % axes.size()));
    } else if (kind % 7 == 0) {
      o = random_padto(rng, a);
    } else {
      int64_t bound = const_bound(axes[size_t(a)]).value_or(0);
      std::vector<int64_t> divisors;
      for (int64_t d = 2; d <= std::min<int64_t>(bound, 8); d++)
        if (bound % d == 0) divisors.push_back(d);
      if (divisors.empty()) continue;
      AxisType from = axis_type(axes[size_t(a)]);
      bool reduce = from == AxisType::REDUCE;
      int kind = int(rng() % 3);
      AxisType target = kind == 0 ? (reduce ? AxisType::REDUCE : AxisType::LOOP) : (reduce ? AxisType::UNROLL : AxisType::UPCAST);
      o = Opt::split(a, divisors[rng() % divisors.size()], target, rng() % 4 == 0);
    }
    try {
      k = apply_opt(k, o);
      opts.push_back(o);
    } catch (const OptError&) {
      // an illegal draw (an UPCAST of an UPCAST axis, too large an expansion, ...): draw again
    }
  }
  if (rng() % 3 == 0) random_thread_split(k, rng, opts);
  return opts;
}

}  // namespace onegrad
