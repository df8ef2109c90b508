// GPU-style axes on a target with workgroups (OpenCL C's dialect and a PoCL-like target's
// capabilities): GLOBAL and LOCAL axes render as work item indices, GROUP_REDUCE reduces through
// local memory with barriers, the launch dims come with the program, NOLOCALS and the C target
// refuse what they cannot hold. No OpenCL platform needed: these check the lowering and the text;
// tests/engine/cl_axes_test.cpp runs the kernels on one.
#include <gtest/gtest.h>

#include <algorithm>

#include "codegen/gpu_heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/kernels.h"
#include "codegen/launch_dims.h"
#include "codegen/opt_actions.h"
#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"
#include "render/opencl_dialect.h"
#include "render_test_util.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

// out[0] = sum of 1024 floats
constexpr const char* kSum1024 = R"(
%c1024 = CONST index 1024
%c0 = CONST index 0
%c1 = CONST index 1
%s1 = STACK index (%c1)
%s1024 = STACK index (%c1024)
%out = PARAM ptr<float32, GLOBAL> (%s1) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s1024) {slot=1}
%r0 = RANGE index (%c1024) {id=0, REDUCE}
%ii = INDEX ptr<float32, GLOBAL> (%in, %r0)
%x = LOAD float32 (%ii)
%acc = REDUCE float32 (%x, %r0) {ADD, axes=[]}
%oi = INDEX ptr<float32, GLOBAL> (%out, %c0)
%st = STORE void (%oi, %acc)
%sink = SINK void (%st)
)";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Capabilities workgroup_capabilities() {
  DeviceTraits t = testing::gpu_like_traits(false, false);
  t.max_work_items[2] = 64;
  t.local_memory_bytes = 4096;
  return opencl_capabilities("CL:test", t);
}

const RenderTarget& workgroup_target() {
  static const RenderTarget t = c_style_target(opencl_dialect(false, false), workgroup_capabilities());
  return t;
}

template <typename F>
std::string opt_error(F f) {
  try {
    f();
  } catch (const OptError& e) {
    return e.what();
  }
  return "(no OptError)";
}

// g: a GLOBAL axis is the workgroup's index; l: a LOCAL axis the work item's inside it. Neither is
// a loop, and the launch covers groups x local work items per dim.
TEST(Workgroups, GlobalAndLocalAxesAreWorkItemIndices) {
  UOpRef k = parse_graph(kernels::kElementwise);  // L4 L8
  std::vector<Opt> opts = {Opt::split(1, 4, AxisType::LOCAL), Opt::split(0, 4, AxisType::GLOBAL)};
  LoweredKernel lk = lower_kernel(k, "E_4_8", opts, &workgroup_target());
  EXPECT_EQ(kernel_shape(lk.optimized), "g4 L2 l4");
  EXPECT_EQ(lk.spec.global, (std::vector<int64_t>{16}));
  EXPECT_EQ(lk.spec.local, (std::vector<int64_t>{4}));
  const std::string& src = lk.spec.source;
  EXPECT_TRUE(has(src, "const long gidx0 = (long)get_group_id(0);")) << src;
  EXPECT_TRUE(has(src, "const long lidx0 = (long)get_local_id(0);")) << src;
  EXPECT_TRUE(has(src, "for (long r1 = 0; r1 < 2; r1++) {")) << src;  // the LOOP part stays a loop
  EXPECT_FALSE(has(src, "for (long r0")) << src;
  EXPECT_FALSE(has(src, "barrier(")) << src;
  // two GLOBAL axes: the innermost is dim 0
  LoweredKernel two = lower_kernel(k, "E_4_8", {Opt::split(1, 8, AxisType::GLOBAL), Opt::split(0, 4, AxisType::GLOBAL)}, &workgroup_target());
  EXPECT_EQ(kernel_shape(two.optimized), "g4 g8");
  EXPECT_EQ(two.spec.global, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(two.spec.local, (std::vector<int64_t>{1, 1}));
  EXPECT_TRUE(has(two.spec.source, "gidx1 = (long)get_group_id(1);")) << two.spec.source;
}

// out[i, j] = a[i, j] for i < 8, else a[i, j] * 2, for a 16x8 `a`: a concat along the outer axis
constexpr const char* kConcatRows = R"(
%c8 = CONST index 8
%c16 = CONST index 16
%c128 = CONST index 128
%two = CONST float32 2.0
%s128 = STACK index (%c128)
%out = PARAM ptr<float32, GLOBAL> (%s128) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s128) {slot=1}
%r0 = RANGE index (%c16) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, LOOP}
%m = MUL index (%r0, %c8)
%i = ADD index (%m, %r1)
%ai = INDEX ptr<float32, GLOBAL> (%a, %i)
%x = LOAD float32 (%ai)
%y = MUL float32 (%x, %two)
%top = CMPLT bool (%r0, %c8)
%v = WHERE float32 (%top, %x, %y)
%oi = INDEX ptr<float32, GLOBAL> (%out, %i)
%st = STORE void (%oi, %v)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)";

// An outer LOOP split into its concat pieces (codegen/split_padded_loops.h) around a GLOBAL axis:
// both pieces read the one work item index the launch has, gidx0, not a copy of it each (a second
// copy was gidx1, 0 in a launch of one dim: the first rows were written by work item 0 only).
TEST(Workgroups, LoopPiecesShareTheLaunchAxesInsideThem) {
  UOpRef k = parse_graph(kConcatRows);  // L16 L8
  LoweredKernel lk = lower_kernel(k, "E_16_8", {Opt::split(1, 8, AxisType::GLOBAL)}, &workgroup_target());
  EXPECT_EQ(kernel_shape(lk.optimized), "L16 g8");
  EXPECT_EQ(lk.spec.global, (std::vector<int64_t>{8}));
  const std::string& src = lk.spec.source;
  EXPECT_EQ(std::count(src.begin(), src.end(), '?'), 0) << src;  // split: each piece's value decided
  EXPECT_TRUE(has(src, "const long gidx0 = (long)get_group_id(0);")) << src;
  EXPECT_FALSE(has(src, "get_group_id(1)")) << src;
  EXPECT_EQ(src.find("get_group_id("), src.rfind("get_group_id(")) << src;
  // the isel graph's launch axes are the launch's
  EXPECT_EQ(launch_dims(lk.simplified).global, lk.spec.global);
}

// G: each lane sums its part, stores it to local memory, waits at the barrier, then every lane adds
// the group's slots; the first lane stores.
TEST(Workgroups, GroupReduceGoesThroughLocalMemory) {
  UOpRef k = parse_graph(kernels::kRowSum);  // L4 R8
  LoweredKernel lk = lower_kernel(k, "r_4_8", {Opt::split(1, 4, AxisType::GROUP_REDUCE), Opt::split(0, 4, AxisType::GLOBAL)},
                                  &workgroup_target());
  EXPECT_EQ(kernel_shape(lk.optimized), "g4 R2 G4 R4");  // the lanes, and the new reduce over their slots
  EXPECT_EQ(lk.spec.global, (std::vector<int64_t>{16}));
  EXPECT_EQ(lk.spec.local, (std::vector<int64_t>{4}));
  const std::string& src = lk.spec.source;
  EXPECT_TRUE(has(src, "  __local float lds0[4];\n")) << src;  // declared in the entry
  EXPECT_TRUE(has(src, "__local float* restrict lds0")) << src;
  EXPECT_TRUE(has(src, "barrier(CLK_LOCAL_MEM_FENCE);")) << src;
  EXPECT_TRUE(has(src, "lds0[lidx0] = ")) << src;
  EXPECT_TRUE(has(src, "if (((lidx0 != 0) != 1)) {\n    b0[gidx0] = ")) << src;  // lane 0 stores the group's result
  // not in a loop: one barrier (the slots are written once)
  EXPECT_EQ(src.find("barrier("), src.rfind("barrier(")) << src;
  EXPECT_TRUE(has(opts_text(lk.opts), "SPLIT(1, 4, GROUP_REDUCE)")) << opts_text(lk.opts);
}

// Without local memory (the C target) GROUP_REDUCE is a level of partial sums: no lanes, no barrier.
TEST(Workgroups, GroupReduceOnTheCpuStaysLevels) {
  UOpRef k = parse_graph(kernels::kRowSum);
  LoweredKernel lk = lower_kernel(k, "r_4_8", {Opt::split(1, 4, AxisType::GROUP_REDUCE)});
  EXPECT_EQ(kernel_shape(lk.optimized), "L4 R2 G4");
  EXPECT_TRUE(lk.spec.global.empty());
  EXPECT_FALSE(has(lk.spec.source, "lds")) << lk.spec.source;
}

TEST(Workgroups, RefusalsNameTheRule) {
  UOpRef k = parse_graph(kernels::kRowSum);
  const Capabilities& gpu = workgroup_target().capabilities;
  Capabilities c = c_capabilities();
  EXPECT_TRUE(has(opt_error([&] { apply_opt(k, Opt::split(0, 4, AxisType::LOCAL), std::nullopt, &c); }),
                  "SPLIT(0, 4, LOCAL) on kernel (L4 R8): target 'C' declares no LOCAL launch dims (Capabilities::local_max)"));
  EXPECT_TRUE(has(opt_error([&] { run_pipeline(k, c_target(), "r", {Opt::split(0, 2, AxisType::GLOBAL)}); }),
                  "target 'C' declares no GLOBAL launch dims"));
  EXPECT_TRUE(has(opt_error([&] { apply_opts(k, {Opt{OptOp::NOLOCALS}, Opt::split(1, 4, AxisType::GROUP_REDUCE)}, &gpu); }),
                  "SPLIT(1, 4, GROUP_REDUCE) on kernel (L4 R8): NOLOCALS: the kernel uses no local memory, and a GROUP_REDUCE on target "
                  "'CL:test"));
  EXPECT_TRUE(has(opt_error([&] { apply_opts(k, {Opt{OptOp::NOLOCALS}, Opt::split(0, 2, AxisType::LOCAL)}, &gpu); }),
                  "NOLOCALS: the kernel has no LOCAL axes"));
  EXPECT_TRUE(has(opt_error([&] { apply_opts(k, {Opt::split(0, 2, AxisType::LOCAL), Opt{OptOp::NOLOCALS}}, &gpu); }),
                  "NOLOCALS on kernel (L2 l2 R8): the kernel has a LOCAL axis (axis 1) in its workgroup; NOLOCALS comes before any"));
  EXPECT_TRUE(has(opt_error([&] { apply_opts(k, {Opt::split(0, 2, AxisType::GLOBAL), Opt::split(0, 2, AxisType::THREAD)}, &gpu); }),
                  "THREAD splits a GLOBAL or LOOP axis") ||
              has(opt_error([&] { apply_opts(k, {Opt::split(0, 2, AxisType::GLOBAL), Opt::split(0, 2, AxisType::THREAD)}, &gpu); }),
                  "the kernel has launch axes"));
  EXPECT_TRUE(has(opt_error([&] { apply_opts(k, {Opt::split(0, 2, AxisType::THREAD), Opt::split(1, 2, AxisType::GLOBAL)}, &gpu); }),
                  "the kernel has a THREAD axis (axis 0), whose parts are launches of their own"));
  EXPECT_TRUE(has(opt_error([&] { apply_opt(k, Opt::split(1, 4, AxisType::GLOBAL), std::nullopt, &gpu); }),
                  "GLOBAL splits a LOOP axis, not REDUCE"));
  // a workgroup larger than the device runs: 512 lanes of 256 at most
  UOpRef big = parse_graph(kSum1024);
  EXPECT_TRUE(has(opt_error([&] { apply_opt(big, Opt::split(0, 512, AxisType::GROUP_REDUCE), std::nullopt, &gpu); }),
                  "a workgroup of 512 work items (512 in one dim); target 'CL:test"));
}

// The heuristics for a target with workgroups: GLOBAL x LOCAL for elementwise kernels, lanes for a
// long reduction into few outputs, nothing for small kernels; BEAM's moves include the new axes.
TEST(Workgroups, HeuristicsAndBeamMoves) {
  const Capabilities& gpu = workgroup_target().capabilities;
  UOpRef small = parse_graph(kernels::kRowSum);
  EXPECT_TRUE(workgroup_opts(small, gpu).empty());  // 32 iterations: left alone
  std::vector<Opt> moves = opt_actions(small, &gpu);
  auto has_move = [&](AxisType t) {
    for (const Opt& o : moves)
      if (o.op == OptOp::SPLIT && o.target == t) return true;
    return false;
  };
  EXPECT_TRUE(has_move(AxisType::LOCAL));
  EXPECT_TRUE(has_move(AxisType::GLOBAL));
  // lanes: 16..256 of a 1024-term sum, and the heuristics' 256 (padded when needed: 1000 -> 1024)
  std::vector<Opt> sum_moves = opt_actions(parse_graph(kSum1024), &gpu);
  EXPECT_TRUE(std::any_of(sum_moves.begin(), sum_moves.end(), [](const Opt& o) { return o.target == AxisType::GROUP_REDUCE && o.arg == 256; }));
  EXPECT_EQ(opts_text(workgroup_opts(parse_graph(kSum1024), gpu)), "[SPLIT(0, 256, GROUP_REDUCE)]");
  EXPECT_TRUE(opt_actions(parse_graph(kSum1024)).size() < sum_moves.size());
  // on the C target none of them
  moves = opt_actions(small);
  EXPECT_FALSE(has_move(AxisType::LOCAL));
  EXPECT_FALSE(has_move(AxisType::GLOBAL));
  EXPECT_FALSE(has_move(AxisType::GROUP_REDUCE));
  // an elementwise kernel of 4096: GLOBAL x LOCAL
  UOpRef e = parse_graph(R"(
%c4096 = CONST index 4096
%s = STACK index (%c4096)
%out = PARAM ptr<float32, GLOBAL> (%s) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s) {slot=1}
%r0 = RANGE index (%c4096) {id=0, LOOP}
%ii = INDEX ptr<float32, GLOBAL> (%in, %r0)
%x = LOAD float32 (%ii)
%y = ADD float32 (%x, %x)
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %y)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)");
  EXPECT_EQ(kernel_shape(apply_opts(e, workgroup_opts(e, gpu), &gpu)), "g32 l128");
}

// A kernel text with its constants scaled: each "CONST index <from>" becomes <to>.
std::string scaled(std::string text, const std::vector<std::pair<int64_t, int64_t>>& sizes) {
  for (const auto& [from, to] : sizes) {
    std::string a = "CONST index " + std::to_string(from) + "\n", b = "CONST index " + std::to_string(to) + "\n";
    for (size_t at = text.find(a); at != std::string::npos; at = text.find(a, at + b.size())) text.replace(at, a.size(), b);
  }
  return text;
}

// Where a workgroup's work items run in turn on one core (an OpenCL CPU device), a reduction into
// many outputs gets as many lanes as a vector of its dtype holds and at most `threads` workgroups,
// its rows a loop in each; a kernel with two reductions (softmax) gets no LOCAL lanes. Elementwise kernels as before.
TEST(Workgroups, HeuristicsForWorkItemsRunInTurn) {
  DeviceTraits t;
  t.description = "a CPU test device";
  t.compute_units = 2;  // threads: 8
  t.max_workgroup_size = 4096;
  t.max_work_items = {4096, 4096, 4096};
  t.local_memory_bytes = 65536;
  t.preferred_vector_bytes = 64;  // 16 floats
  t.cpu = true;
  Capabilities cpu = opencl_capabilities("CL:cpu", t);
  ASSERT_TRUE(cpu.serial_work_items);
  auto shape = [&](const std::string& text) {
    UOpRef k = parse_graph(text);
    return kernel_shape(apply_opts(k, workgroup_opts(k, cpu), &cpu));
  };
  // 1024 rows of 1024: 8 workgroups of 128 rows, 16 lanes (the GPU-like target: g1024 and 256 lanes)
  std::string rows = scaled(kernels::kRowSum, {{4, 1024}, {8, 1024}, {32, 1024 * 1024}});
  EXPECT_EQ(shape(rows), "g8 L128 R64 G16");
  EXPECT_EQ(kernel_shape(apply_opts(parse_graph(rows), workgroup_opts(parse_graph(rows), workgroup_target().capabilities),
                                    &workgroup_target().capabilities)),
            "g1024 R4 G256");
  // at most `threads` outputs: a workgroup each, one barrier each, the GPU's lanes
  EXPECT_EQ(shape(scaled(kernels::kRowSum, {{4, 6}, {8, 1024}, {32, 6 * 1024}})), "g6 R4 G256");
  EXPECT_EQ(shape(kSum1024), "R4 G256");
  // softmax: two reductions, no lanes; 8 workgroups, the columns' upcast as on the CPU
  std::string sm = shape(scaled(kernels::kSoftmax, {{4, 1024}, {8, 1024}, {32, 1024 * 1024}}));
  EXPECT_EQ(sm.substr(0, 8), "g8 L128 ") << sm;
  EXPECT_FALSE(has(sm, " l") || has(sm, " G")) << sm;
}

}  // namespace
}  // namespace onegrad
