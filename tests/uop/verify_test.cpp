// The tensor-stage verifier: one test per rule with a graph that breaks it (the message must name
// the op, the rule and the shapes or dtypes), and good graphs, symbolic ones included, that pass.
#include <gtest/gtest.h>

#include "graph_builders.h"
#include "uop/errors.h"
#include "uop/verify/verify.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// The message verify() throws, or "" when the graph passes.
std::string verify_message(const UOpRef& root) {
  try {
    verify(root);
  } catch (const VerifyError& e) {
    return e.what();
  }
  return "";
}

std::string mm_text(const UOpRef& u) { return "[" + u->vmin().str() + ", " + u->vmax().str() + "]"; }

UOpRef f32(double v) { return UOp::const_float(dtypes::float32, v); }
UOpRef i32(int64_t v) { return UOp::const_int(dtypes::int32, v); }

}  // namespace

// ---- good graphs -----------------------------------------------------------------------------

TEST(Verify, GemmPasses) {
  // spec: Common Ops as Compositions, gemm
  UOpRef a = tensor({4, 5}), b = tensor({5, 3});
  UOpRef prod = reshape(a, {4, 5, 1}) * reshape(b, {1, 5, 3});
  UOpRef c = reshape(reduce(prod, Ops::ADD, {1}), {4, 3});
  UOpRef out = buffer(12);
  UOpRef store = UOp::create(Ops::STORE, {out, reshape(c, dims({12}))});
  UOpRef root = UOp::create(Ops::SINK, {UOp::create(Ops::AFTER, {out, store})});
  EXPECT_EQ(verify_message(root), "");
  EXPECT_TRUE(check(root).empty());
}

TEST(Verify, MovementOpsPass) {
  UOpRef x = tensor({4, 3});
  UOpRef y = shrink(pad(x, {1, 0}, {6, 3}), {1, 0}, {4, 3});
  UOpRef z = permute(UOp::create(Ops::FLIP, {y}, Arg(Arg::Bools{true, false})), {1, 0});
  UOpRef e = expand(reshape(z, {3, 4, 1}), {3, 4, 7});
  UOpRef s = UOp::create(Ops::STACK, {e, e});
  UOpRef idx = UOp::create(Ops::INDEX, {s, UOp::index(1), UOp::create(Ops::STACK, {UOp::index(0), UOp::index(2)})});
  EXPECT_EQ(idx->static_shape(), (std::vector<int64_t>{2, 4, 7}));
  EXPECT_EQ(verify_message(UOp::create(Ops::SINK, {idx})), "");
}

TEST(Verify, SymbolicDimsPass) {
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef x = reshape(buffer(64), {UOp::index(64)});
  UOpRef xs = shrink(x, dims({0}), {n});                          // (n,)
  UOpRef e = expand(reshape(f32(2.0), dims({1})), {n});            // (1,) -> (n,)
  UOpRef sum = xs + e;                                             // n broadcasts with n
  UOpRef r = reshape(reshape(sum, {n, UOp::index(1)}), {n});       // products n*1 == n
  UOpRef p = pad(r, dims({1}), {n + 2});                           // 1 + n <= n + 2
  UOpRef q = shrink(p, dims({2}), {n});                            // 2 + n <= n + 2
  UOpRef m = reshape(expand(reshape(q, {n, UOp::index(1)}), {n, UOp::index(4)}), {n * 4});  // n*4 == 4*n
  EXPECT_EQ(verify_message(m), "");
}

TEST(Verify, MillionNodeChainVerifiesWithoutRecursion) {
  UOpRef x = tensor({4, 3});
  UOpRef one = f32(1.0);
  for (int i = 0; i < 1'000'000; i++) x = x + one;
  EXPECT_EQ(verify_message(x), "");
  // a violation at the bottom of a long chain is found, and reported once (not once per user)
  UOpRef y = UOp::create(Ops::ADD, {tensor({4, 3}), tensor({5, 3})});
  for (int i = 0; i < 100'000; i++) y = y + one;
  std::vector<std::string> found = check(y);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "ADD: broadcast rule: shapes (4, 3) and (5, 3) differ at axis 0 and neither is 1");
}

TEST(Verify, CheckReportsEveryIndependentViolation) {
  UOpRef bad1 = reshape(tensor({4, 3}), {5, 2});
  UOpRef bad2 = UOp::create(Ops::CMPLT, {i32(1), f32(1.0)});
  std::vector<std::string> found = check(UOp::create(Ops::SINK, {bad1, bad2}));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], "RESHAPE: reshape products differ: (4, 3) has 12 elements, (5, 2) has 10");
  EXPECT_EQ(found[1], "CMPLT: operand dtypes differ: int32 vs float32");
}

TEST(Verify, StageOpSet) {
  EXPECT_TRUE(stage_allows(Stage::Tensor, Ops::RESHAPE));
  EXPECT_TRUE(stage_allows(Stage::Tensor, Ops::THREEFRY));
  EXPECT_TRUE(stage_allows(Stage::Tensor, Ops::DETACH));
  EXPECT_FALSE(stage_allows(Stage::Tensor, Ops::RANGE));
  EXPECT_FALSE(stage_allows(Stage::Tensor, Ops::SPECIAL));
  EXPECT_EQ(stage_name(Stage::Tensor), "tensor");
}

// ---- op set, arity, arg kind ------------------------------------------------------------------

TEST(VerifyRule, KernelOpsRejected) {
  EXPECT_EQ(verify_message(UOp::range(8, 0)),
            "RANGE: not in the tensor stage's op set: loops are kernel-level (Rangeify creates them)");
  UOpRef special = UOp::create(Ops::SPECIAL, {UOp::index(4)}, Arg("gidx0"));
  EXPECT_EQ(verify_message(special), "SPECIAL: not in the tensor stage's op set: codegen ops do not appear in the main graph");
}

// CUSTOM is the one codegen op the tensor stage takes: a kernel named in uop/custom_kernels.h.
TEST(VerifyRule, CustomKernels) {
  UOpRef words = tensor({5}, dtypes::uint64);
  EXPECT_EQ(verify_message(UOp::create(Ops::CUSTOM, dtypes::int64, {words}, Arg("fisher_yates"))), "");
  EXPECT_EQ(verify_message(UOp::create(Ops::CUSTOM, dtypes::int64, {words}, Arg("shuffle"))),
            "CUSTOM: custom kernel: no kernel is named 'shuffle' (uop/custom_kernels.h)");
  EXPECT_EQ(verify_message(UOp::create(Ops::CUSTOM, dtypes::int32, {tensor({5})}, Arg("fisher_yates"))),
            "CUSTOM: custom kernel: fisher_yates maps uint64 words to int64, got float32 to int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::CUSTOM, dtypes::int64, {words, words}, Arg("fisher_yates"))),
            "CUSTOM: arity: expects 1 sources (T,), got 2");
  EXPECT_EQ(verify_message(UOp::create(Ops::CUSTOM, dtypes::int64, {}, Arg("fisher_yates"))),
            "CUSTOM: arity: expects 1 sources (T,), got 0");
}

TEST(VerifyRule, Arity) {
  UOpRef x = tensor({4});
  EXPECT_EQ(verify_message(UOp::create(Ops::RESHAPE, {x})), "RESHAPE: arity: expects 2 sources (T, s'), got 1");
  EXPECT_EQ(verify_message(UOp::create(Ops::PAD, dtypes::float32, {x, UOp::shape_operand(dims({4}))})),
            "PAD: arity: expects 3 sources (T, o, s'), got 2");
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, dtypes::float32, {x, x})),
            "WHERE: arity: expects 3 sources (P, A, B), got 2");
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, dtypes::float32, {x})), "ADD: arity: expects 2 sources (A, B), got 1");
  EXPECT_EQ(verify_message(UOp::create(Ops::RECIP, dtypes::float32, {x, x})),
            "RECIP: arity: expects 1 sources (T,), got 2");
  UOpRef g = UOp::const_bool(true);
  EXPECT_EQ(verify_message(UOp::create(Ops::LOAD, dtypes::float32, {x, x, g, g}, LoadArg{Device("CPU")})),
            "LOAD: arity: expects 1 to 3 sources (buf, alt?, gate?), got 4");
  EXPECT_EQ(verify_message(UOp::create(Ops::STORE, dtypes::void_, {x})),
            "STORE: arity: expects 2 to 3 sources (buf, val, gate?), got 1");
  EXPECT_EQ(verify_message(UOp::create(Ops::REDUCE, dtypes::float32, {}, ReduceArg{Ops::ADD, {0}})),
            "REDUCE: arity: expects at least 1 sources (T, r0, r1, ...), got 0");
}

TEST(VerifyRule, ArgKind) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(UOp::create(Ops::PERMUTE, {x})), "PERMUTE: arg kind: expects Ints (axis order), got none");
  EXPECT_EQ(verify_message(UOp::create(Ops::REDUCE, {x}, Arg(Arg::Ints{0}))),
            "REDUCE: arg kind: expects ReduceArg (op, axes), got Ints");
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, dtypes::float32, {x, x}, Arg(int64_t(3)))),
            "ADD: arg kind: expects none, got int");
}

TEST(VerifyRule, MalformedNodesAreReportedNotThrownThrough) {
  // a CONST without a value and a PARAM without a ParamArg: the verifier names them, and reading
  // properties or printing shapes that hold them does not throw an internal error
  UOpRef c = UOp::create(Ops::CONST, dtypes::int32, {}, Arg("x"));
  UOpRef p = UOp::create(Ops::PARAM, dtypes::index, {}, Arg(int64_t(3)));
  EXPECT_EQ(verify_message(UOp::create(Ops::SINK, {c + c})), "CONST: arg kind: expects ConstValue (the value), got string");
  EXPECT_EQ(verify_message(p), "PARAM: arg kind: expects ParamArg (slot, dtype, device?, addrspace?), got int");
  EXPECT_EQ(mm_text(c), "[-2147483648, 2147483647]");
  EXPECT_EQ(shape_str({c, p}), "(CONST(...), PARAM(...))");
}

TEST(VerifyRule, ArgValues) {
  UOpRef nodev = UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), 4, dtypes::float32, Device(), AddrSpace::GLOBAL});
  EXPECT_EQ(verify_message(nodev), "BUFFER: buffer device: a BUFFER lives on a device, got NULL");
  UOpRef neg = UOp::create(Ops::BUFFER, {}, BufferArg{next_buffer_id(), -1, dtypes::float32, Device("CPU"), AddrSpace::GLOBAL});
  EXPECT_EQ(verify_message(neg), "BUFFER: buffer size: must be >= 0, got -1");
  UOpRef bad_slot = UOp::create(Ops::PARAM, {}, ParamArg{-2, dtypes::float32, Device("CPU"), std::nullopt, "", {}, {}});
  EXPECT_EQ(verify_message(bad_slot), "PARAM: param slot: a placeholder has a slot >= 0, got -2");
  EXPECT_EQ(verify_message(UOp::variable("n", 5, 2)), "PARAM: param bounds: min 5 > max 2");
  EXPECT_EQ(verify_message(UOp::create(Ops::COPY, {tensor({4})}, Arg(Device()))), "COPY: copy device: the target device is NULL");
}

// ---- dtypes -----------------------------------------------------------------------------------

TEST(VerifyRule, NodeDtypeFollowsTheTable) {
  UOpRef x = tensor({4});
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, dtypes::int32, {x, x})),
            "ADD: dtype rule: the spec's table gives float32, the node has int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::CMPLT, dtypes::float32, {x, x})),
            "CMPLT: dtype rule: the spec's table gives bool, the node has float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::CAST, dtypes::float16, {x}, Arg(dtypes::int32))),
            "CAST: dtype rule: the spec's table gives int32, the node has float16");
}

TEST(VerifyRule, BinaryOperandDtypesAgree) {
  EXPECT_EQ(verify_message(UOp::create(Ops::CMPLT, {i32(1), f32(2.0)})), "CMPLT: operand dtypes differ: int32 vs float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, {tensor({4}), tensor({4}, dtypes::float16)})),
            "ADD: operand dtypes differ: float32 vs float16");
  UOpRef c = UOp::create(Ops::MULACC, {f32(1), f32(2), UOp::const_float(dtypes::float64, 3)});
  EXPECT_EQ(verify_message(c), "MULACC: operand dtypes differ: float32 vs float64");
}

TEST(VerifyRule, WhereConditionAndBranches) {
  UOpRef x = tensor({4});
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, {i32(1), x, x})), "WHERE: condition dtype: must be bool, got int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, {UOp::const_bool(true), x, i32(0)})),
            "WHERE: branch dtypes differ: float32 vs int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, {ne(x, x), x, f32(0)})), "");
}

TEST(VerifyRule, OperandDomains) {
  UOpRef x = tensor({4}), i = tensor({4}, dtypes::int32);
  EXPECT_EQ(verify_message(UOp::create(Ops::XOR, {x, x})), "XOR: operand dtype: bitwise ops need ints or bool, got float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::SHL, {UOp::const_bool(true), UOp::const_bool(true)})),
            "SHL: operand dtype: shifts need ints, got bool");
  EXPECT_EQ(verify_message(UOp::create(Ops::IDIV, {x, x})), "IDIV: operand dtype: integer division needs ints, got float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::MOD, {x, x})), "MOD: operand dtype: integer division needs ints, got float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::RECIP, {i})), "RECIP: operand dtype: needs floats, got int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::NOT, {i})), "NOT: operand dtype: NOT needs bool (CMPNE(A, 1)), got int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::THREEFRY, {i, i})),
            "THREEFRY: operand dtype: Threefry 2x32 works on packed uint64, got int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::AND, {i, i})), "");
  EXPECT_EQ(verify_message(UOp::create(Ops::OR, {UOp::const_bool(true), UOp::const_bool(false)})), "");
  EXPECT_EQ(verify_message(UOp::create(Ops::SHR, {i, i})), "");
}

TEST(VerifyRule, VoidOperand) {
  UOpRef b = buffer(4);
  UOpRef st = UOp::create(Ops::STORE, {b, tensor({4})});
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, dtypes::void_, {st, st})),
            "ADD: operand dtype: source 0 (STORE) is void, not a value");
}

TEST(VerifyRule, OperandDevices) {
  UOpRef a = tensor({4}), b = tensor({4}, dtypes::float32, Device("CUDA"));
  EXPECT_EQ(verify_message(a + b), "ADD: operand devices differ: CPU vs CUDA");
  EXPECT_EQ(verify_message(b + f32(1.0)), "");  // a CONST has no device
}

TEST(VerifyRule, ConstValueMatchesDtype) {
  UOpRef c = UOp::create(Ops::CONST, dtypes::float32, {}, ConstValue::from_int(3));
  EXPECT_EQ(verify_message(c), "CONST: const value: float32 constant holds an int 3");
  UOpRef v = UOp::create(Ops::CONST, dtypes::void_, {}, ConstValue::from_int(0));
  EXPECT_EQ(verify_message(v), "CONST: const dtype: a constant cannot be void");
}

TEST(VerifyRule, BitcastPreservesBytes) {
  UOpRef x = tensor({4});
  EXPECT_EQ(verify_message(UOp::create(Ops::BITCAST, {x}, Arg(dtypes::int16))),
            "BITCAST: preserve total bytes: float32 (4 bytes) to int16 (2 bytes)");
  EXPECT_EQ(verify_message(UOp::create(Ops::BITCAST, {UOp::index(1)}, Arg(dtypes::int64))),
            "BITCAST: bitcast dtypes: needs fixed-width value dtypes, got index to int64");
  EXPECT_EQ(verify_message(UOp::create(Ops::BITCAST, {x}, Arg(dtypes::uint32))), "");
}

TEST(VerifyRule, CastTarget) {
  EXPECT_EQ(verify_message(UOp::create(Ops::CAST, {tensor({4})}, Arg(dtypes::void_))),
            "CAST: cast target: cannot cast to void");
  EXPECT_EQ(verify_message(cast(tensor({4}), dtypes::int8)), "");
}

TEST(VerifyRule, StackDtypesAndShapes) {
  EXPECT_EQ(verify_message(UOp::create(Ops::STACK, {f32(1), i32(1)})), "STACK: source dtypes differ: float32 vs int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::STACK, {tensor({4, 3}), tensor({4, 2})})),
            "STACK: all shapes must match: (4, 3) vs (4, 2)");
}

TEST(VerifyRule, IndexCountDtypeAndShape) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(UOp::create(Ops::INDEX, {x, UOp::index(0), UOp::index(1), UOp::index(2)})),
            "INDEX: index count: 3 indices for shape (4, 3)");
  EXPECT_EQ(verify_message(UOp::create(Ops::INDEX, {x, f32(0)})), "INDEX: index dtype: index 0 must be an integer, got float32");
  UOpRef i2 = tensor({2, 2}, dtypes::int32);
  EXPECT_EQ(verify_message(UOp::create(Ops::INDEX, {x, i2})), "INDEX: index shape: index 0 must have shape () or (k,), got (2, 2)");
  EXPECT_EQ(verify_message(UOp::create(Ops::INDEX, {x, i32(2)})), "");
}

TEST(VerifyRule, LoadAndStoreDtypes) {
  UOpRef b = buffer(4);
  EXPECT_EQ(verify_message(UOp::create(Ops::LOAD, {b, i32(0)}, LoadArg{Device("CPU")})),
            "LOAD: alt dtype differs from buffer: int32 vs float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::LOAD, {b, f32(0), i32(1)}, LoadArg{Device("CPU")})),
            "LOAD: gate dtype: must be bool, got int32");
  EXPECT_EQ(verify_message(UOp::create(Ops::STORE, {b, tensor({4}, dtypes::int32)})),
            "STORE: value dtype differs from buffer: int32 vs float32");
}

TEST(VerifyRule, GroupMergesSideEffects) {
  UOpRef b = buffer(4);
  UOpRef st = UOp::create(Ops::STORE, {b, tensor({4})});
  EXPECT_EQ(verify_message(UOp::create(Ops::GROUP, {st, b})), "GROUP: source dtype: merges side effects, but source 1 (BUFFER) is float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::GROUP, {st})), "");
}

// ---- shapes -----------------------------------------------------------------------------------

TEST(VerifyRule, BroadcastRule) {
  EXPECT_EQ(verify_message(UOp::create(Ops::ADD, {tensor({4, 3}), tensor({5, 3})})),
            "ADD: broadcast rule: shapes (4, 3) and (5, 3) differ at axis 0 and neither is 1");
  UOpRef c = UOp::create(Ops::CMPLT, {tensor({4, 3}), tensor({4, 1})});
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, {c, tensor({2, 4, 3}), tensor({4, 2})})),
            "WHERE: broadcast rule: shapes (4, 3) and (2, 4, 3) and (4, 2) differ at axis 2 and neither is 1");
  EXPECT_EQ(verify_message(UOp::create(Ops::WHERE, {c, tensor({2, 4, 3}), tensor({3})})), "");
  UOpRef n = UOp::variable("n", 1, 64), m = UOp::variable("m", 1, 64);
  UOpRef xn = expand(reshape(f32(1), dims({1})), {n}), xm = expand(reshape(f32(1), dims({1})), {m});
  EXPECT_EQ(verify_message(xn + xm), "ADD: broadcast rule: shapes (n,) and (m,) differ at axis 0 and neither is 1");
}

TEST(VerifyRule, ReshapeProducts) {
  EXPECT_EQ(verify_message(reshape(tensor({4, 3}), {5, 2})),
            "RESHAPE: reshape products differ: (4, 3) has 12 elements, (5, 2) has 10");
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef xn = reshape(expand(reshape(f32(1), dims({1, 1})), {n, UOp::index(4)}), {n * 4});
  EXPECT_EQ(verify_message(xn), "");
  EXPECT_EQ(verify_message(reshape(xn, {n, UOp::index(3)})),
            "RESHAPE: reshape products differ: (MUL(...),) has 4*n elements, (n, 3) has 3*n");
  // limitation: a product the canonical form cannot see through is rejected
  EXPECT_EQ(verify_message(reshape(xn, {idiv(n * 4, 2), UOp::index(2)})),
            "RESHAPE: reshape products differ: (MUL(...),) has 4*n elements, (IDIV(...), 2) has 2*IDIV(...)");
}

TEST(VerifyRule, ShapeOperands) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(UOp::create(Ops::RESHAPE, {x, UOp::index(12)})),
            "RESHAPE: shape operand: s' must be a STACK of index dims, got CONST(index, shape ())");
  UOpRef s = UOp::create(Ops::STACK, {UOp::const_int(dtypes::int32, 12), UOp::const_int(dtypes::int32, 1)});
  EXPECT_EQ(verify_message(UOp::create(Ops::RESHAPE, {x, s})),
            "RESHAPE: shape operand: s' must be a STACK of index dims, got STACK(int32, shape (2,))");
  UOpRef v = UOp::create(Ops::STACK, {UOp::create(Ops::STACK, {UOp::index(12)})});
  EXPECT_EQ(verify_message(UOp::create(Ops::RESHAPE, {x, v})),
            "RESHAPE: shape operand: s'[0] is not a scalar: STACK(index, shape (1,))");
  EXPECT_EQ(verify_message(reshape(x, dims({-12, -1}))), "RESHAPE: s' must be >= 0: s' = (-12, -1), s'[0] has min -12");
  EXPECT_EQ(verify_message(pad(x, {-1, 0}, {4, 3})), "PAD: o must be >= 0: o = (-1, 0), o[0] has min -1");
}

TEST(VerifyRule, PermutationValidity) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(permute(x, {0, 0})), "PERMUTE: permutation validity: (0, 0) is not a permutation of the 2 axes of (4, 3)");
  EXPECT_EQ(verify_message(permute(x, {1})), "PERMUTE: permutation validity: (1,) is not a permutation of the 2 axes of (4, 3)");
  EXPECT_EQ(verify_message(permute(x, {1, 2})), "PERMUTE: permutation validity: (1, 2) is not a permutation of the 2 axes of (4, 3)");
}

TEST(VerifyRule, ExpandSizes) {
  UOpRef x = tensor({4, 1});
  EXPECT_EQ(verify_message(expand(x, {5, 3})), "EXPAND: only size-1 axes expand: axis 0 of (4, 1) cannot become 5 in (5, 3)");
  EXPECT_EQ(verify_message(expand(x, {2, 4, 3})), "EXPAND: same rank: (4, 1) has 2 dims, (2, 4, 3) has 3");
  EXPECT_EQ(verify_message(expand(x, {4, 3})), "");
}

TEST(VerifyRule, PadBounds) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(pad(x, {2, 0}, {5, 3})),
            "PAD: o_k + s_k <= s'_k: axis 0: 2 + 4 > 5 (T (4, 3), o (2, 0), s' (5, 3))");
  EXPECT_EQ(verify_message(pad(x, dims({0}), dims({4}))), "PAD: same rank: T (4, 3), o (0,), s' (4,)");
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef xn = shrink(reshape(buffer(64), dims({64})), dims({0}), {n});
  EXPECT_EQ(verify_message(pad(xn, dims({1}), {n})), "PAD: o_k + s_k <= s'_k: axis 0: 1 + n > n (T (n,), o (1,), s' (n,))");
  EXPECT_EQ(verify_message(pad(xn, dims({0}), dims({32}))),
            "PAD: o_k + s_k <= s'_k: axis 0: cannot show 0 + n <= 32 (T (n,), o (0,), s' (32,))");
  EXPECT_EQ(verify_message(pad(xn, dims({0}), dims({64}))), "");  // n <= 64 by its bounds
}

TEST(VerifyRule, ShrinkBounds) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(shrink(x, {1, 0}, {4, 3})),
            "SHRINK: o_k + s'_k <= s_k: axis 0: 1 + 4 > 4 (T (4, 3), o (1, 0), s' (4, 3))");
  EXPECT_EQ(verify_message(shrink(x, {-1, 0}, {2, 3})), "SHRINK: o must be >= 0: o = (-1, 0), o[0] has min -1");
  EXPECT_EQ(verify_message(shrink(x, {1, 1}, {3, 2})), "");
}

TEST(VerifyRule, FlipFlags) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(UOp::create(Ops::FLIP, {x}, Arg(Arg::Bools{true, false, true}))),
            "FLIP: one flag per axis: 3 flags for shape (4, 3)");
}

TEST(VerifyRule, ReduceOpAndAxes) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(reduce(x, Ops::SUB, {0})), "REDUCE: reduce op: must be ADD, MAX or MUL, got SUB");
  EXPECT_EQ(verify_message(reduce(x, Ops::ADD, {2})), "REDUCE: axes in range: axis 2 out of range for (4, 3)");
  EXPECT_EQ(verify_message(reduce(x, Ops::MAX, {1, 1})), "REDUCE: axes unique: axis 1 named twice for (4, 3)");
  EXPECT_EQ(verify_message(UOp::create(Ops::REDUCE, {x, UOp::index(3)}, ReduceArg{Ops::ADD, {}})),
            "REDUCE: reduce sources: source 1 (CONST) is not a RANGE");
}

TEST(VerifyRule, ReplicatedAxes) {
  UOpRef x = tensor({4, 3});
  EXPECT_EQ(verify_message(UOp::create(Ops::REPLICATED, {x}, Arg(Arg::Ints{3}))),
            "REPLICATED: axes in range: axis 3 out of range for (4, 3)");
}

TEST(VerifyRule, StoreShapes) {
  EXPECT_EQ(verify_message(UOp::create(Ops::STORE, {buffer(12), tensor({4, 3})})),
            "STORE: buf.shape = val.shape: (12,) vs (4, 3)");
}

TEST(VerifyRule, SliceOffset) {
  UOpRef x = reshape(buffer(16), dims({16}));
  EXPECT_EQ(verify_message(UOp::create(Ops::SLICE, {x, i32(0)}, SliceArg{4, dtypes::float32})),
            "SLICE: offset: must be an index scalar, got CONST(int32, shape ())");
  EXPECT_EQ(verify_message(UOp::create(Ops::SLICE, {x, UOp::index(-2)}, SliceArg{4, dtypes::float32})),
            "SLICE: offset must be >= 0: offset has min -2");
  EXPECT_EQ(verify_message(UOp::create(Ops::SLICE, {x, UOp::index(2)}, SliceArg{4, dtypes::int32})), "");
}

TEST(VerifyRule, SourceWithoutShape) {
  UOpRef t = UOp::create(Ops::TUPLE, {tensor({4})});
  EXPECT_EQ(verify_message(UOp::create(Ops::RESHAPE, {t, UOp::shape_operand(dims({4}))})),
            "RESHAPE: source shape: source 0 (TUPLE) has no shape");
}

// ---- calls ------------------------------------------------------------------------------------

TEST(VerifyRule, FunctionBodyIsTuple) {
  UOpRef p0 = param(0, dims({4}));
  UOpRef fn = UOp::create(Ops::FUNCTION, dtypes::float32, {p0 + p0, tensor({4})});
  EXPECT_EQ(verify_message(fn), "FUNCTION: body is a TUPLE: the body is ADD(float32, shape (4,))");
}

TEST(VerifyRule, FunctionParamsAndGetTuple) {
  UOpRef p0 = param(0, dims({4})), p1 = param(1, dims({4}));
  UOpRef body = UOp::create(Ops::TUPLE, {p0 + p1, p0});
  UOpRef a = tensor({4}), b = tensor({4});
  UOpRef fn = UOp::create(Ops::FUNCTION, {body, a, b});
  UOpRef r = UOp::create(Ops::GETTUPLE, {fn}, Arg(int64_t(0)));
  EXPECT_EQ(verify_message(r), "");
  EXPECT_EQ(verify_message(UOp::create(Ops::GETTUPLE, dtypes::float32, {fn}, Arg(int64_t(2)))),
            "GETTUPLE: index in range: element 2 of a TUPLE of 2");
  EXPECT_EQ(verify_message(UOp::create(Ops::GETTUPLE, dtypes::float32, {a}, Arg(int64_t(0)))),
            "GETTUPLE: source is a TUPLE: got RESHAPE");
  // a missing argument, a second PARAM in one slot, arguments that do not fit
  EXPECT_EQ(verify_message(UOp::create(Ops::FUNCTION, {body, a})), "FUNCTION: PARAM slot has an argument: slot 1 of 1 arguments");
  UOpRef q0 = param(0, dims({4}), dtypes::int32);
  UOpRef body2 = UOp::create(Ops::TUPLE, {p0, q0});
  EXPECT_EQ(verify_message(UOp::create(Ops::FUNCTION, {body2, a})),
            "FUNCTION: PARAM slots distinct: slot 0 is both " + p0->brief() + " and " + q0->brief());
  EXPECT_EQ(verify_message(UOp::create(Ops::FUNCTION, {body, a, tensor({4}, dtypes::int32)})),
            "FUNCTION: argument dtype: a1 is int32, PARAM 1 is float32");
  EXPECT_EQ(verify_message(UOp::create(Ops::FUNCTION, {body, a, tensor({5})})),
            "FUNCTION: argument shape: a1 is (5,), PARAM 1 is (4,)");
}

TEST(VerifyRule, SymbolicParamTakesTheArgumentsDim) {
  UOpRef n = UOp::variable("n", 1, 64);
  UOpRef p0 = param(0, {n});
  UOpRef fn = UOp::create(Ops::FUNCTION, {UOp::create(Ops::TUPLE, {p0 + p0}), tensor({7})});
  UOpRef r = UOp::create(Ops::GETTUPLE, {fn}, Arg(int64_t(0)));
  EXPECT_EQ(verify_message(r), "");
  EXPECT_EQ(r->static_shape(), std::vector<int64_t>{7});
}

TEST(VerifyRule, OpaqueCallBodyIsNotWalked) {
  // a CALL of a compiled kernel: its body is codegen-level and is not checked against this stage
  UOpRef prog = UOp::create(Ops::PROGRAM, {UOp::create(Ops::LINEAR, {UOp::range(4, 0)})});
  UOpRef call = UOp::create(Ops::CALL, dtypes::void_, {prog, buffer(4)});
  EXPECT_EQ(verify_message(UOp::create(Ops::SINK, {call})), "");
  EXPECT_EQ(verify_message(UOp::create(Ops::SINK, {prog})),
            "RANGE: not in the tensor stage's op set: loops are kernel-level (Rangeify creates them)");
}
